//! `report plot` (and `bench --plot`): writes the SVG charts of reports, bench exports and
//! tables into a folder, `STEM-NAME.svg` for each chart of `STEM.json` or `STEM.csv` (see
//! [`crate::report::plot`]).

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};

use crate::output::Target;
use crate::report::plot;

/// What `report plot` was asked.
#[derive(Clone, Debug)]
pub struct PlotConfig {
    /// The documents to draw: `solve`, `verify` or `generate` reports, `bench --export-json`
    /// exports, `rate` CSV outputs, bench-peers CSV tables.
    pub inputs: Vec<String>,
    /// The folder the SVG files go to (it must exist).
    pub out_dir: String,
}

/// Draws every input's charts and returns the paths written, in input order.
///
/// # Errors
/// An input that cannot be read, is not JSON or is not a document with charts; a folder
/// that does not exist; a chart that cannot be written. Nothing is written until every
/// input has given its charts.
pub fn run_plot(cfg: &PlotConfig) -> anyhow::Result<Vec<String>> {
    check_folder(&cfg.out_dir)?;
    let mut charts = Vec::new();
    for input in &cfg.inputs {
        let text =
            std::fs::read_to_string(input).with_context(|| format!("{input}: cannot read"))?;
        let stem = Path::new(input)
            .file_stem()
            .map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
        for chart in plot::charts_of_text(&text).with_context(|| format!("{input}: no chart"))? {
            charts.push((stem.clone(), chart));
        }
    }
    write_charts(&cfg.out_dir, charts)
}

/// Refuses a chart folder that does not exist (it is not created: a typo would otherwise
/// leave charts somewhere unexpected).
///
/// # Errors
/// The path, and that it is not a folder.
pub fn check_folder(dir: &str) -> anyhow::Result<()> {
    if !Path::new(dir).is_dir() {
        bail!("{dir}: not a folder (create it first)");
    }
    Ok(())
}

/// Writes each `(stem, chart)` to `DIR/STEM-NAME.svg` and returns the paths, in order.
///
/// # Errors
/// Two charts with the same path; a file that cannot be written.
pub fn write_charts(dir: &str, charts: Vec<(String, plot::Chart)>) -> anyhow::Result<Vec<String>> {
    let mut written = Vec::with_capacity(charts.len());
    for (stem, chart) in &charts {
        let path = Path::new(dir)
            .join(format!("{stem}-{}.svg", chart.name))
            .to_string_lossy()
            .into_owned();
        if written.contains(&path) {
            bail!("{path}: two inputs would write this chart (inputs with the same file name)");
        }
        written.push(path);
    }
    for (path, (_, chart)) in written.iter().zip(charts) {
        let mut out = Target::create(path).with_context(|| format!("{path}: cannot write"))?;
        out.write_all(chart.svg.as_bytes())
            .and_then(|()| out.sync())
            .and_then(|()| out.commit())
            .with_context(|| format!("{path}: cannot write"))?;
    }
    Ok(written)
}
