//! The batch engine behind `solve` and `verify`: read records in fixed batches, work on each
//! batch across the rayon pool ([`pipeline`]), consume results in input order.
//!
//! Reading and writing run on one thread while the pool solves the current batch
//! (`rayon::join`), so I/O overlaps the solving. Only three batches are alive at a time,
//! so memory stays bounded whatever the input size. Output is byte-identical for any thread
//! count, apart from the timing column of `--stats`.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::grid::{Grid, ParseError};
use crate::input::{self, Layout, LayoutOptions, RawRecord, RecordReader};
use crate::output::{CsvWriter, LinesWriter, SolutionWriter, StatsWriter, Target};
use crate::report::{InputInfo, RunRates, SolveReport, Status, StatusCounts, Tally};
use crate::shard::{self, Shard};
use crate::stamp::Stamp;
use crate::{failure, interrupt, solver};

/// Records per batch: large enough to keep every core busy between two writes, small
/// enough to keep memory low.
pub const BATCH: usize = 8 * 1024;

/// Set by the Ctrl-C handler: workers take no new record, the finished prefix of the
/// current batch is written, then the run stops (see [`crate::interrupt`]).
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Everything `solve` needs, validated.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// Count solutions up to this many: 1 = first solution only, 2 = tell unique from not.
    pub limit: u32,
    /// Solutions output path; `-` is standard output.
    pub output: String,
    /// Per-record stats CSV path, if wanted.
    pub stats: Option<String>,
    /// JSON report path, if wanted.
    pub report: Option<String>,
}

/// What every command that reads records (`solve`, `verify`) needs to know about its inputs.
#[derive(Clone, Debug)]
pub struct ReadConfig {
    /// Input paths; `-` is standard input.
    pub inputs: Vec<String>,
    /// Layout options shared by all inputs (`verify` adds the solution column).
    pub layout: LayoutOptions,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// No progress bar and no summary.
    pub quiet: bool,
    /// Memory-map regular files (else read them into memory).
    pub mmap: bool,
    /// Read only this shard of each input (`--shard K/N`); `None` reads everything.
    pub shard: Option<Shard>,
}

/// A rayon pool of `threads` workers, for one run of `solve`, `verify` or one thread count
/// of `bench`.
///
/// # Errors
/// When the OS refuses the threads.
pub(crate) fn worker_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")
}

/// The result of solving one record.
#[derive(Clone, Debug)]
pub struct SolvedRecord {
    /// 0-based record index over the whole run.
    pub record: u64,
    /// 1-based line in its input.
    pub line: u64,
    /// What happened.
    pub status: Status,
    /// Solutions found, up to the limit.
    pub solutions: u32,
    /// Givens in the puzzle, when it parsed.
    pub clues: Option<u32>,
    /// Guesses the solver made.
    pub guesses: u32,
    /// Time spent in the solver (which also finds clashing givens), nanoseconds, monotonic
    /// clock.
    pub solve_ns: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Why the record is `invalid`, else `None`.
    pub error: Option<ParseError>,
}

/// Classifies and solves one record, counting solutions up to `limit`.
pub fn solve_record(raw: &RawRecord, limit: u32) -> SolvedRecord {
    let mut res = SolvedRecord {
        record: raw.record,
        line: raw.line,
        status: Status::Invalid,
        solutions: 0,
        clues: None,
        guesses: 0,
        solve_ns: 0,
        solution: None,
        error: None,
    };
    let puzzle = match &raw.puzzle {
        Ok(p) => p,
        Err(e) => {
            res.error = Some(e.clone());
            return res;
        }
    };
    res.clues = Some(puzzle.clues());
    let start = Instant::now();
    let s = solver::solve(puzzle, limit);
    res.solve_ns = elapsed_ns(start);
    if s.givens_clash {
        let c = puzzle
            .conflicts()
            .unwrap_or_else(|| "two givens clash".to_string());
        res.error = Some(ParseError::Conflict(c));
        return res;
    }
    res.solutions = s.count;
    res.guesses = s.guesses;
    res.solution = s.grid;
    res.status = match s.count {
        0 => Status::Unsolvable,
        1 => Status::Solved,
        _ if limit == 1 => Status::Solved,
        _ => Status::Multiple,
    };
    res
}

