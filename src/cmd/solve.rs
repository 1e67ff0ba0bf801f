//! `sudoku-batch solve`: solve every puzzle of one or more inputs and write the solutions in
//! input order, with per-record stats, a report and a summary. A [`Sink`] over the
//! [`crate::engine`]: the work is [`solve_record`], the consumer ([`Collector`])
//! writes and counts.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::bench::provenance::{available_cores, competing_work, LoadAverage};
use crate::engine::{self, Output, ReadConfig, Sink, Work};
use crate::grid::{Grid, ParseError};
use crate::input::{Dataset, Layout, RawRecord, ReadOptions};
use crate::output::table::{table_writer, ParquetCompression, TableFormat};
use crate::output::{
    cannot_write, commit_outputs, open_json_target, CsvWriter, LinesWriter, SolutionWriter,
    SolveTable, StatsWriter, Target, SOLVE_COLUMNS, WRITEBACK_RECORDS,
};
use crate::record::SolvedRecord;
use crate::report::{
    ratio, Counts, Header, InputInfo, InvalidKinds, Report, SolveCounts, SolveReport, Status,
    StatusCounts, Tally,
};
use crate::summary::{count, print_notes, PuzzleColumnCheck};
use crate::verify::check::describe_puzzle;

/// Everything `solve` needs, validated.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// Count solutions up to this many: 1 = first solution only, 2 = tell unique from not.
    pub limit: u32,
    /// Solutions output path; `-` is standard output.
    pub output: String,
    /// `--output-format`: decides as the extension of `output` would
    /// ([`TableFormat::for_rows`]); `None`: the extension decides, else the inputs' layout.
    pub output_format: Option<TableFormat>,
    /// `--parquet-compression`: how a Parquet output's pages are compressed.
    pub parquet_compression: ParquetCompression,
    /// Per-record stats CSV path, if wanted.
    pub stats: Option<String>,
    /// JSON report path, if wanted.
    pub report: Option<String>,
}

/// The work of `solve` on one record: [`solve_record`] with the solution limit.
pub struct SolveWork {
    /// Count solutions up to this many.
    pub limit: u32,
}

impl Work for SolveWork {
    type Output = SolvedRecord;

    fn work(&self, raw: &RawRecord) -> SolvedRecord {
        solve_record(raw, self.limit)
    }

    /// An `invalid` record whose error says "internal error": one bad record cannot take
    /// down a batch of thousands. The panic message is printed on stderr by the panic hook,
    /// and the run exits 1.
    fn panicked(&self, raw: &RawRecord, message: String) -> SolvedRecord {
        SolvedRecord {
            clues: raw.puzzle.as_ref().ok().map(Grid::clues),
            error: Some(ParseError::Internal(message)),
            ..SolvedRecord::new(raw)
        }
    }
}

/// Classifies and solves one record, counting solutions up to `limit`
/// (`SolvedRecord::solve` on its puzzle).
pub fn solve_record(raw: &RawRecord, limit: u32) -> SolvedRecord {
    let mut res = SolvedRecord::new(raw);
    match &raw.puzzle {
        Ok(p) => res.solve(p, limit),
        Err(e) => res.error = Some(e.clone()),
    }
    res
}

/// Where solutions go: the writer picked by the first input's layout.
enum Solutions {
    Lines(LinesWriter),
    Csv(Box<CsvWriter>),
    Table(SolveTable),
}

impl Solutions {
    fn writer(&mut self) -> &mut dyn SolutionWriter {
        match self {
            Solutions::Lines(w) => w,
            Solutions::Csv(w) => w.as_mut(),
            Solutions::Table(w) => w,
        }
    }

    fn into_target(self) -> io::Result<Target> {
        match self {
            Solutions::Lines(w) => Ok(w.into_target()),
            Solutions::Csv(w) => w.into_target(),
            Solutions::Table(w) => w.into_target(),
        }
    }
}

