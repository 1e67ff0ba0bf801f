//! Charts of the JSON documents the tool writes: a `solve` report's latency histogram, a
//! `verify` report's guesses histogram, a bench export's puzzles/s by thread count, and a
//! `generate` report's rows per rating bin against their target.

use hdrhistogram::Histogram as Hdr;
use serde_json::Value;

use super::draw::{self, Bars};
use super::{Chart, PlotError};
use crate::report::solve::{Tally, TallySummary};

/// Per-puzzle solve time of a `solve` report, from its HdrHistogram (`tally.hist_v2_base64`),
/// in power-of-two buckets of nanoseconds shown in µs.
pub(super) fn latency(doc: &Value) -> Result<Chart, PlotError> {
    let summary: TallySummary = doc
        .get("tally")
        .cloned()
        .ok_or_else(|| PlotError::Damaged("no tally".into()))
        .and_then(|t| serde_json::from_value(t).map_err(|e| PlotError::Damaged(e.to_string())))?;
    let tally = Tally::from_summary(&summary).map_err(PlotError::Damaged)?;
    let svg = draw::counts(
        "Solve time per puzzle (wall time)",
        ("solve time, µs (bucket from)", "puzzles"),
        latency_buckets(tally.histogram()),
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
pub(super) fn guesses(doc: &Value) -> Result<Chart, PlotError> {
    let buckets = doc
        .get("guesses_histogram")
        .and_then(Value::as_array)
        .ok_or_else(|| PlotError::Damaged("no guesses_histogram".into()))?;
    let mut bars = Vec::with_capacity(buckets.len());
    for b in buckets {
        let (min, max, rows) = (
            uint(b, "min_guesses", "guesses_histogram")?,
            uint(b, "max_guesses", "guesses_histogram")?,
            uint(b, "rows", "guesses_histogram")?,
        );
        let label = if min == max {
            min.to_string()
        } else {
            format!("{min}-{max}")
        };
        bars.push((label, rows));
    }
    let svg = draw::counts("Guesses per puzzle", ("guesses", "rows"), bars)?;
    Ok(Chart {
        name: "guesses",
        svg,
    })
}

/// Field `key` of `v` as an unsigned integer; a damaged document names `what` and `key`.
fn uint(v: &Value, key: &str, what: &str) -> Result<u64, PlotError> {
    v.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| PlotError::Damaged(format!("{what}: no {key}")))
}

/// Puzzles/s by thread count of a bench export, a line per input.
pub(super) fn threads(doc: &Value) -> Result<Chart, PlotError> {
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
        let threads = uint(r, "threads", "results")
            .ok()
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
    let svg = draw::lines(
        "Throughput by thread count (solver only)",
        ("threads", "puzzles/s"),
        &lines,
    )?;
    Ok(Chart {
        name: "threads",
        svg,
    })
}

/// Rows written per rating bin of a `generate` report against the bin's target
/// (`results.bins`, labelled by `rating.bins`; one bin, "all", without `--rating`).
pub(super) fn rating_bins(doc: &Value) -> Result<Chart, PlotError> {
    let counts = doc
        .pointer("/results/bins")
        .and_then(Value::as_array)
        .ok_or_else(|| PlotError::Damaged("no results.bins".into()))?;
    let spec = doc.pointer("/rating/bins").and_then(Value::as_array);
    let mut labels = Vec::with_capacity(counts.len());
    let (mut target, mut kept) = (Vec::new(), Vec::new());
    for (i, c) in counts.iter().enumerate() {
        target.push(uint(c, "target", "results.bins")? as f64);
        kept.push(uint(c, "kept", "results.bins")? as f64);
        labels.push(match spec.and_then(|s| s.get(i)) {
            Some(bin) => bin_label(bin)?,
            None => "all".to_string(),
        });
    }
    let svg = draw::bars(&Bars {
        title: "Generated puzzles per rating bin",
        x_desc: "rating bin",
        y_desc: "rows",
        labels,
        series: vec![("written".into(), kept), ("target".into(), target)],
        rule: None,
        y_decimals: 0,
    })?;
    Ok(Chart {
        name: "rating",
        svg,
    })
}

/// `[lo, hi)` of a bin of the report (`hi` null: no upper end).
fn bin_label(bin: &Value) -> Result<String, PlotError> {
    let lo = bin
        .get("lo")
        .and_then(Value::as_f64)
        .ok_or_else(|| PlotError::Damaged("rating.bins: no lo".into()))?;
    Ok(match bin.get("hi").and_then(Value::as_f64) {
        Some(hi) => format!("[{lo}, {hi})"),
        None => format!("[{lo}, inf)"),
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
    fn a_bin_without_an_upper_end_is_labelled_to_infinity() {
        let bin = serde_json::json!({"lo": 2.5, "hi": null, "share": 0.2});
        assert_eq!(bin_label(&bin).unwrap(), "[2.5, inf)");
        let bin = serde_json::json!({"lo": 0.0, "hi": 0.5, "share": 0.2});
        assert_eq!(bin_label(&bin).unwrap(), "[0, 0.5)");
    }
}
