//! SVG charts of what the tool writes (`report plot`, `bench --plot`): the latency
//! histogram of a `solve` report, the guesses histogram of a `verify` report, puzzles/s by
//! thread count of a bench export, rows per rating bin of a `generate` report, the rating
//! distribution of a `rate` output (CSV), and our speed over tdoku's from the bench-peers
//! table (`benches/results/peers-tdoku.csv`).
//!
//! Drawn with plotters' SVG backend alone: text is SVG `<text>` laid out by plotters' own
//! size estimate, so no font or image library is linked. The same input gives the same
//! bytes: the charts hold no date, no random identifier and no host name.

mod draw;
mod reports;
mod tables;

use serde_json::Value;

/// Width and height of every chart, pixels.
const SIZE: (u32, u32) = (800, 480);

/// One chart: a name for its file (`latency`, `guesses`, `threads`, `rating`, `peers`) and
/// its SVG text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// What the chart shows, used in its file name.
    pub name: &'static str,
    /// The whole SVG document.
    pub svg: String,
}

/// Why a document gives no chart.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// Not a document this module knows.
    #[error(
        "not a solve, verify or generate report, a bench --export-json export, a rate CSV \
         output or a bench-peers CSV table"
    )]
    Unknown,
    /// A known document whose fields are missing or damaged.
    #[error("{0}")]
    Damaged(String),
    /// plotters refused to draw (a bug in the chart's ranges).
    #[error("drawing the chart: {0}")]
    Draw(String),
}

/// The charts of one JSON document (its text already parsed).
///
/// # Errors
/// [`PlotError::Unknown`] for another document, [`PlotError::Damaged`] for a known one
/// whose fields cannot be read.
pub fn charts(doc: &Value) -> Result<Vec<Chart>, PlotError> {
    match doc.get("command").and_then(Value::as_str) {
        Some("solve") => Ok(vec![reports::latency(doc)?]),
        Some("verify") => Ok(vec![reports::guesses(doc)?]),
        _ if doc.get("results").is_some_and(Value::is_array) => Ok(vec![reports::threads(doc)?]),
        _ if doc.pointer("/results/bins").is_some() => Ok(vec![reports::rating_bins(doc)?]),
        _ => Err(PlotError::Unknown),
    }
}

/// The charts of a file's text: a JSON document as [`charts`] reads it, else a CSV table
/// with a header (a `rate` output, a bench-peers table).
///
/// # Errors
/// [`PlotError::Unknown`] for text that is neither; [`PlotError::Damaged`] for a known
/// document or table whose fields cannot be read.
pub fn charts_of_text(text: &str) -> Result<Vec<Chart>, PlotError> {
    match serde_json::from_str::<Value>(text) {
        Ok(doc) => charts(&doc),
        Err(_) => tables::charts(text)?.ok_or(PlotError::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_document_is_named_as_such() {
        let doc: Value = serde_json::json!({"command": "canon"});
        assert!(matches!(charts(&doc), Err(PlotError::Unknown)));
        assert!(matches!(
            charts_of_text("not, a, table\n"),
            Err(PlotError::Unknown)
        ));
    }
}