/// Writes results, counts them and remembers the first invalid records for the summary.
pub struct Collector {
    solutions: Option<Solutions>,
    stats: Option<StatsWriter>,
    counts: StatusCounts,
    invalid_kinds: InvalidKinds,
    capped: u64,
    tally: Tally,
    limit: u32,
    /// The input being read and its layout, for notes.
    path: String,
    layout: Layout,
    notes: Vec<String>,
    invalid_seen: u64,
    /// Records written since the last [`Target::start_writeback`].
    unsynced: usize,
    /// Whether every puzzle is a complete grid (a solution column read as puzzles), judged
    /// on the first input's layout.
    puzzle_column: Option<PuzzleColumnCheck>,
    /// The messages of a failure to write the solutions and the stats ([`cannot_write`]).
    what: [String; 2],
}

/// Invalid records named one by one on stderr before the rest are only counted.
const MAX_NOTES: usize = 10;

impl Sink for Collector {
    type Work = SolveWork;

    fn start_input(&mut self, _: usize, data: &Dataset) -> Result<SolveWork> {
        self.path = data.path().to_string();
        self.layout = data.layout().clone();
        self.puzzle_column.get_or_insert_with(|| {
            PuzzleColumnCheck::new("", "--puzzle-column", Some(data.layout()))
        });
        Ok(SolveWork { limit: self.limit })
    }

    fn consume(&mut self, raws: &[RawRecord], results: &[Output<Self>]) -> Result<()> {
        let w = self
            .solutions
            .as_mut()
            .expect("the solutions writer is opened before any record")
            .writer();
        if let Some(check) = &mut self.puzzle_column {
            raws.iter().for_each(|r| check.note(r));
        }
        for (raw, res) in raws.iter().zip(results) {
            w.write(&self.path, raw, res)
                .with_context(|| self.what[0].clone())?;
            if let Some(s) = &mut self.stats {
                s.write(&self.path, res)
                    .with_context(|| self.what[1].clone())?;
            }
            self.counts.add(res.status);
            self.capped += u64::from(res.capped);
            if res.status == Status::Invalid {
                self.invalid_kinds.add(res.error.as_ref());
                self.invalid_seen += 1;
                if self.notes.len() < MAX_NOTES {
                    let e = res
                        .error
                        .as_ref()
                        .map(|e| describe_puzzle(e, &self.layout).to_string());
                    let (path, line) = (&self.path, res.line);
                    self.notes
                        .push(format!("{path}:{line}: {}", e.unwrap_or_default()));
                }
            } else {
                self.tally.add(res.solve_ns, res.guesses);
            }
        }
        self.unsynced += raws.len();
        if self.unsynced >= WRITEBACK_RECORDS {
            self.unsynced = 0;
            w.start_writeback();
            if let Some(s) = &mut self.stats {
                s.start_writeback();
            }
        }
        Ok(())
    }
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
    // Before our own workers start: they would count in it.
    let load = LoadAverage::current();
    let pool = engine::worker_pool(cfg.read.threads)?;
    let what = [
        cannot_write(&cfg.output, "solutions"),
        cannot_write(cfg.stats.as_deref().unwrap_or_default(), "--stats"),
    ];
    let stats = match &cfg.stats {
        Some(p) => Some(
            Target::create(p)
                .and_then(StatsWriter::new)
                .context(what[1].clone())?,
        ),
        None => None,
    };
    // Opened now, so an unwritable --report path fails before the work, not after it.
    let report_out = cfg
        .report
        .as_deref()
        .map(|p| open_json_target(p, "--report"))
        .transpose()?;
    // The report names each input by its SHA-256, so `report merge` can tell shards of one
    // file from shards of another; without a report the hash is not worth its time.
    let options = ReadOptions {
        hash: cfg.report.is_some(),
        ..cfg.read.options()
    };
    let datasets = engine::open_inputs(&cfg.read.inputs, &options)?;
    engine::same_layout(&datasets)?;
    // Only now: a CSV writer writes its header at once, and standard output cannot take it
    // back if a later input turns out not to fit.
    let solutions = datasets
        .first()
        .map(|first| open_solutions(first.layout(), cfg, &what[0]))
        .transpose()?;
    let mut col = Collector {
        solutions,
        stats,
        counts: StatusCounts::default(),
        invalid_kinds: InvalidKinds::default(),
        capped: 0,
        tally: Tally::default(),
        limit: cfg.limit,
        path: String::new(),
        layout: Layout::Lines {
            field: 0,
            paired: false,
        },
        notes: Vec::new(),
        invalid_seen: 0,
        unsynced: 0,
        what,
        puzzle_column: None,
    };
    let run = engine::run(datasets, &pool, &mut col, cfg.read.quiet)?;
    let inputs = run
        .inputs
        .iter()
        .map(|i| InputInfo::new(&i.path, &i.layout, &i.done, i.records, false))
        .collect();
    let report = build_report(cfg, &col, inputs, start.elapsed(), run.interrupted);
    let mut targets = Vec::new();
    let [solutions_what, stats_what] = col.what.clone();
    if let Some(solutions) = col.solutions.take() {
        let t = solutions.into_target().context(solutions_what.clone())?;
        targets.push((t, solutions_what));
    }
    if let Some(s) = col.stats.take() {
        targets.push((s.into_target(), stats_what));
    }
    if let (Some(mut t), Some(p)) = (report_out, cfg.report.as_deref()) {
        let what = cannot_write(p, "--report");
        t.write_json(&report).context(what.clone())?;
        targets.push((t, what));
    }
    // The inputs are unmapped beside the renames (see `commit_outputs`).
    commit_outputs(targets, run.datasets)?;
    print_summary(cfg, &col, &report, load);
    Ok(report)
}

