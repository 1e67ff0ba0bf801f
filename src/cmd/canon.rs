//! `canon`: the minlex form of every record, in input order (issue 12).
//!
//! A lines input gives one line per record: the form (`.` blanks), or `invalid` for a
//! record that is not a puzzle (a parse error or clashing givens). A CSV input gives every
//! input column plus `minlex` (also `invalid` there). `--stats` writes
//! `record,line,status,clues,automorphisms,error` per record.

use anyhow::{Context, Result};

use super::rows::RowWriter;
use crate::canon::{canonical, Canonical};
use crate::engine::{Inputs, ReadConfig};
use crate::grid::{Grid, ParseError};
use crate::input::RawRecord;
use crate::output::commit_outputs;
use crate::output::Target;

/// Everything `canon` needs, validated.
#[derive(Clone, Debug)]
pub struct CanonConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// Forms output path; `-` is standard output.
    pub output: String,
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

/// The puzzle of one record, or why it is not a puzzle: a parse error, or clashing givens.
///
/// # Errors
/// The record's parse error, or [`ParseError::Conflict`] naming the clash.
pub fn checked_puzzle(raw: &RawRecord) -> Result<&Grid, ParseError> {
    let puzzle = raw.puzzle.as_ref().map_err(Clone::clone)?;
    if puzzle.has_conflict() {
        let why = puzzle
            .conflicts()
            .unwrap_or_else(|| "two givens clash".into());
        return Err(ParseError::Conflict(why));
    }
    Ok(puzzle)
}

/// The form of one record, or why it has none ([`checked_puzzle`]).
///
/// # Errors
/// As [`checked_puzzle`].
pub fn canon_record(raw: &RawRecord) -> Result<Canonical, ParseError> {
    checked_puzzle(raw).map(canonical)
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
    let mut stats = match &cfg.stats {
        Some(p) => {
            let mut w = csv::Writer::from_writer(Target::create(p)?);
            w.write_record([
                "record",
                "line",
                "status",
                "clues",
                "automorphisms",
                "error",
            ])?;
            Some(w)
        }
        None => None,
    };
    let inputs = Inputs::open(&cfg.read, false)?.one_layout()?;
    let mut out = RowWriter::new(inputs.layout(), &cfg.output, Some("minlex"))?;
    let mut sum = CanonSummary::default();
    let run = inputs.run(work, |_, _, raws, results| {
        for (raw, res) in raws.iter().zip(results) {
            let form = res
                .as_ref()
                .map_or("invalid".to_string(), |c| c.form.to_string());
            out.write(raw, form.as_bytes())
                .context("cannot write forms")?;
            sum.records += 1;
            sum.invalid += u64::from(res.is_err());
            if let Some(s) = &mut stats {
                write_stats(s, raw, res).context("cannot write --stats")?;
            }
        }
        Ok(())
    })?;
    sum.interrupted = run.interrupted;
    let mut targets = vec![(out.into_target()?, "cannot write forms".to_string())];
    if let Some(s) = stats {
        let t = s.into_inner().map_err(|e| e.into_error())?;
        targets.push((t, "cannot write --stats".to_string()));
    }
    commit_outputs(targets, ())?;
    if !cfg.read.quiet {
        eprintln!(
            "sudoku-batch: canon: {} records, {} with a form, {} invalid{}",
            sum.records,
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

fn write_stats(
    w: &mut csv::Writer<Target>,
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
        &raw.line.to_string(),
        status,
        &clues,
        &autos,
        &error,
    ])
}