fn elapsed_ns(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Where solutions go: the writer picked by the first input's layout.
enum Sink {
    Lines(LinesWriter),
    Csv(Box<CsvWriter>, Option<Vec<String>>),
}

impl Sink {
    fn writer(&mut self) -> &mut dyn SolutionWriter {
        match self {
            Sink::Lines(w) => w,
            Sink::Csv(w, _) => w.as_mut(),
        }
    }

    fn into_target(self) -> io::Result<Target> {
        match self {
            Sink::Lines(w) => Ok(w.into_target()),
            Sink::Csv(w, _) => w.into_target(),
        }
    }
}

/// Writes results, counts them and remembers the first invalid records for the summary.
struct Collector<'a> {
    sink: Option<Sink>,
    stats: Option<StatsWriter>,
    counts: StatusCounts,
    tally: Tally,
    path: &'a str,
    notes: Vec<String>,
    invalid_seen: u64,
}

/// Invalid records named one by one on stderr before the rest are only counted.
const MAX_NOTES: usize = 10;

impl Collector<'_> {
    fn write(&mut self, raws: &[RawRecord], results: &[SolvedRecord]) -> Result<()> {
        let sink = self
            .sink
            .as_mut()
            .expect("the sink is opened before any batch");
        let w = sink.writer();
        for (raw, res) in raws.iter().zip(results) {
            w.write(raw, res).context("cannot write solutions")?;
            if let Some(s) = &mut self.stats {
                s.write(res).context("cannot write --stats")?;
            }
            self.counts.add(res.status);
            if res.status == Status::Invalid {
                self.invalid_seen += 1;
                if self.notes.len() < MAX_NOTES {
                    let e = res.error.as_ref().map(ToString::to_string);
                    self.notes.push(format!(
                        "{}:{}: {}",
                        self.path,
                        res.line,
                        e.unwrap_or_default()
                    ));
                }
            } else {
                self.tally.add(res.solve_ns, res.guesses);
            }
        }
        w.start_writeback();
        if let Some(s) = &mut self.stats {
            s.start_writeback();
        }
        Ok(())
    }
}

/// A progress bar over `total` input bytes on stderr; hidden with `quiet` or when stderr is
/// not a terminal. It advances once per batch.
pub fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if quiet || !io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {bytes}/{total_bytes} {msg} ({eta} left)",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    pb
}

/// Runs `solve` as configured: reads every input, writes solutions, stats and report,
/// prints the summary to stderr, and returns the report.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened, a layout that cannot be
/// worked out, inputs of different layouts, an output that cannot be written. Bad records
/// are never errors: they are `invalid` records in the results.
pub fn run_solve(cfg: &SolveConfig) -> Result<SolveReport> {
    let start = Instant::now();
    let pool = worker_pool(cfg.read.threads)?;
    let stats = match &cfg.stats {
        Some(p) => Some(StatsWriter::new(Target::create(p)?).with_context(|| p.to_string())?),
        None => None,
    };
    // Opened now, so an unwritable --report path fails before the work, not after it.
    let report_out = cfg.report.as_deref().map(Target::create).transpose()?;
    let mut col = Collector {
        sink: None,
        stats,
        counts: StatusCounts::default(),
        tally: Tally::default(),
        path: "",
        notes: Vec::new(),
        invalid_seen: 0,
    };
    let mut inputs = Vec::new();
    let mut next_record = 0;
    let mut interrupted = false;
    for path in &cfg.read.inputs {
        let stamp = Stamp::of(path);
        let source = input::open(path, cfg.read.mmap)?;
        let bytes = source.bytes();
        let layout =
            input::detect(bytes, &cfg.read.layout).map_err(|reason| input::InputError::Layout {
                path: path.clone(),
                reason,
            })?;
        open_sink(&mut col.sink, &layout, path, &cfg.output)?;
        col.path = path;
        let mut reader = match cfg.read.shard {
            None => RecordReader::new(bytes, &layout, next_record),
            Some(s) => {
                let range = shard::range(bytes, &layout, s);
                RecordReader::new_range(bytes, &layout, &range, next_record)
            }
        };
        let pb = progress_bar(bytes.len() as u64, cfg.read.quiet);
        let written_before = col.counts.total();
        interrupted = pool.install(|| {
            pipeline(
                &mut reader,
                |r| failure::guard_record(r, || solve_record(r, cfg.limit)),
                |raws, res| col.write(raws, res),
                &pb,
                path,
            )
        })?;
        pb.finish_and_clear();
        if let (input::Source::Mapped(_), Some(stamp)) = (&source, stamp) {
            if let Some(why) = stamp.changed(path) {
                bail!(
                    "{path}: {why}: its results may mix old and new bytes, so no output was \
                     committed; use --no-mmap for a file that changes"
                );
            }
        }
        // Records written, which is fewer than records read when interrupted.
        let records = col.counts.total() - written_before;
        // A shard numbers the next input's records after all of this input's, as the whole run.
        next_record = match cfg.read.shard {
            None => reader.next_record(),
            Some(_) => next_record + shard::total_records(bytes, &layout),
        };
        if records == 0 && !cfg.read.quiet {
            eprintln!("sudoku-batch: note: {path}: no puzzles found (0 records)");
        }
        inputs.push(InputInfo {
            path: path.clone(),
            bytes: bytes.len() as u64,
            layout: layout.name(),
            records,
        });
        if interrupted {
            break;
        }
    }
    let report = build_report(cfg, &col, inputs, start.elapsed(), interrupted);
    let mut targets = Vec::new();
    if let Some(sink) = col.sink.take() {
        let t = sink.into_target().context("cannot write solutions")?;
        targets.push((t, "cannot write solutions".to_string()));
    }
    if let Some(s) = col.stats.take() {
        targets.push((s.into_target(), "cannot write --stats".to_string()));
    }
    if let (Some(mut t), Some(p)) = (report_out, cfg.report.as_deref()) {
        let what = format!("cannot write --report {p}");
        t.write_json(&report).context(what.clone())?;
        targets.push((t, what));
    }
    commit_outputs(targets)?;
    print_summary(cfg, &col, &report);
    Ok(report)
}