/// Opens the solutions writer for `cfg.output`: the one `--output-format` names, else a
/// table for a `.jsonl`, `.npz` or `.parquet` output, else the one for the inputs' layout
/// (`layout`, that of the first input): lines, or the input's CSV columns plus `solution`
/// and `status`. `what`: the message of a failure to write it ([`cannot_write`]).
fn open_solutions(layout: &Layout, cfg: &SolveConfig, what: &str) -> Result<Solutions> {
    let output = &cfg.output;
    let lines = matches!(layout, Layout::Lines { .. });
    let format = TableFormat::for_rows(output, cfg.output_format, lines);
    let target = Target::create(output).context(what.to_string())?;
    Ok(match (format, layout) {
        (Some(TableFormat::Txt), _) | (None, Layout::Lines { .. }) => {
            Solutions::Lines(LinesWriter::new(target))
        }
        (None, Layout::Csv { .. } | Layout::Columns { .. }) => Solutions::Csv(Box::new(
            CsvWriter::new(target, layout).context(what.to_string())?,
        )),
        (Some(f), _) => Solutions::Table(SolveTable::new(
            table_writer(f, target, SOLVE_COLUMNS, cfg.parquet_compression)
                .context(what.to_string())?,
        )),
    })
}

fn build_report(
    cfg: &SolveConfig,
    col: &Collector,
    inputs: Vec<InputInfo>,
    wall: Duration,
    interrupted: bool,
) -> SolveReport {
    let mut header = Header::new("solve", inputs, cfg.read.shard.map(|s| s.to_string()));
    header.threads = cfg.read.threads;
    header.solution_limit = cfg.limit;
    header.wall_ms = wall.as_secs_f64() * 1000.0;
    header.interrupted = interrupted;
    let counts = SolveCounts {
        records: col.counts.total(),
        status: StatusCounts {
            first_solution_only: cfg.limit == 1,
            ..col.counts
        },
        invalid_kinds: col.invalid_kinds,
        solutions_capped: col.capped,
        tally: col.tally.clone(),
        ..SolveCounts::default()
    };
    Report::new(header, counts)
}

