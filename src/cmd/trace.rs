//! `trace`: every puzzle's step-by-step solution with named techniques (issue 35), one row
//! a record, through the engine and the table outputs as `rate` writes its ratings.
//!
//! JSON Lines, CSV and text rows carry the summary and the steps as a JSON array
//! ([`crate::trace::json`]); Parquet rows the summary and the steps as a list of structs
//! ([`Kind::Steps`], built from the [`Trace`] by the writer); `.npz` carries the summary and
//! each puzzle's Shah et al. row ([`crate::trace::shah`], an N×325 `uint8` array named
//! `shah`). See `docs/trace.md`.

use anyhow::Result;

use crate::dataset::{write_table, TableOutput};
use crate::engine::{FromPanic, ReadConfig};
use crate::grid::{Grid, ParseError};
use crate::input::{Layout, RawRecord};
use crate::output::table::{Column, Kind, TableFormat, TableWriter, Value, INPUT, LINE, RECORD};
use crate::report::{Status, StatusCounts};
use crate::summary::Notes;
use crate::trace::{self, shah, Outcome, Summary, Trace};
use crate::verify::check::describe_puzzle;

/// Everything `trace` needs, validated.
#[derive(Clone, Debug)]
pub struct TraceConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// Keep only the placements (and guesses) that stand in the solution, in order.
    pub placements_only: bool,
    /// Where the traces go.
    pub output: TableOutput,
}

const fn col(name: &'static str, kind: Kind) -> Column {
    Column { name, kind }
}

/// The summary columns every format has, after `record,input,line`.
macro_rules! summary_columns {
    ($($last:expr),*) => {
        &[
            RECORD,
            INPUT,
            LINE,
            col("clues", Kind::Int),
            col("status", Kind::Text),
            col("hardest", Kind::Text),
            col("hardest_code", Kind::Int),
            col("steps", Kind::Int),
            col("placements", Kind::Int),
            col("eliminations", Kind::Int),
            col("guesses", Kind::Int),
            col("backtracks", Kind::Int),
            col("max_depth", Kind::Int),
            $($last),*
        ]
    };
}

/// The columns of JSON Lines, CSV and text output.
pub const COLUMNS: &[Column] = summary_columns!(
    col("puzzle", Kind::Grid),
    col("solution", Kind::Grid),
    col("trace", Kind::Json)
);

/// The columns of Parquet output: the steps as a nested column ([`Kind::Steps`]).
pub const PARQUET_COLUMNS: &[Column] = summary_columns!(
    col("puzzle", Kind::Grid),
    col("solution", Kind::Grid),
    col("trace", Kind::Steps)
);

/// The columns of `.npz` output: the steps as the Shah layout.
pub const NPZ_COLUMNS: &[Column] = summary_columns!(col("shah", Kind::Bytes(shah::WIDTH)));

/// The trace of one record, ready to write.
#[derive(Clone, Debug)]
pub struct Traced {
    /// 0-based record over the run.
    pub record: u64,
    /// 1-based line in its input.
    pub line: u64,
    /// The puzzle, when the record is one.
    pub puzzle: Option<Grid>,
    /// `solved` (one solution), `multiple` (the trace reaches one of them), `unsolvable`,
    /// `invalid`.
    pub status: Status,
    /// The trace's summary (zero for an invalid record).
    pub summary: Summary,
    /// The solution the trace reached.
    pub solution: Option<Grid>,
    /// The steps as JSON, the Shah row or the trace itself, as the format needs.
    pub steps: Steps,
    /// Why the record is `invalid`.
    pub error: Option<ParseError>,
}

/// A record's steps in the form its output format writes.
#[derive(Clone, Debug)]
pub enum Steps {
    /// A JSON array ([`crate::trace::json`]).
    Json(String),
    /// A Shah row ([`crate::trace::shah`]).
    Shah(Box<[u8; shah::WIDTH]>),
    /// The trace itself, which the Parquet writer turns into its nested column
    /// ([`Value::Steps`]): no JSON text is made.
    Trace {
        /// The trace.
        trace: Trace,
        /// Write only the steps that [`Trace::kept_steps`] keeps with `placements_only`.
        placements_only: bool,
    },
    /// None (an invalid record).
    None,
}

impl FromPanic for Traced {
    fn from_panic(raw: &RawRecord, message: String) -> Traced {
        Traced {
            error: Some(ParseError::Internal(message)),
            ..invalid(raw)
        }
    }
}

fn invalid(raw: &RawRecord) -> Traced {
    Traced {
        record: raw.record,
        line: raw.line,
        puzzle: None,
        status: Status::Invalid,
        summary: Summary::default(),
        solution: None,
        steps: Steps::None,
        error: None,
    }
}

/// Traces one record: `invalid` when it is no puzzle or its givens clash; else its status
/// (uniqueness by [`Trace::solution_count`]), summary and steps in the form `format`
/// writes: a Shah row for `.npz`, the trace for Parquet, else JSON (`placements_only` as
/// [`crate::trace::json::steps_json`] says).
pub fn trace_record(raw: &RawRecord, format: TableFormat, placements_only: bool) -> Traced {
    let puzzle = match &raw.puzzle {
        Ok(p) => *p,
        Err(e) => {
            return Traced {
                error: Some(e.clone()),
                ..invalid(raw)
            }
        }
    };
    // One trace buffer a worker thread, reused: a trace's steps are read into the row
    // before the next puzzle is traced.
    thread_local! {
        static TRACE: std::cell::RefCell<Trace> = std::cell::RefCell::new(Trace::default());
    }
    TRACE.with_borrow_mut(|t| {
        trace::trace_into(&puzzle, t);
        if t.outcome == Some(Outcome::Clash) {
            // The trace finds clashing givens itself, before any step, so the record's
            // own check (which names the clash) runs only for those.
            let why = raw
                .checked_puzzle()
                .err()
                .unwrap_or_else(|| ParseError::Conflict("two givens clash".into()));
            return Traced {
                error: Some(why),
                ..invalid(raw)
            };
        }
        row(raw, &puzzle, t, format, placements_only)
    })
}