/// Makes every output durable, then renames each into place, naming the output (`what`)
/// in an error: a sync error (a full or failing disk) comes before any rename, so it
/// leaves every target as it was and exit 2 never leaves a partial set (issue 5).
///
/// # Errors
/// The first output that cannot be synced, else the first that cannot be renamed.
pub(crate) fn commit_outputs(mut targets: Vec<(Target, String)>) -> Result<()> {
    for (t, what) in &mut targets {
        t.sync().with_context(|| what.clone())?;
    }
    for (t, what) in targets {
        t.commit().context(what)?;
    }
    Ok(())
}

/// Opens the solutions writer on the first input; later inputs must have the same layout.
fn open_sink(sink: &mut Option<Sink>, layout: &Layout, path: &str, output: &str) -> Result<()> {
    match (sink.as_ref(), layout) {
        (None, Layout::Lines { .. }) => {
            *sink = Some(Sink::Lines(LinesWriter::new(Target::create(output)?)));
        }
        (None, Layout::Csv { header, .. }) => {
            let w = CsvWriter::new(Target::create(output)?, header.as_deref())?;
            *sink = Some(Sink::Csv(Box::new(w), header.clone()));
        }
        (Some(Sink::Lines(_)), Layout::Lines { .. }) => {}
        (Some(Sink::Csv(_, first)), Layout::Csv { header, .. }) if first == header => {}
        _ => bail!(
            "{path}: its layout ({}) or header differs from the first input's; \
             solve inputs of different layouts in separate runs",
            layout.name()
        ),
    }
    Ok(())
}

/// The batched, ordered, parallel engine behind `solve` and `verify`: reads `reader` in
/// batches of [`BATCH`] records, maps each record with `work` across the current rayon pool,
/// and hands every batch with its results to `consume`, in input order, on one thread.
///
/// `consume` of batch *n* and reading batch *n + 2* run while the pool works on batch *n + 1*
/// (`rayon::join`), so I/O overlaps the work; only three batches are alive at a time. Call it
/// inside `pool.install` to choose the pool. `path` names the input in errors. Returns
/// whether the run was interrupted ([`INTERRUPTED`]); the batches already read are consumed.
///
/// # Errors
/// The first error of `consume`, or a CSV read error naming `path` and the line.
pub fn pipeline<R, W, C>(
    reader: &mut RecordReader<'_>,
    work: W,
    mut consume: C,
    pb: &ProgressBar,
    path: &str,
) -> Result<bool>
where
    R: Send + Sync,
    W: Fn(&RawRecord) -> R + Sync + Send,
    C: FnMut(&[RawRecord], &[R]) -> Result<()> + Send,
{
    let read_err = |e: csv::Error| {
        let line = e.position().map_or(0, |p| p.line());
        input::InputError::Csv {
            path: path.to_string(),
            line,
            source: e,
        }
    };
    let mut cur: Vec<RawRecord> = Vec::with_capacity(BATCH);
    let mut next: Vec<RawRecord> = Vec::with_capacity(BATCH);
    let mut prev: Vec<RawRecord> = Vec::with_capacity(BATCH);
    // `None`: not started because of Ctrl-C (see `interrupt`).
    let mut cur_opt: Vec<Option<R>> = Vec::with_capacity(BATCH);
    let mut prev_opt: Vec<Option<R>> = Vec::with_capacity(BATCH);
    let mut prev_res: Vec<R> = Vec::with_capacity(BATCH);
    // Unwraps the previous batch's results (all `Some`) and consumes them. It runs on the
    // I/O side of the join, beside the solving, not between batches when one thread waits.
    let mut consume_prev = |prev: &[RawRecord], prev_opt: &mut Vec<Option<R>>| -> Result<()> {
        prev_res.clear();
        prev_res.extend(prev_opt.drain(..).flatten());
        consume(prev, &prev_res)
    };
    reader.fill(&mut cur, BATCH).map_err(read_err)?;
    let mut done = 0u64;
    while !cur.is_empty() {
        if INTERRUPTED.load(Ordering::Relaxed) {
            break;
        }
        let (io_result, ()) = rayon::join(
            || -> Result<()> {
                consume_prev(&prev, &mut prev_opt)?;
                reader.fill(&mut next, BATCH).map_err(read_err)?;
                Ok(())
            },
            || {
                cur.par_iter()
                    .with_min_len(64)
                    .map(|r| (!interrupt::requested()).then(|| work(r)))
                    .collect_into_vec(&mut cur_opt)
            },
        );
        io_result?;
        // Ctrl-C mid-batch: keep only the finished prefix, so the output has no holes.
        let finished = interrupt::finished_prefix(&cur_opt);
        cur.truncate(finished);
        cur_opt.truncate(finished);
        done += cur.len() as u64;
        pb.set_position(reader.consumed());
        pb.set_message(format!("{done} records"));
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut prev_opt, &mut cur_opt);
        std::mem::swap(&mut cur, &mut next);
    }
    consume_prev(&prev, &mut prev_opt)?;
    Ok(INTERRUPTED.load(Ordering::Relaxed))
}