/// Prints the invalid records' notes and the summary; `load`: the load average at the start.
fn print_summary(cfg: &SolveConfig, col: &Collector, r: &SolveReport, load: Option<LoadAverage>) {
    let mut err = io::stderr().lock();
    print_notes(
        &mut err,
        &col.notes,
        col.invalid_seen,
        "invalid records (see --stats)",
    );
    col.puzzle_column.iter().for_each(PuzzleColumnCheck::warn);
    if cfg.read.quiet {
        return;
    }
    for line in summary_lines(r) {
        let _ = writeln!(err, "{line}");
    }
    if let Some(warning) = load_warning(load, available_cores()) {
        let _ = writeln!(err, "{warning}");
    }
}

/// The summary of a `solve` run, lines of at most 100 columns: counts by status, then why
/// records are `invalid` (when some are) and how many `multiple` reached a `--limit` above 2
/// (when some did), then speed, and the latency and guesses of the searched records (or
/// that none was searched), all per puzzle in wall time.
fn summary_lines(r: &SolveReport) -> Vec<String> {
    let (c, rates) = (&r.counts.status, &r.counts.rates);
    let l = &rates.latency;
    let limit = r.header.solution_limit;
    // With --first no second solution was looked for: "0 multiple" would read as checked.
    let found = match c.first_solution_only {
        true => format!("{} with a solution (uniqueness not checked)", c.solved),
        false => format!("{} solved, {} multiple", c.solved, c.multiple),
    };
    let mut lines = vec![format!(
        "sudoku-batch: {}: {found}, {} unsolvable, {} invalid{}",
        r.counts.records_counted(),
        c.unsolvable,
        c.invalid,
        if r.header.interrupted {
            "; interrupted"
        } else {
            ""
        }
    )];
    if c.invalid > 0 {
        let k = &r.counts.invalid_kinds;
        // Malformed: not a puzzle at all; a clue conflict: a puzzle that breaks the rules.
        let mut line = format!(
            "sudoku-batch: invalid: {} malformed, {}",
            k.malformed,
            count(k.clue_conflict, "clue conflict", "clue conflicts")
        );
        if k.internal_error > 0 {
            let n = count(k.internal_error, "internal error", "internal errors");
            line.push_str(&format!(", {n}"));
        }
        lines.push(line);
    }
    // With --limit 2, `multiple` already says "at least 2"; above it the count is a bound.
    if limit > 2 && r.counts.solutions_capped > 0 {
        lines.push(format!(
            "sudoku-batch: {} of the multiple have at least {limit} solutions (counted up to --limit)",
            r.counts.solutions_capped
        ));
    }
    // The wall time holds start-up, reading and writing too: for a small input it dwarfs
    // the solver's (thousands of times over for a few easy puzzles), so the line
    // says so, and the solver's own mean follows.
    lines.push(format!(
        "sudoku-batch: {:.3} s wall with start-up, {:.0} puzzles/s, {:.2} µs/puzzle, {}",
        r.header.wall_ms / 1000.0,
        rates.puzzles_per_s,
        rates.us_per_puzzle,
        count(r.header.threads as u64, "thread", "threads"),
    ));
    // Latency and guesses cover the searched records only (not `invalid`): with none, zeros
    // would read as figures ("0.0% no guess": every puzzle guessed).
    let tally = &r.counts.tally;
    match tally.solved_by_search {
        0 => lines.push(
            "sudoku-batch: no puzzle searched (every record invalid, or none): \
             no latency or guesses"
                .to_string(),
        ),
        // Each puzzle is timed by the wall clock around its solve, so a thread descheduled
        // mid-puzzle counts its wait (under load the mean rose above p99): say so.
        searched => lines.extend([
            format!(
                "sudoku-batch: in the solver alone {:.2} µs/puzzle of wall time (mean of {})",
                ratio(tally.solve_ns as f64 / 1000.0, searched as f64),
                count(searched, "searched puzzle", "searched puzzles")
            ),
            format!(
                "sudoku-batch: wall p50/p99/max {:.1}/{:.1}/{:.1} µs; {:.2} guesses/puzzle, \
                 {:.1}% no guess",
                l.p50_us, l.p99_us, l.max_us, rates.guesses_per_puzzle, rates.no_guess_pct
            ),
        ]),
    }
    lines
}

