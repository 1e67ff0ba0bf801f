//! `canon`: the minlex form of every record, in input order (issue 12).
//!
//! A lines input (or `--output-format txt`, or a `.txt` name on a CSV input) gives one line
//! per record: the form (`.` blanks), or `invalid` for a record that is not a puzzle (a
//! parse error or clashing givens). A CSV input gives every input column plus `minlex`
//! (`minlex_2`, ... when the input has one; also `invalid` there). A table output (`.jsonl`,
//! `.npz`, `.parquet`, a `.csv` name on a lines input, or the same by `--output-format`,
//! which decides as the extension does) gives [`CANON_COLUMNS`] through the writers
//! `solve`, `augment` and `rate` use. `--stats` writes
//! `record,input,line,status,clues,automorphisms,error` per record.

use crate::summary::{count, Notes, PuzzleColumnCheck};
use crate::verify::check::describe_puzzle;
use anyhow::{Context, Result};

use super::rows::{commit_rows, side_csv, RowWriter};
use crate::canon::{canonical, Canonical};
use crate::engine::{Inputs, ReadConfig};
use crate::grid::{ParseError, CELLS};
use crate::input::{Layout, RawRecord};
use crate::output::table::{
    table_writer, Column, Kind, ParquetCompression, TableFormat, TableWriter, Value, INPUT, LINE,
    RECORD,
};
use crate::output::{cannot_write, Target};

/// The columns of a table output: 0-based record over the run, the input's path as given
/// (`-` for standard input), 1-based line in that input, the puzzle as read, its
/// minlex form (empty or null for an invalid record), its automorphisms (the isomorphisms
/// that map it onto itself, 1 for most puzzles) and `ok` or `invalid`.
pub const CANON_COLUMNS: &[Column] = &[
    RECORD,
    INPUT,
    LINE,
    Column {
        name: "puzzle",
        kind: Kind::Grid,
    },
    Column {
        name: "minlex",
        kind: Kind::Grid,
    },
    Column {
        name: "automorphisms",
        kind: Kind::Int,
    },
    Column {
        name: "status",
        kind: Kind::Text,
    },
];

/// Everything `canon` needs, validated.
#[derive(Clone, Debug)]
pub struct CanonConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// Forms output path; `-` is standard output.
    pub output: String,
    /// `--output-format`: decides as the extension of `output` would
    /// ([`TableFormat::for_rows`], as for `solve`): `txt` the lines output (a form or
    /// `invalid` a line), `csv` on a CSV input its columns plus `minlex`, any other a table
    /// of [`CANON_COLUMNS`]. `None`: the extension decides, else the input's layout.
    pub output_format: Option<TableFormat>,
    /// `--parquet-compression`: how a Parquet output's pages are compressed.
    pub parquet_compression: ParquetCompression,
    /// Per-record stats CSV path, if wanted.
    pub stats: Option<String>,
}

/// Counts of one `canon` run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CanonSummary {
    /// Records written.
    pub records: u64,
    /// Records without a form (parse errors, clashing givens).
    pub invalid: u64,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
}

/// The form of one record, or why it has none ([`RawRecord::checked_puzzle`]).
///
/// # Errors
/// As [`RawRecord::checked_puzzle`].
pub fn canon_record(raw: &RawRecord) -> Result<Canonical, ParseError> {
    raw.checked_puzzle().map(canonical)
}

/// Runs `canon` as configured and prints a one-line summary unless quiet.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened or read, inputs of
/// different layouts, an output that cannot be written.
pub fn run_canon(cfg: &CanonConfig) -> Result<CanonSummary> {
    canon_with(cfg, canon_record)
}

