//! SVG charts of the JSON documents the tool writes (`report plot`): the latency histogram
//! of a `solve` report, the guesses histogram of a `verify` report, and puzzles/s by thread
//! count of a `bench --export-json` export.
//!
//! Drawn with plotters' SVG backend alone: text is SVG `<text>` laid out by plotters' own
//! size estimate, so no font or image library is linked. The same document gives the same
//! bytes: the charts hold no date, no random identifier and no host name.

use hdrhistogram::Histogram as Hdr;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use serde_json::Value;

use super::solve::{Tally, TallySummary};

/// Width and height of every chart, pixels.
const SIZE: (u32, u32) = (800, 480);

/// One chart: a name for its file (`latency`, `guesses`, `threads`) and its SVG text.
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
    /// Not a document this command knows: a `solve` or `verify` report, or a bench export.
    #[error("not a solve or verify report, nor a bench --export-json export")]
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
        Some("solve") => Ok(vec![latency_chart(doc)?]),
        Some("verify") => Ok(vec![guesses_chart(doc)?]),
        _ if doc.get("results").is_some_and(Value::is_array) => Ok(vec![threads_chart(doc)?]),
        _ => Err(PlotError::Unknown),
    }
}

/// Per-puzzle solve time of a `solve` report, from its HdrHistogram (`tally.hist_v2_base64`),
/// in power-of-two buckets of nanoseconds shown in µs.
fn latency_chart(doc: &Value) -> Result<Chart, PlotError> {
    let summary: TallySummary = doc
        .get("tally")
        .cloned()
        .ok_or_else(|| PlotError::Damaged("no tally".into()))
        .and_then(|t| serde_json::from_value(t).map_err(|e| PlotError::Damaged(e.to_string())))?;
    let tally = Tally::from_summary(&summary).map_err(PlotError::Damaged)?;
    let bars = latency_buckets(tally.histogram());
    let svg = bar_chart(
        "Solve time per puzzle (wall time)",
        "solve time, µs (bucket from)",
        "puzzles",
        &bars,
    )?;
    Ok(Chart {
        name: "latency",
        svg,
    })
}

/// `(label, count)` per power-of-two bucket `[2^i, 2^(i+1))` ns from the smallest recorded
/// value's bucket to the largest's, empty buckets between them included.
fn latency_buckets(hist: &Hdr<u64>) -> Vec<(String, u64)> {
    if hist.is_empty() {
        return Vec::new();
    }
    let low = hist.min().max(1).ilog2();
    let high = hist.max().max(1).ilog2();
    (low..=high)
        .map(|i| {
            let from = 1u64 << i;
            let to = (from << 1) - 1;
            (micros(from), hist.count_between(from, to))
        })
        .collect()
}

/// Nanoseconds as µs, with as many decimals as a small value needs.
fn micros(ns: u64) -> String {
    match ns {
        0..=99 => format!("{:.2}", ns as f64 / 1000.0),
        100..=999 => format!("{:.1}", ns as f64 / 1000.0),
        _ => format!("{}", ns / 1000),
    }
}

/// Rows per number of guesses of a `verify` report (`guesses_histogram`, power-of-two
/// buckets).
fn guesses_chart(doc: &Value) -> Result<Chart, PlotError> {
    let buckets = doc
        .get("guesses_histogram")
        .and_then(Value::as_array)
        .ok_or_else(|| PlotError::Damaged("no guesses_histogram".into()))?;
    let mut bars = Vec::with_capacity(buckets.len());
    for b in buckets {
        let field = |k: &str| {
            b.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| PlotError::Damaged(format!("guesses_histogram: no {k}")))
        };
        let (min, max, rows) = (field("min_guesses")?, field("max_guesses")?, field("rows")?);
        let label = if min == max {
            min.to_string()
        } else {
            format!("{min}-{max}")
        };
        bars.push((label, rows));
    }
    let svg = bar_chart("Guesses per puzzle", "guesses", "rows", &bars)?;
    Ok(Chart {
        name: "guesses",
        svg,
    })
}