/// The warning after the summary when the load average at the start (`load`) was above the
/// `cores`, as `bench` gives: per-puzzle times are wall times, so they count the waits of
/// threads that other work kept off a core.
fn load_warning(load: Option<LoadAverage>, cores: usize) -> Option<String> {
    let busy = competing_work(load, cores)?;
    Some(format!(
        "sudoku-batch: warning: {busy}, so the wall times per puzzle count their waits"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lines_fit_100_columns_even_for_a_billion_records() {
        let mut tally = Tally::default();
        tally.add(99_999_999, 40_000);
        tally.add(1, 0);
        let n = 1_000_000_000;
        let counts = SolveCounts {
            records: n,
            status: StatusCounts {
                solved: n - 3,
                multiple: 1,
                unsolvable: 1,
                invalid: 1,
                ..StatusCounts::default()
            },
            invalid_kinds: InvalidKinds {
                malformed: n,
                clue_conflict: n,
                internal_error: n,
            },
            solutions_capped: n,
            tally,
            ..SolveCounts::default()
        };
        let mut header = Header::new("solve", Vec::new(), None);
        header.solution_limit = 1_000_000;
        header.threads = 1024;
        header.wall_ms = 99_999_999.0;
        header.interrupted = true;
        let lines = summary_lines(&Report::new(header, counts));
        for line in &lines {
            assert!(
                line.chars().count() <= 100,
                "{} columns: {line}",
                line.chars().count()
            );
        }
        assert!(lines[0].starts_with("sudoku-batch: 1000000000 records: 999999997 solved"));
        assert!(lines[1].starts_with("sudoku-batch: invalid: 1000000000 malformed"));
        assert!(
            lines[2].contains("at least 1000000 solutions"),
            "{}",
            lines[2]
        );
        assert!(lines[3].ends_with("1024 threads"), "{}", lines[3]);
        // The wall figure holds start-up; the solver's own time is beside it.
        assert!(
            lines[3].contains("99999.999 s wall with start-up"),
            "{}",
            lines[3]
        );
        // Per-puzzle times are wall times.
        assert_eq!(
            lines[4],
            "sudoku-batch: in the solver alone 50000.00 µs/puzzle of wall time (mean of 2 \
             searched puzzles)"
        );
        assert!(lines[5].starts_with("sudoku-batch: wall p50/p99/max 0.0/"));
        assert!(lines[5].contains("µs; 20000.00 guesses/puzzle, 50.0% no guess"));
    }

    /// `solve` warns of a busy machine as `bench` does, and only then.
    #[test]
    fn a_load_above_the_cores_gives_a_warning() {
        assert_eq!(load_warning(LoadAverage::parse("2.00 5 5"), 2), None);
        assert_eq!(load_warning(None, 2), None, "no load average known");
        assert_eq!(
            load_warning(LoadAverage::parse("2.01 0 0"), 2).unwrap(),
            "sudoku-batch: warning: the load average at the start was 2.01, above the 2 cores: \
             other work competed for them, so the wall times per puzzle count their waits"
        );
    }

    /// A file of clue conflicts must not print `latency p50/p99/max 0.0/0.0/0.0 µs; 0.00
    /// guesses/puzzle, 0.0% no guess`, which reads as if every puzzle had been guessed.
    #[test]
    fn a_run_that_searched_nothing_says_so_instead_of_zeros() {
        let counts = SolveCounts {
            records: 2,
            status: StatusCounts {
                invalid: 2,
                ..StatusCounts::default()
            },
            invalid_kinds: InvalidKinds {
                clue_conflict: 2,
                ..InvalidKinds::default()
            },
            ..SolveCounts::default()
        };
        let mut header = Header::new("solve", Vec::new(), None);
        header.wall_ms = 1.0;
        let lines = summary_lines(&Report::new(header, counts));
        let last = lines.last().unwrap();
        assert_eq!(
            last,
            "sudoku-batch: no puzzle searched (every record invalid, or none): no latency or \
             guesses"
        );
        assert!(!lines.iter().any(|l| l.contains("no guess")), "{lines:?}");
    }
}