fn build_report(
    cfg: &SolveConfig,
    col: &Collector<'_>,
    inputs: Vec<InputInfo>,
    wall: Duration,
    interrupted: bool,
) -> SolveReport {
    let records = col.counts.total();
    let secs = wall.as_secs_f64();
    SolveReport {
        tool: "sudoku-batch",
        version: env!("CARGO_PKG_VERSION"),
        command: "solve",
        input_bytes: inputs.iter().map(|i| i.bytes).sum(),
        inputs,
        records,
        status: col.counts,
        threads: cfg.read.threads,
        solution_limit: cfg.limit,
        rates: RunRates::new(records, &col.tally, secs * 1000.0),
        interrupted,
        shard: cfg.read.shard.map(|s| s.to_string()),
        tally: col.tally.summary(),
    }
}

/// Writes `value` as pretty JSON to `path` (through a temporary renamed into place).
///
/// # Errors
/// When the file cannot be written; the message names it.
pub fn write_json<T: serde::Serialize>(path: &str, value: &T) -> Result<()> {
    let mut t = Target::create(path)?;
    t.write_json(value)
        .and_then(|()| t.commit())
        .with_context(|| format!("{path}: cannot write"))
}

/// Prints the first bad records, already formatted as `path:line: reason`, one per line,
/// then how many more of the `total` there were (`what` names them and where to look).
pub(crate) fn print_notes(err: &mut impl Write, notes: &[String], total: u64, what: &str) {
    for n in notes {
        let _ = writeln!(err, "sudoku-batch: {n}");
    }
    let more = total.saturating_sub(notes.len() as u64);
    if more > 0 {
        let _ = writeln!(err, "sudoku-batch: ... and {more} more {what}");
    }
}

fn print_summary(cfg: &SolveConfig, col: &Collector<'_>, r: &SolveReport) {
    let mut err = io::stderr().lock();
    print_notes(
        &mut err,
        &col.notes,
        col.invalid_seen,
        "invalid records (see --stats)",
    );
    if cfg.read.quiet {
        return;
    }
    let c = &r.status;
    let _ = writeln!(
        err,
        "sudoku-batch: {} records: {} solved, {} multiple, {} unsolvable, {} invalid{}",
        r.records,
        c.solved,
        c.multiple,
        c.unsolvable,
        c.invalid,
        if r.interrupted { " (interrupted)" } else { "" }
    );
    let _ = writeln!(
        err,
        "sudoku-batch: {:.3} s wall, {:.0} puzzles/s, {:.2} µs/puzzle, {} threads; latency p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs; {:.2} guesses/puzzle, {:.1}% without a guess",
        r.rates.wall_ms / 1000.0,
        r.rates.puzzles_per_s,
        r.rates.us_per_puzzle,
        r.threads,
        r.rates.latency.p50_us,
        r.rates.latency.p99_us,
        r.rates.latency.max_us,
        r.rates.guesses_per_puzzle,
        r.rates.no_guess_pct
    );
}