/// A bar per `(label, count)`, in order.
fn bar_chart(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    bars: &[(String, u64)],
) -> Result<String, PlotError> {
    let draw = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
    let top = bars.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    let n = u32::try_from(bars.len()).map_err(|e| draw(&e))?.max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d((0..n).into_segmented(), 0..top + top / 10 + 1)
            .map_err(|e| draw(&e))?;
        let label = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => bars
                .get(*i as usize)
                .map(|b| b.0.clone())
                .unwrap_or_default(),
            SegmentValue::Last => String::new(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(bars.len().max(1))
            .x_label_formatter(&label)
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(|e| draw(&e))?;
        // One rectangle per bar, in order (plotters' Histogram series gathers bars in a
        // hash map, whose order would change the file's bytes from run to run).
        let style = BLUE.mix(0.7).filled();
        chart
            .draw_series(
                bars.iter()
                    .enumerate()
                    .filter(|(_, b)| b.1 > 0)
                    .map(|(i, b)| {
                        let i = u32::try_from(i).expect("fewer bars than u32::MAX");
                        let mut bar = Rectangle::new(
                            [
                                (SegmentValue::Exact(i), 0),
                                (SegmentValue::Exact(i + 1), b.1),
                            ],
                            style,
                        );
                        bar.set_margin(0, 0, 2, 2);
                        bar
                    }),
            )
            .map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// Puzzles/s by thread count of a bench export, a line per input.
fn threads_chart(doc: &Value) -> Result<Chart, PlotError> {
    let draw = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
    let results = doc
        .get("results")
        .and_then(Value::as_array)
        .ok_or_else(|| PlotError::Damaged("no results".into()))?;
    // (input, [(threads, puzzles/s)]) in the export's order.
    let mut lines: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for r in results {
        let input = r
            .get("input")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let threads = r
            .get("threads")
            .and_then(Value::as_u64)
            .and_then(|t| u32::try_from(t).ok())
            .ok_or_else(|| PlotError::Damaged("results: no threads".into()))?;
        let rate = r
            .get("puzzles_per_s")
            .and_then(Value::as_f64)
            .ok_or_else(|| PlotError::Damaged("results: no puzzles_per_s".into()))?;
        match lines.iter_mut().find(|l| l.0 == input) {
            Some(l) => l.1.push((threads, rate)),
            None => lines.push((input, vec![(threads, rate)])),
        }
    }
    for l in &mut lines {
        l.1.sort_by_key(|p| p.0);
    }
    let max_threads = lines
        .iter()
        .flat_map(|l| &l.1)
        .map(|p| p.0)
        .max()
        .unwrap_or(1);
    let top = lines
        .iter()
        .flat_map(|l| &l.1)
        .map(|p| p.1)
        .fold(0.0_f64, f64::max)
        .max(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Throughput by thread count (solver only)",
                ("sans-serif", 22),
            )
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(88)
            .build_cartesian_2d(0..max_threads + 1, 0.0..top * 1.1)
            .map_err(|e| draw(&e))?;
        chart
            .configure_mesh()
            .x_desc("threads")
            .y_desc("puzzles/s")
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(|e| draw(&e))?;
        for (k, (input, points)) in lines.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(|e| draw(&e))?
                .label(input.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(|e| draw(&e))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(Chart {
        name: "threads",
        svg,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_buckets_count_every_value_once_in_its_power_of_two() {
        let mut h = Hdr::<u64>::new(3).expect("valid precision");
        for v in [300, 400, 600, 1_000, 1_100, 5_000] {
            h.record(v).expect("in range");
        }
        let b = latency_buckets(&h);
        // 256..511: 300, 400; 512..1023: 600, 1000; 1024..2047: 1100; 4096..8191: 5000.
        let counts: Vec<u64> = b.iter().map(|x| x.1).collect();
        assert_eq!(counts, [2, 2, 1, 0, 1]);
        assert_eq!(b[0].0, "0.3");
        assert_eq!(b.iter().map(|x| x.1).sum::<u64>(), h.len());
    }

    #[test]
    fn an_unknown_document_is_named_as_such() {
        let doc: Value = serde_json::json!({"command": "canon"});
        assert!(matches!(charts(&doc), Err(PlotError::Unknown)));
    }
}
