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

/// `report plot INPUTS -o OUT`, which must succeed.
fn plot(inputs: &[&Path], out: &Path) {
    bin()
        .args(["report", "plot"])
        .args(inputs)
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

/// The bars of a chart's first series: `(x, height)` of every blue rectangle standing on
/// the x axis, left to right.
fn bars(svg: &str) -> Vec<(f64, f64)> {
    series(svg, "#0000FF")
}

/// `(x, height)` of every rectangle filled with `fill` standing on the x axis (the
/// commonest bottom edge, which a legend's swatch does not share), left to right.
fn series(svg: &str, fill: &str) -> Vec<(f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("the chart is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let rects: Vec<(f64, f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill))
        .map(|n| {
            let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (num("x"), num("height"), num("y") + num("height"))
        })
        .collect();
    let commonest = |b: f64| rects.iter().filter(|r| r.2 == b).count();
    let Some(base) = rects.iter().map(|r| r.2).max_by_key(|&b| commonest(b)) else {
        return Vec::new();
    };
    let mut bars: Vec<(f64, f64)> = rects
        .iter()
        .filter(|r| r.2 == base)
        .map(|r| (r.0, r.1))
        .collect();
    bars.sort_by(|a, b| a.0.total_cmp(&b.0));
    bars
}

/// Asserts that the heights of `drawn` stand in proportion to `values` (the non-zero ones,
/// in order), within the 1.5 px of whole-pixel rounding.
fn in_proportion(drawn: &[(f64, f64)], values: &[f64]) {
    let values: Vec<f64> = values.iter().copied().filter(|&v| v > 0.0).collect();
    assert_eq!(drawn.len(), values.len(), "{drawn:?} for {values:?}");
    let top = values.iter().copied().fold(0.0, f64::max);
    let tallest = drawn.iter().map(|b| b.1).fold(0.0, f64::max);
    for (bar, v) in drawn.iter().zip(&values) {
        assert!(
            (bar.1 - v / top * tallest).abs() <= 1.5,
            "bar {bar:?} for {v} (tallest {tallest} for {top})"
        );
    }
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
    plot(&[&report], &out);
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
        plot(&[&report, &export], &out);
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
    assert!(err.contains("sample.txt: no chart: not a solve"), "{err}");
}

#[test]
fn a_rate_output_is_drawn_as_a_histogram_of_its_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let ratings = dir.path().join("r.csv");
    bin()
        .args([
            "rate",
            "-q",
            &data("sample_kaggle.csv"),
            "--samples",
            "3",
            "-o",
        ])
        .arg(&ratings)
        .assert()
        .success();
    plot(&[&ratings], dir.path());
    let svg = fs::read_to_string(dir.path().join("r-rating.svg")).unwrap();
    let mut reader = csv::Reader::from_path(&ratings).unwrap();
    let at = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "rating")
        .unwrap();
    let values: Vec<f64> = reader
        .records()
        .filter_map(|r| r.unwrap()[at].parse().ok())
        .collect();
    assert_eq!(values.len(), 2000, "every puzzle of the sample is rated");
    // Bins of equal width from 0, the narrowest of 0.1, 0.25, 0.5, 1, 2, 5 that keeps the
    // highest rating within 24 bins, each labelled by where it starts.
    let max = values.iter().copied().fold(0.0, f64::max);
    let width = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0]
        .into_iter()
        .find(|w| max / w < 24.0)
        .unwrap();
    let n = (max / width).floor() as usize + 1;
    let mut counts = vec![0.0; n];
    for v in &values {
        counts[((v / width).floor() as usize).min(n - 1)] += 1.0;
    }
    let labels = texts(&svg);
    for i in [1, n - 1] {
        let start = format!("{:.2}", i as f64 * width);
        let start = start.trim_end_matches('0').trim_end_matches('.');
        assert!(labels.iter().any(|t| t == start), "{start} in {labels:?}");
    }
    in_proportion(&bars(&svg), &counts);
}

#[test]
fn a_generate_report_is_drawn_as_rows_and_targets_per_rating_bin() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("g.json");
    bin()
        .args([
            "generate", "-q", "-n", "60", "--seed", "5", "--rating", "3", "-o",
        ])
        .arg(dir.path().join("g.csv"))
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    plot(&[&report], dir.path());
    let svg = fs::read_to_string(dir.path().join("g-rating.svg")).unwrap();
    let doc = json(&report);
    let bins = doc["results"]["bins"].as_array().unwrap();
    let field =
        |k: &str| -> Vec<f64> { bins.iter().map(|b| b[k].as_u64().unwrap() as f64).collect() };
    let (kept, target) = (field("kept"), field("target"));
    assert_eq!(kept.iter().sum::<f64>(), 60.0);
    // Written rows in blue, targets in orange, at one scale.
    let mut drawn = bars(&svg);
    drawn.extend(series(&svg, "#E67800"));
    in_proportion(&drawn, &[kept, target].concat());
    for label in ["written", "target", "[0, 1)", "[2, inf)"] {
        assert!(texts(&svg).iter().any(|t| t == label), "{label}");
    }
}

#[test]
fn a_bench_peers_table_draws_its_newest_run_as_our_speed_over_tdokus() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("peers.csv");
    let header = "date_utc,machine,dataset,first_ours_per_s,first_tdoku_per_s,\
                  unique_ours_per_s,unique_tdoku_per_s";
    // An older run, then the newest: only the newest is drawn.
    let rows = [
        "2026-01-01,m,old.txt,10,10,10,10",
        "2026-02-01,m,a.txt,300,100,200,100",
        "2026-02-01,m,b.csv (puzzle column),50,100,150,100",
    ];
    fs::write(&table, format!("{header}\n{}\n", rows.join("\n"))).unwrap();
    plot(&[&table], dir.path());
    let svg = fs::read_to_string(dir.path().join("peers-peers.svg")).unwrap();
    let mut drawn = bars(&svg);
    drawn.extend(series(&svg, "#E67800"));
    in_proportion(&drawn, &[3.0, 0.5, 2.0, 1.5]);
    let labels = texts(&svg);
    assert!(labels.iter().any(|t| t == "a") && labels.iter().any(|t| t == "b"));
    assert!(!labels.iter().any(|t| t == "old"), "{labels:?}");
}

#[test]
fn bench_plot_draws_what_report_plot_draws_from_its_export() {
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("b.json");
    let (direct, later) = (dir.path().join("direct"), dir.path().join("later"));
    fs::create_dir(&direct).unwrap();
    fs::create_dir(&later).unwrap();
    bin()
        .args([
            "bench",
            "-q",
            &data("sample.txt"),
            "-j",
            "1",
            "--min-time",
            "0",
        ])
        .arg("--export-json")
        .arg(&export)
        .arg("--plot")
        .arg(&direct)
        .assert()
        .success();
    plot(&[&export], &later);
    assert_eq!(
        fs::read_to_string(direct.join("bench-threads.svg")).unwrap(),
        fs::read_to_string(later.join("b-threads.svg")).unwrap()
    );
    // A folder that does not exist is refused before anything is timed.
    let out = bin()
        .args(["bench", "-q", &data("sample.txt"), "--plot"])
        .arg(dir.path().join("missing"))
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("--plot") && err.contains("not a folder"),
        "{err}"
    );
}