/// [`trace_record`]'s row of a puzzle traced into `t` without a clash.
fn row(
    raw: &RawRecord,
    puzzle: &Grid,
    t: &mut Trace,
    format: TableFormat,
    placements_only: bool,
) -> Traced {
    let status = match t.solution_count(puzzle) {
        0 => Status::Unsolvable,
        1 => Status::Solved,
        _ => Status::Multiple,
    };
    let summary = t.summary();
    let solution = (t.outcome == Some(Outcome::Solved)).then_some(t.grid);
    let steps = match format {
        TableFormat::Npz => Steps::Shah(Box::new(shah::encode(puzzle, t))),
        // The writer builds the Arrow columns from the trace itself: it leaves the buffer.
        TableFormat::Parquet => Steps::Trace {
            trace: std::mem::take(t),
            placements_only,
        },
        _ => {
            // Sized for the usual step (about 90 bytes) so that the text is not regrown.
            let mut json = String::with_capacity(96 * t.steps.len() + 2);
            trace::json::steps_json(t, placements_only, &mut json);
            Steps::Json(json)
        }
    };
    Traced {
        record: raw.record,
        line: raw.line,
        puzzle: Some(*puzzle),
        status,
        summary,
        solution,
        steps,
        error: None,
    }
}

/// What a `trace` run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct TraceSummary {
    /// Records by status.
    pub status: StatusCounts,
    /// Steps over all records.
    pub steps: u64,
    /// Guesses over all records.
    pub guesses: u64,
    /// Records traced without a guess.
    pub no_guess: u64,
    /// The run was stopped by Ctrl-C.
    pub interrupted: bool,
}

fn write_record(
    table: &mut (dyn TableWriter + Send),
    summary: &mut TraceSummary,
    notes: &mut Notes,
    npz: bool,
    (path, layout): (&str, &Layout),
    r: &Traced,
) -> std::io::Result<()> {
    summary.status.add(r.status);
    match (&r.error, r.status) {
        (Some(e), _) => notes.add(path, r.line, describe_puzzle(e, layout)),
        (None, Status::Solved) => {}
        (None, s) => notes.add(path, r.line, s.as_str()),
    }
    let s = &r.summary;
    let valid = r.puzzle.is_some();
    summary.steps += u64::from(s.steps);
    summary.guesses += u64::from(s.guesses);
    summary.no_guess += u64::from(valid && s.guesses == 0);
    let int = |n: u32| {
        if valid {
            Value::Int(u64::from(n))
        } else {
            Value::Null
        }
    };
    let steps = match &r.steps {
        Steps::Json(j) => Value::Json(j),
        Steps::Shah(row) => Value::Bytes(&row[..]),
        Steps::Trace {
            trace,
            placements_only,
        } => Value::Steps {
            trace,
            placements_only: *placements_only,
        },
        Steps::None => Value::Null,
    };
    let mut row = [
        Value::Int(r.record),
        Value::Text(path),
        Value::Int(r.line),
        r.puzzle
            .map_or(Value::Null, |p| Value::Int(u64::from(p.clues()))),
        Value::Text(r.status.as_str()),
        s.hardest.map_or(Value::Null, |h| Value::Text(h.name())),
        s.hardest
            .map_or(Value::Null, |h| Value::Int(u64::from(h.code()))),
        int(s.steps),
        int(s.placements),
        int(s.eliminations),
        int(s.guesses),
        int(s.backtracks),
        int(s.max_depth),
        r.puzzle.as_ref().map_or(Value::Null, Value::Grid),
        r.solution.as_ref().map_or(Value::Null, Value::Grid),
        steps,
    ];
    if npz {
        // NPZ_COLUMNS: the summary, then the Shah row.
        let n = NPZ_COLUMNS.len();
        row[n - 1] = steps;
        return table.write_row(&row[..n]);
    }
    table.write_row(&row)
}

/// Runs `trace` as configured: writes one row per record, prints a summary to stderr, and
/// returns the counts.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened or read, an output that
/// cannot be written.
pub fn run_trace(cfg: &TraceConfig) -> Result<TraceSummary> {
    let format = cfg.output.format;
    let npz = format == TableFormat::Npz;
    let placements_only = cfg.placements_only;
    let columns = match format {
        TableFormat::Npz => NPZ_COLUMNS,
        TableFormat::Parquet => PARQUET_COLUMNS,
        _ => COLUMNS,
    };
    let mut summary = TraceSummary::default();
    let mut notes = Notes::default();
    summary.interrupted = write_table(
        &cfg.read,
        &cfg.output,
        columns,
        |raw| trace_record(raw, format, placements_only),
        |table, path, layout, r| {
            Ok(write_record(
                table,
                &mut summary,
                &mut notes,
                npz,
                (path, layout),
                r,
            )?)
        },
    )?;
    notes.print("records not traced to a unique solution");
    if !cfg.read.quiet {
        eprintln!(
            "sudoku-batch: {}",
            summary.status.line("solved", summary.interrupted)
        );
        eprintln!(
            "sudoku-batch: {} steps, {} guesses; {} traced without a guess",
            summary.steps, summary.guesses, summary.no_guess
        );
    }
    Ok(summary)
}
