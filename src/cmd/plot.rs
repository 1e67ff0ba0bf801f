//! `report plot`: writes the SVG charts of JSON reports and bench exports into a folder,
//! `STEM-NAME.svg` for each chart of `STEM.json` (see [`crate::report::plot`]).

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};

use crate::output::Target;
use crate::report::plot;

/// What `report plot` was asked.
#[derive(Clone, Debug)]
pub struct PlotConfig {
    /// The documents to draw: `solve` or `verify` reports, `bench --export-json` exports.
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
    let dir = Path::new(&cfg.out_dir);
    if !dir.is_dir() {
        bail!("{}: not a folder (create it first)", cfg.out_dir);
    }
    let mut files = Vec::new();
    for input in &cfg.inputs {
        let text =
            std::fs::read_to_string(input).with_context(|| format!("{input}: cannot read"))?;
        let doc: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{input}: not JSON"))?;
        let charts = plot::charts(&doc).with_context(|| format!("{input}: no chart"))?;
        let stem = Path::new(input)
            .file_stem()
            .map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
        for chart in charts {
            let path = dir.join(format!("{stem}-{}.svg", chart.name));
            files.push((path.to_string_lossy().into_owned(), chart.svg));
        }
    }
    let mut written = Vec::with_capacity(files.len());
    for (path, svg) in files {
        if written.contains(&path) {
            bail!("{path}: two inputs would write this chart (inputs with the same file name)");
        }
        let mut out = Target::create(&path).with_context(|| format!("{path}: cannot write"))?;
        out.write_all(svg.as_bytes())
            .and_then(|()| out.sync())
            .and_then(|()| out.commit())
            .with_context(|| format!("{path}: cannot write"))?;
        written.push(path);
    }
    Ok(written)
}
