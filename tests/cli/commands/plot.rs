//! `report plot`: the SVG charts parse as XML, their bars stand for the report's own
//! counts, and the same report gives the same bytes.

use crate::common;

use std::fs;
use std::path::Path;

use common::bin;

fn data(name: &str) -> String {
    format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The bars of a chart: `(x, height)` of every filled blue rectangle, left to right.
fn bars(svg: &str) -> Vec<(f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("the chart is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let mut bars: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#0000FF"))
        .map(|n| {
            let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (num("x"), num("height"))
        })
        .collect();
    bars.sort_by(|a, b| a.0.total_cmp(&b.0));
    bars
}

/// Every text of the chart, trimmed.
fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

#[test]
fn a_verify_reports_guesses_are_drawn_one_bar_per_bucket_in_proportion() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("v.json");
    bin()
        .args(["verify", "-q", &data("sample_kaggle.csv"), "--report"])
        .arg(&report)
        .assert()
        .success();
    let out = dir.path().join("charts");
    fs::create_dir(&out).unwrap();
    bin()
        .args(["report", "plot"])
        .arg(&report)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let svg = fs::read_to_string(out.join("v-guesses.svg")).unwrap();
    let buckets = json(&report)["guesses_histogram"]
        .as_array()
        .unwrap()
        .clone();
    let rows: Vec<f64> = buckets
        .iter()
        .map(|b| b["rows"].as_u64().unwrap() as f64)
        .collect();
    assert_eq!(
        rows.iter().sum::<f64>(),
        2000.0,
        "every row of the sample reached the solver"
    );
    let drawn = bars(&svg);
    assert_eq!(drawn.len(), rows.iter().filter(|&&r| r > 0.0).count());
    // Heights in proportion to the rows (pixels are whole numbers: within 1.5 px).
    let scale = drawn[0].1 / rows[0];
    for (bar, r) in drawn.iter().zip(rows.iter().filter(|&&r| r > 0.0)) {
        assert!((bar.1 - r * scale).abs() <= 1.5, "bar {bar:?} for {r} rows");
    }
    let labels = texts(&svg);
    for b in &buckets {
        let (lo, hi) = (
            b["min_guesses"].as_u64().unwrap(),
            b["max_guesses"].as_u64().unwrap(),
        );
        let label = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        };
        assert!(labels.contains(&label), "{label} in {labels:?}");
    }
}

#[test]
fn a_solve_report_and_a_bench_export_give_their_charts_and_the_same_bytes_twice() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("s.json");
    let stats = dir.path().join("s.csv");
    bin()
        .args(["solve", "-q", &data("sample.txt"), "-o", "-", "--report"])
        .arg(&report)
        .arg("--stats")
        .arg(&stats)
        .assert()
        .success();
    let export = dir.path().join("b.json");
    bin()
        .args([
            "bench",
            "-q",
            &data("sample.txt"),
            "-j",
            "1,2",
            "--min-time",
            "0",
        ])
        .arg("--export-json")
        .arg(&export)
        .assert()
        .success();
    let mut runs = Vec::new();
    for k in 0..2 {
        let out = dir.path().join(format!("charts{k}"));
        fs::create_dir(&out).unwrap();
        bin()
            .args(["report", "plot"])
            .arg(&report)
            .arg(&export)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        runs.push((
            fs::read_to_string(out.join("s-latency.svg")).unwrap(),
            fs::read_to_string(out.join("b-threads.svg")).unwrap(),
        ));
    }
    assert_eq!(runs[0], runs[1], "the same documents give the same bytes");
    let (latency, threads) = &runs[0];
    // One bar per non-empty power-of-two bucket, at most one per bucket between the
    // fastest and the slowest puzzle of the stats (solve_ns, nanoseconds; the histogram
    // keeps 3 significant digits, so its ends may fall one bucket further out).
    let ns: Vec<u64> = fs::read_to_string(&stats)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(7).unwrap().parse().unwrap())
        .collect();
    let (lo, hi) = (
        ns.iter().min().unwrap().max(&1).ilog2(),
        ns.iter().max().unwrap().max(&1).ilog2(),
    );
    let drawn = bars(latency);
    assert!(!drawn.is_empty());
    assert!(
        drawn.len() as u32 <= hi - lo + 3,
        "{} bars for 2^{lo}..2^{hi}",
        drawn.len()
    );
    assert!(texts(latency)
        .iter()
        .any(|t| t == "Solve time per puzzle (wall time)"));
    // The thread chart: a point per row of the export, the input named in the legend.
    let doc = roxmltree::Document::parse(threads).unwrap();
    let points = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    let rows = json(&export)["results"].as_array().unwrap().len();
    assert_eq!(points, rows);
    assert!(texts(threads).iter().any(|t| t.ends_with("sample.txt")));
}

#[test]
fn a_file_that_is_no_report_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["report", "plot", &data("sample.txt"), "-o"])
        .arg(dir.path())
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("sample.txt: not JSON"), "{err}");
}
