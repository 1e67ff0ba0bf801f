//! The batch engine behind `solve` and `verify`: every worker of the rayon pool claims
//! chunks of records in turn, works on them, and the results are consumed in input order
//! ([`pipeline`]).
//!
//! Whichever worker finishes the oldest unwritten chunk writes it while the others go on
//! solving, so reading, writing and solving overlap with no barrier between chunks. Only a
//! few chunks per worker are alive at a time, so memory stays bounded whatever the input
//! size. Output is byte-identical for any thread count, apart from the timing column of
//! `--stats`.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::grid::{Grid, ParseError};
use crate::input::{self, Dataset, Layout, LayoutOptions, RawRecord, ReadOptions, Shard};
use crate::output::table::{table_writer, TableFormat};
use crate::output::{
    CsvWriter, LinesWriter, SolutionWriter, SolveTable, StatsWriter, Target, SOLVE_COLUMNS,
};
use crate::report::{InputInfo, RunRates, SolveReport, Status, StatusCounts, Tally};
use crate::{failure, interrupt, solver};

/// Records per batch where records are read in batches (`bench`), and how many records
/// `solve` writes between two [`Target::start_writeback`] calls.
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
    /// `--output-format`: `None` picks by extension (`.jsonl`, `.npz`) or by the inputs'
    /// layout.
    pub output_format: Option<TableFormat>,
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

impl ReadConfig {
    /// How to open each input ([`Dataset::open`]).
    pub fn options(&self) -> ReadOptions {
        ReadOptions {
            layout: self.layout.clone(),
            mmap: self.mmap,
            shard: self.shard,
            ..ReadOptions::default()
        }
    }
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
    Csv(Box<CsvWriter>),
    Table(SolveTable),
}

impl Sink {
    fn writer(&mut self) -> &mut dyn SolutionWriter {
        match self {
            Sink::Lines(w) => w,
            Sink::Csv(w) => w.as_mut(),
            Sink::Table(w) => w,
        }
    }