/// [`run_canon`] with `work` for [`canon_record`] (tests give one that panics).
pub(crate) fn canon_with<W>(cfg: &CanonConfig, work: W) -> Result<CanonSummary>
where
    W: Fn(&RawRecord) -> Result<Canonical, ParseError> + Sync,
{
    let header = [
        "record",
        "input",
        "line",
        "status",
        "clues",
        "automorphisms",
        "error",
    ];
    let mut stats = side_csv(cfg.stats.as_deref(), "--stats", &header)?;
    let inputs = Inputs::open(&cfg.read, false)?.one_layout()?;
    let lines_input = matches!(inputs.layout(), Some(Layout::Lines { .. }));
    let what = cannot_write(&cfg.output, "forms");
    let mut out = match TableFormat::for_rows(&cfg.output, cfg.output_format, lines_input) {
        // Text is canon's lines output whatever the input (as for `solve`): one form a
        // line, `invalid` where there is none.
        Some(TableFormat::Txt) => {
            Forms::Rows(RowWriter::new(None, &cfg.output, Some("minlex"), &what)?)
        }
        Some(f) => Forms::Table(
            Target::create(&cfg.output)
                .and_then(|t| table_writer(f, t, CANON_COLUMNS, cfg.parquet_compression))
                .context(what.clone())?,
        ),
        None => Forms::Rows(RowWriter::new(
            inputs.layout(),
            &cfg.output,
            Some("minlex"),
            &what,
        )?),
    };
    let mut check = PuzzleColumnCheck::new("", "--puzzle-column", inputs.layout());
    let mut notes = Notes::default();
    let mut sum = CanonSummary::default();
    let layouts = inputs.layouts();
    let run = inputs.run(work, |input, path, raws, results| {
        raws.iter().for_each(|r| check.note(r));
        for (raw, res) in raws.iter().zip(results) {
            out.write(path, raw, res).context(what.clone())?;
            sum.records += 1;
            if let Err(e) = res {
                sum.invalid += 1;
                notes.add(path, raw.line, describe_puzzle(e, &layouts[input]));
            }
            if let Some((s, what)) = &mut stats {
                write_stats(s, path, raw, res).context(what.clone())?;
            }
        }
        Ok(())
    })?;
    sum.interrupted = run.interrupted;
    let out = out.into_target().context(what.clone())?;
    commit_rows((out, what), stats)?;
    notes.print("invalid records (see --stats)");
    check.warn();
    if !cfg.read.quiet {
        eprintln!(
            "sudoku-batch: canon: {}, {} with a form, {} invalid{}",
            count(sum.records, "record", "records"),
            sum.records - sum.invalid,
            sum.invalid,
            if sum.interrupted {
                " (interrupted)"
            } else {
                ""
            }
        );
    }
    Ok(sum)
}

/// Where the forms go: the input's rows plus `minlex`, or a table.
enum Forms {
    Rows(RowWriter),
    Table(Box<dyn TableWriter + Send>),
}

impl Forms {
    /// Writes the form of `raw`, a record of the input at `input` (the path as given).
    fn write(
        &mut self,
        input: &str,
        raw: &RawRecord,
        res: &Result<Canonical, ParseError>,
    ) -> Result<()> {
        match self {
            Forms::Rows(w) => {
                let mut text = [0u8; CELLS];
                let form: &[u8] = match res {
                    Ok(c) => {
                        c.form.write_dots(&mut text);
                        &text
                    }
                    Err(_) => b"invalid",
                };
                w.write(raw, form)
            }
            Forms::Table(t) => Ok(t.write_row(&[
                Value::Int(raw.record),
                Value::Text(input),
                Value::Int(raw.line),
                raw.puzzle.as_ref().map_or(Value::Null, Value::Grid),
                res.as_ref().map_or(Value::Null, |c| Value::Grid(&c.form)),
                res.as_ref()
                    .map_or(Value::Null, |c| Value::Int(c.automorphisms.into())),
                Value::Text(if res.is_ok() { "ok" } else { "invalid" }),
            ])?),
        }
    }

    fn into_target(self) -> Result<Target> {
        match self {
            Forms::Rows(w) => w.into_target(),
            Forms::Table(t) => Ok(t.finish()?),
        }
    }
}

/// Writes the `--stats` row of `raw`, a record of the input at `input` (the path as given).
fn write_stats(
    w: &mut csv::Writer<Target>,
    input: &str,
    raw: &RawRecord,
    res: &Result<Canonical, ParseError>,
) -> csv::Result<()> {
    let (status, clues, autos, error) = match res {
        Ok(c) => (
            "ok",
            c.form.clues().to_string(),
            c.automorphisms.to_string(),
            String::new(),
        ),
        Err(e) => ("invalid", String::new(), String::new(), e.to_string()),
    };
    w.write_record([
        &raw.record.to_string(),
        input,
        &raw.line.to_string(),
        status,
        &clues,
        &autos,
        &error,
    ])
}
