//! Exporters of a [`BenchReport`]: one file per format (JSON, CSV, Markdown), as hyperfine
//! does in its `src/export/`. Each writes the provenance block with the numbers, and each
//! goes through [`Target`], so a failed run never leaves a half-written export.

mod csv;
mod json;
mod markdown;

use std::io::Write;

use anyhow::{Context, Result};

use crate::bench::{BenchReport, Exports};
use crate::output::{cannot_write, open_json_target, open_target, Target};

pub use self::csv::{CsvExporter, CSV_HEADER};
pub use self::json::JsonExporter;
pub use self::markdown::MarkdownExporter;

/// Turns a benchmark report into the bytes of one export format.
pub trait Exporter {
    /// The whole export file.
    ///
    /// # Errors
    /// When the report cannot be serialized (not expected for finite numbers).
    fn serialize(&self, report: &BenchReport) -> Result<Vec<u8>>;
}

/// The exports a run was asked for, opened: each flag, its path, its file (a temporary
/// beside the target until [`write_all`] commits it) and its format.
pub struct Opened(Vec<(&'static str, String, Target, &'static dyn Exporter)>);

/// Opens every export that `exports` asks for, **before** any timing, so a missing folder
/// or an unwritable path fails at once rather than after the measurement (issue 11).
///
/// # Errors
/// When a file cannot be created; the message names it and the flag.
pub fn open_all(exports: &Exports) -> Result<Opened> {
    type Open = fn(&str, &str) -> Result<Target>;
    let wanted: [(&str, &Option<String>, &'static dyn Exporter, Open); 3] = [
        (
            "--export-json",
            &exports.json,
            &JsonExporter,
            open_json_target,
        ),
        ("--export-csv", &exports.csv, &CsvExporter, open_target),
        (
            "--export-markdown",
            &exports.markdown,
            &MarkdownExporter,
            open_target,
        ),
    ];
    let mut opened = Vec::new();
    for (flag, path, exporter, open) in wanted {
        if let Some(path) = path {
            let t = open(path, flag)?;
            opened.push((flag, path.clone(), t, exporter));
        }
    }
    Ok(Opened(opened))
}

/// Writes `report` into every export opened by [`open_all`] and commits them.
///
/// # Errors
/// When a file cannot be written; the message names it and the flag.
pub fn write_all(opened: Opened, report: &BenchReport) -> Result<()> {
    for (flag, path, mut t, exporter) in opened.0 {
        let bytes = exporter.serialize(report)?;
        t.write_all(&bytes)
            .and_then(|()| t.commit())
            .with_context(|| cannot_write(&path, flag))?;
    }
    Ok(())
}

/// What the text and Markdown tables show for a figure with no value (a speed-up of
/// nothing timed); JSON has `null`, CSV an empty field.
pub const NOT_APPLICABLE: &str = "n/a";

/// `x` with two decimals, or [`NOT_APPLICABLE`].
pub(crate) fn two_places(x: Option<f64>) -> String {
    x.map_or_else(|| NOT_APPLICABLE.to_string(), |x| format!("{x:.2}"))
}

/// The footnote of the rows marked `*`, when some thread count exceeds the cores:
/// `oversubscribed: -j 4 exceeds the 2 cores of this machine: those rows measure threads
/// taking turns, not scaling`; `None` when none does.
pub(crate) fn oversubscribed_note(report: &BenchReport) -> Option<String> {
    let over: Vec<String> = report
        .results
        .iter()
        .filter(|r| r.oversubscribed)
        .map(|r| r.threads)
        .collect::<std::collections::BTreeSet<usize>>()
        .iter()
        .map(usize::to_string)
        .collect();
    (!over.is_empty()).then(|| {
        format!(
            "oversubscribed: -j {} exceeds the {} of this machine: those rows measure threads \
             taking turns, not scaling",
            over.join(", "),
            crate::summary::count(report.provenance.cores as u64, "core", "cores")
        )
    })
}

/// What follows the input's name in a row of a run over one shard: ` (shard 2/4)`, so the
/// row does not pass for the whole file's; empty for whole inputs.
pub(crate) fn shard_mark(report: &BenchReport) -> String {
    report
        .settings
        .shard
        .as_ref()
        .map_or_else(String::new, |k| format!(" (shard {k})"))
}

/// The results as an aligned text table, for the terminal: the input is marked with its
/// shard (`big.txt (shard 2/4)`), and a thread count above the cores
/// is marked `*` and footnoted, as in the Markdown export.
pub fn text_table(report: &BenchReport) -> String {
    let mut rows = vec![[
        "input",
        "threads",
        "puzzles",
        "puzzles/s",
        "µs/puzzle",
        "p50 µs",
        "p90 µs",
        "p99 µs",
        "max µs",
        "no guess %",
        "guesses/puzzle",
        "speed-up",
        "efficiency",
    ]
    .map(String::from)];
    let part = shard_mark(report);
    for r in &report.results {
        rows.push([
            format!("{}{part}", r.input),
            format!("{}{}", r.threads, if r.oversubscribed { "*" } else { "" }),
            r.puzzles.to_string(),
            format!("{:.0}", r.puzzles_per_s),
            format!("{:.2}", r.us_per_puzzle),
            format!("{:.1}", r.latency.p50_us),
            format!("{:.1}", r.latency.p90_us),
            format!("{:.1}", r.latency.p99_us),
            format!("{:.1}", r.latency.max_us),
            format!("{:.1}", r.no_guess_pct),
            format!("{:.2}", r.guesses_per_puzzle),
            two_places(r.speedup),
            two_places(r.efficiency),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                if i == 0 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    if let Some(note) = oversubscribed_note(report) {
        out.push_str(&format!("* {note}\n"));
    }
    out
}