    fn into_target(self) -> io::Result<Target> {
        match self {
            Sink::Lines(w) => Ok(w.into_target()),
            Sink::Csv(w) => w.into_target(),
            Sink::Table(w) => w.into_target(),
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
    /// Records written since the last [`Target::start_writeback`].
    unsynced: usize,
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
        // Hand what is written to the kernel about every BATCH records, not every chunk:
        // each call walks the file's dirty pages.
        self.unsynced += raws.len();
        if self.unsynced >= BATCH {
            self.unsynced = 0;
            w.start_writeback();
            if let Some(s) = &mut self.stats {
                s.start_writeback();
            }
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
        unsynced: 0,
    };
    // Every input is opened and its layout worked out before any work, so a missing input
    // or one of another layout than the first fails at once, not after the inputs before it
    // were solved (and, with `-o -`, streamed).
    let mut opened: Vec<Dataset> = Vec::new();
    let options = cfg.read.options();
    for path in &cfg.read.inputs {
        let data = Dataset::open(path, &options)?;
        if let Some(first) = opened.first() {
            same_layout(first.layout(), data.layout(), path)?;
        }
        opened.push(data);
    }
    // Only now: a CSV writer writes its header at once, and standard output cannot take it
    // back if a later input turns out not to fit.
    if let Some(first) = opened.first() {
        col.sink = Some(open_sink(first.layout(), &cfg.output, cfg.output_format)?);
    }
    let mut inputs = Vec::new();
    let mut sources = Vec::new();
    let mut next_record = 0;
    let mut interrupted = false;
    for mut data in opened {
        let path = &cfg.read.inputs[sources.len()];
        col.path = path;
        data.number_from(next_record);
        let pb = progress_bar(data.len(), cfg.read.quiet);
        let written_before = col.counts.total();
        interrupted = pool.install(|| {
            pipeline(
                &mut data,
                |r| failure::guard_record(r, || solve_record(r, cfg.limit)),
                |raws, res| col.write(raws, res),
                &pb,
            )
        })?;
        pb.finish_and_clear();
        let done = data.finish()?;
        // Records written, which is fewer than records read when interrupted.
        let records = col.counts.total() - written_before;
        next_record = done.next_record;
        if records == 0 && !cfg.read.quiet {
            eprintln!("sudoku-batch: note: {path}: no puzzles found (0 records)");
        }
        inputs.push(InputInfo {
            path: path.clone(),
            bytes: done.bytes,
            layout: done.layout,
            records,
        });
        // Unmapped beside the renames at the end (see `commit_outputs`).
        sources.push(data);
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
    commit_outputs(targets, sources)?;
    print_summary(cfg, &col, &report);
    Ok(report)
}

/// Makes every output durable, then renames each into place, naming the output (`what`)
/// in an error: a sync error (a full or failing disk) comes before any rename, so it
/// leaves every target as it was and exit 2 never leaves a partial set (issue 5).
///
/// The commits run side by side, and `release` (the inputs' memory maps, say) is dropped
/// beside them: replacing an existing file frees it, which took 26 ms for an 82 MB output
/// and 13 ms for a 34 MB one on this project's machine (ext4 mounted with `discard`), and
/// unmapping an 82 MB input 5 ms (strace, 1M-puzzle run).
///
/// # Errors
/// The first output that cannot be synced, else the first that cannot be renamed.
pub(crate) fn commit_outputs<D: Send>(
    mut targets: Vec<(Target, String)>,
    release: D,
) -> Result<()> {
    for (t, what) in &mut targets {
        t.sync().with_context(|| what.clone())?;
    }
    std::thread::scope(|s| {
        let mut targets = targets.into_iter();
        let first = targets.next();
        let others: Vec<_> = targets
            .map(|(t, what)| s.spawn(move || t.commit().context(what)))
            .collect();
        // Last: unmapping holds the address-space lock that starting a thread needs.
        s.spawn(move || drop(release));
        let mut result = first.map_or(Ok(()), |(t, what)| t.commit().context(what));
        for h in others {
            let r = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            if result.is_ok() {
                result = r;
            }
        }
        result
    })
}

/// Checks that `layout` (of input `path`) matches the first input's `first`: all lines, or
/// CSVs with the same header, since they share one output.
pub(crate) fn same_layout(first: &Layout, layout: &Layout, path: &str) -> Result<()> {
    match (first, layout) {
        (Layout::Lines { .. }, Layout::Lines { .. }) => Ok(()),
        (Layout::Csv { header: a, .. }, Layout::Csv { header: b, .. }) if a == b => Ok(()),
        _ => bail!(
            "{path}: its layout ({}) or header differs from the first input's; \
             solve inputs of different layouts in separate runs",
            layout.name()
        ),
    }
}

/// Opens the solutions writer: the one `format` names (`--output-format`), else a table for
/// a `.jsonl` or `.npz` output, else the one for the inputs' layout (that of the first
/// input): lines, or the input's CSV columns plus `solution` and `status`.
fn open_sink(layout: &Layout, output: &str, format: Option<TableFormat>) -> Result<Sink> {
    let format = format.or_else(|| {
        TableFormat::from_path(output).filter(|f| {
            matches!(
                f,
                TableFormat::Jsonl | TableFormat::Npz | TableFormat::Parquet
            )
        })
    });
    let target = Target::create(output)?;
    Ok(match (format, layout) {
        (Some(TableFormat::Txt), _) | (None, Layout::Lines { .. }) => {
            Sink::Lines(LinesWriter::new(target))
        }
        (Some(TableFormat::Csv) | None, Layout::Csv { header, .. }) => {
            Sink::Csv(Box::new(CsvWriter::new(target, header.as_deref())?))
        }
        (Some(f), _) => Sink::Table(SolveTable::new(table_writer(f, target, SOLVE_COLUMNS)?)),
    })
}

/// The ordered, parallel engine behind `solve` and `verify`: every worker of the current
/// rayon pool claims the next chunk of records of `reader` ([`chunk_len`]), maps each with
/// `work`, and hands the chunk to the writer side, which passes chunks to `consume` in
/// input order.
///
/// There is no barrier between chunks: a worker that finishes a chunk claims the next one
/// at once. Whichever worker completes the oldest unwritten chunk writes it, and any later
/// chunks already done, while the others go on solving; so reading, writing and solving
/// overlap on every thread and a core is idle only at the very end of the input. At most
/// [`AHEAD`] chunks per worker may be claimed beyond the oldest unwritten one (a slow
/// puzzle holds the others back only once they are that far ahead), so memory stays
/// bounded whatever the input size, and [`chunk_len`] keeps it bounded whatever the
/// thread count. Call it inside `pool.install` to choose the pool.
///
/// On Ctrl-C ([`INTERRUPTED`]) workers stop taking records; the records finished before the
/// first unfinished one are consumed, nothing after it, so the output has no holes.
/// Returns whether the run was interrupted.
///
/// # Errors
/// The first error of `consume`, or a read error of the input ([`input::InputError`]). Workers
/// stop claiming chunks after the first error.
pub fn pipeline<R, W, C>(
    reader: &mut Dataset,
    work: W,
    consume: C,
    pb: &ProgressBar,
) -> Result<bool>
where
    R: Send + Sync,
    W: Fn(&RawRecord) -> R + Sync + Send,
    C: FnMut(&[RawRecord], &[R]) -> Result<()> + Send,
{
    let threads = rayon::current_num_threads().max(1);
    let engine = Engine {
        read: Mutex::new(ReadSide {
            reader,
            done: false,
            error: None,
        }),
        write: Mutex::new(WriteSide {
            consume,
            error: None,
            stopped: false,
            records: 0,
        }),
        pending: Mutex::new(Pending {
            chunks: BTreeMap::new(),
            written: 0,
        }),
        room: Condvar::new(),
        free: Mutex::new(Vec::new()),
        claimed: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        ahead: AHEAD * threads,
        chunk: chunk_len(threads),
        pb,
    };
    rayon::broadcast(|_| engine.worker(&work));
    // Every worker has returned; write whatever a race left behind (normally nothing).
    engine.drain();
    let Engine { read, write, .. } = engine;
    if let Some(e) = into_inner(write).error {
        return Err(e);
    }
    if let Some(e) = into_inner(read).error {
        return Err(e.into());
    }
    Ok(INTERRUPTED.load(Ordering::Relaxed))
}

/// The most records a worker claims at a time in [`pipeline`]: about 2 ms of work on
/// 17-clue puzzles, so locking costs nothing beside it and the last chunk of a run keeps
/// the other workers waiting only briefly.
pub const CHUNK: usize = 1024;

/// Records that [`pipeline`] keeps alive at most, whatever the thread count: each worker
/// holds one chunk and may claim [`AHEAD`] more (about 360 bytes a record on a lines
/// input, so about 15 MB).
pub const IN_FLIGHT: usize = 40 * 1024;

/// Records per chunk for `threads` workers: [`CHUNK`] up to 8 workers, then smaller so that
/// all chunks alive stay within [`IN_FLIGHT`] records, and never below 64.
pub fn chunk_len(threads: usize) -> usize {
    (IN_FLIGHT / (threads.max(1) * (1 + AHEAD))).clamp(64, CHUNK)
}

/// How many chunks per worker [`pipeline`] lets the workers claim beyond the oldest one not
/// yet written.
pub const AHEAD: usize = 4;

/// The state [`pipeline`]'s workers share.
struct Engine<'r, 'p, R, C> {
    read: Mutex<ReadSide<'r>>,
    write: Mutex<WriteSide<C>>,
    pending: Mutex<Pending<R>>,
    /// Signalled when chunks are written, for workers waiting to claim (flow control).
    room: Condvar,
    /// Buffers of written chunks, for reuse.
    free: Mutex<Vec<(Vec<RawRecord>, Vec<R>)>>,
    /// Chunks claimed so far: the sequence number of the next one (changed only under the
    /// `read` lock).
    claimed: AtomicU64,
    /// Set on the first error or on Ctrl-C: claim no more chunks.
    stop: AtomicBool,
    /// Chunks that may be claimed beyond the oldest unwritten one.
    ahead: usize,
    /// Records per chunk.
    chunk: usize,
    pb: &'p ProgressBar,
}

struct ReadSide<'r> {
    reader: &'r mut Dataset,
    /// The input is exhausted (or unreadable).
    done: bool,
    error: Option<input::InputError>,
}

struct WriteSide<C> {
    consume: C,
    error: Option<anyhow::Error>,
    /// A chunk was cut short by Ctrl-C: nothing after it is consumed.
    stopped: bool,
    /// Records consumed so far.
    records: u64,
}

/// Chunks solved but not yet written, by sequence number.
struct Pending<R> {
    chunks: BTreeMap<u64, Chunk<R>>,
    /// Chunks written so far: the sequence number of the next one to write.
    written: u64,
}

/// A claimed chunk: its records, the results of its finished prefix (shorter than
/// `raws` only when Ctrl-C cut it short), and the input bytes consumed up to its end.
struct Chunk<R> {
    raws: Vec<RawRecord>,
    results: Vec<R>,
    consumed: u64,
}

/// Locks `m`, also after a panic elsewhere (the data stays consistent: every critical
/// section either completes or leaves an error behind).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(PoisonError::into_inner)
}

impl<R, C> Engine<'_, '_, R, C>
where
    R: Send,
    C: FnMut(&[RawRecord], &[R]) -> Result<()> + Send,
{
    /// One worker: claim, solve, hand over, until the input is done or the run stops.
    fn worker<W: Fn(&RawRecord) -> R>(&self, work: &W) {
        loop {
            let Some((seq, mut chunk)) = self.claim() else {
                return;
            };
            for r in &chunk.raws {
                if interrupt::requested() {
                    self.halt();
                    break;
                }
                chunk.results.push(work(r));
            }
            lock(&self.pending).chunks.insert(seq, chunk);
            self.drain();
        }
    }

    /// Reads the next chunk, waiting first while too many chunks are ahead of the writer.
    /// `None` when there is nothing more to do.
    fn claim(&self) -> Option<(u64, Chunk<R>)> {
        let (mut raws, mut results) = lock(&self.free).pop().unwrap_or_default();
        raws.clear();
        results.clear();
        let mut read = lock(&self.read);
        loop {
            if read.done || self.stop.load(Ordering::Relaxed) || interrupt::requested() {
                return None;
            }
            let pending = lock(&self.pending);
            if self.claimed.load(Ordering::Relaxed) < pending.written + self.ahead as u64 {
                break;
            }
            // Too far ahead: wait for the writer without holding the reader.
            drop(read);
            let waited = self.room.wait_while(pending, |p| {
                self.claimed.load(Ordering::Relaxed) >= p.written + self.ahead as u64
                    && !self.stop.load(Ordering::Relaxed)
                    && !interrupt::requested()
            });
            drop(waited.unwrap_or_else(PoisonError::into_inner));
            read = lock(&self.read);
        }
        match read.reader.fill(&mut raws, self.chunk) {
            Err(e) => {
                read.error = Some(e);
                read.done = true;
                self.halt();
                None
            }
            Ok(()) if raws.is_empty() => {
                read.done = true;
                None
            }
            Ok(()) => {
                let seq = self.claimed.fetch_add(1, Ordering::Relaxed);
                let consumed = read.reader.consumed();
                Some((
                    seq,
                    Chunk {
                        raws,
                        results,
                        consumed,
                    },
                ))
            }
        }
    }

    /// Writes the pending chunks that are next in input order, unless another worker is
    /// writing (it will pick them up: each writer looks again after letting go).
    fn drain(&self) {
        loop {
            let Ok(mut write) = self.write.try_lock() else {
                return;
            };
            loop {
                let next = {
                    let mut p = lock(&self.pending);
                    let written = p.written;
                    p.chunks.remove(&written)
                };
                let Some(chunk) = next else {
                    break;
                };
                self.write_chunk(&mut write, &chunk);
                {
                    let mut p = lock(&self.pending);
                    p.written += 1;
                }
                self.room.notify_all();
                lock(&self.free).push((chunk.raws, chunk.results));
            }
            drop(write);
            // A chunk handed over while this worker held the writer found it busy: look
            // again now that it is free.
            let p = lock(&self.pending);
            if !p.chunks.contains_key(&p.written) {
                return;
            }
        }
    }

    fn write_chunk(&self, write: &mut WriteSide<C>, chunk: &Chunk<R>) {
        if write.stopped || write.error.is_some() {
            return;
        }
        let n = chunk.results.len();
        if let Err(e) = (write.consume)(&chunk.raws[..n], &chunk.results) {
            write.error = Some(e);
            self.halt();
            return;
        }
        write.records += n as u64;
        if n < chunk.raws.len() {
            // Ctrl-C cut this chunk short: later chunks would leave a hole.
            write.stopped = true;
        }
        self.pb.set_position(chunk.consumed);
        self.pb.set_message(format!("{} records", write.records));
    }

    /// Claims no more chunks, and wakes the workers waiting to claim so they see it.
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _p = lock(&self.pending);
        self.room.notify_all();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_shrink_with_many_threads_and_stay_within_bounds() {
        for threads in [1, 2, 8] {
            assert_eq!(chunk_len(threads), CHUNK);
        }
        assert_eq!(chunk_len(16), 512);
        assert_eq!(chunk_len(1024), 64);
        for threads in 1..=1024 {
            let n = chunk_len(threads);
            assert!((64..=CHUNK).contains(&n));
            // Every worker's chunk and those claimed ahead fit the budget, down to the floor.
            assert!(
                n == 64 || threads * (1 + AHEAD) * n <= IN_FLIGHT,
                "{threads}: {n}"
            );
        }
    }
}
