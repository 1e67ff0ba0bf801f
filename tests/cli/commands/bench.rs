//! `sudoku-batch bench`: runs on the sample with a tiny `--min-time` and checks the values
//! of every export (counts, speed-up of the baseline, ordered percentiles, no NaN), the
//! provenance block, skipped invalid records and zero-puzzle inputs. No timing assertions:
//! speed lives in `benches/` and `scripts/`.

use crate::common;

use std::fs;
use std::path::Path;

use common::{bin, data_lines};
use sha2::{Digest, Sha256};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt");

fn sha256(path: &Path) -> String {
    Sha256::digest(fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Runs bench with all three exports and returns (stdout, json, csv rows, markdown).
fn bench(
    args: &[&str],
    input: &Path,
) -> (String, serde_json::Value, Vec<csv::StringRecord>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (j, c, m) = (
        dir.path().join("b.json"),
        dir.path().join("b.csv"),
        dir.path().join("b.md"),
    );
    let out = bin()
        .args(["bench", "-q", "--min-time", "0.001", "--warmup", "0"])
        .args(args)
        .arg(input)
        .arg("--export-json")
        .arg(&j)
        .arg("--export-csv")
        .arg(&c)
        .arg("--export-markdown")
        .arg(&m)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json = serde_json::from_str(&fs::read_to_string(&j).unwrap()).unwrap();
    let text = fs::read_to_string(&c).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(&header[..3], ["input", "threads", "puzzles"]);
    let rows = rdr.records().map(Result::unwrap).collect();
    (
        String::from_utf8(out).unwrap(),
        json,
        rows,
        fs::read_to_string(&m).unwrap(),
    )
}

/// Every number in `v`, recursively: a NaN or infinity would have been written as `null`.
fn assert_no_null_numbers(v: &serde_json::Value, path: &str) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                // The load averages are null only where the machine has no /proc/loadavg.
                // Speed-up and efficiency are null only for a row that timed nothing (0 / 0).
                let may_be_null = matches!(k.as_str(), "seed" | "shard")
                    || (k.starts_with("load_average_") && !Path::new("/proc/loadavg").exists())
                    || (matches!(k.as_str(), "speedup" | "efficiency") && m["passes"] == 0);
                if !may_be_null {
                    assert!(!x.is_null(), "{path}.{k} is null (NaN?)");
                }
                assert_no_null_numbers(x, &format!("{path}.{k}"));
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| assert_no_null_numbers(x, path)),
        _ => {}
    }
}

#[test]
fn sample_bench_exports_consistent_values() {
    let sample = Path::new(SAMPLE);
    let n = data_lines(&fs::read_to_string(sample).unwrap()).len();
    let (stdout, json, rows, md) = bench(&["-j", "1,2", "--seed", "7"], sample);
    assert_no_null_numbers(&json, "report");
    let p = &json["provenance"];
    assert_eq!(p["tool"], "sudoku-batch");
    assert_eq!(p["version"], env!("CARGO_PKG_VERSION"));
    for key in ["git_commit", "rustc", "cpu"] {
        assert!(!p[key].as_str().unwrap().is_empty(), "{key}");
    }
    assert!(p["rustc"].as_str().unwrap().starts_with("rustc ") || p["rustc"] == "unknown");
    assert!(p["cores"].as_u64().unwrap() >= 1);
    assert!(p["target_features"].is_array());
    // The propagation copy this CPU runs, as the library reports it, in all three exports.
    let kernel = sudoku_batch::solver::kernel();
    assert!(["avx512", "avx2", "portable"].contains(&kernel));
    assert_eq!(p["solver_kernel"], kernel);
    assert!(md.contains(&format!(
        "- solver propagation: {kernel} (chosen at run time)"
    )));
    assert_eq!(csv_row(&rows, 0)["solver_kernel"], kernel);
    assert_eq!(json["settings"]["seed"], 7);
    assert_eq!(json["settings"]["mode"], "unique");
    let input = &json["inputs"][0];
    assert_eq!(input["content_sha256"], sha256(sample));
    assert_eq!(input["file_bytes"], fs::metadata(sample).unwrap().len());
    assert_eq!(input["records"], n);
    assert_eq!(input["puzzles"], n);
    assert_eq!(input["skipped_invalid"], 0);
    assert_eq!(input["codec"], "none");
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for (r, threads) in results.iter().zip([1, 2]) {
        assert_eq!(r["threads"], threads);
        assert_eq!(r["puzzles"], n);
        assert_eq!(r["solved"], n, "every sample puzzle has a solution");
        assert_eq!(r["multiple"], 0, "every sample puzzle is unique");
        assert_eq!(r["validation_failures"], 0);
        assert!(r["passes"].as_u64().unwrap() >= 1);
        assert!(r["puzzles_per_s"].as_f64().unwrap() > 0.0);
        let l = &r["latency"];
        let q = |k: &str| l[k].as_f64().unwrap();
        assert!(q("p50_us") > 0.0);
        assert!(
            q("p50_us") <= q("p90_us") && q("p90_us") <= q("p99_us") && q("p99_us") <= q("max_us")
        );
        let pct = r["no_guess_pct"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&pct));
        assert_eq!(r["baseline_threads"], 1);
    }
    assert_eq!(results[0]["speedup"], 1.0);
    assert_eq!(results[0]["efficiency"], 1.0);
    // The solver is deterministic: guesses do not depend on the thread count.
    assert_eq!(
        results[0]["guesses_per_puzzle"],
        results[1]["guesses_per_puzzle"]
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][2], n.to_string().as_str());
    let row = csv_row(&rows, 0);
    assert_eq!(
        row["speedup"].parse::<f64>().unwrap(),
        1.0,
        "speedup column"
    );
    assert_eq!(row["input_content_sha256"], sha256(sample));
    assert_eq!(row["seed"], "7");
    assert!(md.starts_with("| input | threads |"));
    assert!(md.contains(&sha256(sample)) && md.contains("isomorph seed 7"));
    assert_eq!(md.lines().filter(|l| l.starts_with("| `")).count(), 2);
    assert!(stdout.lines().next().unwrap().starts_with("input"));
    assert_eq!(stdout.lines().count(), 3);
}

#[test]
fn same_seed_same_puzzles_and_first_mode_does_not_count_multiple() {
    let sample = Path::new(SAMPLE);
    let (_, a, _, _) = bench(&["-j", "1", "--seed", "3", "--first"], sample);
    let (_, b, _, _) = bench(&["-j", "1", "--seed", "3", "--first"], sample);
    assert_eq!(a["settings"]["mode"], "first");
    let g = |v: &serde_json::Value| v["results"][0]["guesses_per_puzzle"].clone();
    assert_eq!(g(&a), g(&b));
    assert_eq!(a["results"][0]["multiple"], serde_json::Value::Null);
}

#[test]
fn invalid_records_are_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.txt");
    let text = fs::read_to_string(SAMPLE).unwrap();
    let mut mixed: String = text.lines().take(30).map(|l| format!("{l}\n")).collect();
    mixed.push_str("# comment\n\nnot a puzzle\n");
    mixed.push_str(&format!("11{}\n", ".".repeat(79)));
    fs::write(&input, mixed).unwrap();
    let (_, json, _, _) = bench(&["-j", "1"], &input);
    assert_eq!(json["inputs"][0]["records"], 32);
    assert_eq!(json["inputs"][0]["puzzles"], 30);
    assert_eq!(json["inputs"][0]["skipped_invalid"], 2);
    assert_eq!(json["results"][0]["solved"], 30);
    // The stderr lines say it too, not only the exports.
    let o = bin()
        .args(["bench", "--min-time", "0", "--warmup", "0", "-j", "1"])
        .arg(&input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("mixed.txt: 2 invalid records skipped (not a puzzle, or two givens clash)"),
        "{err}"
    );
    // The same input gzipped: the report names the codec (issue 10), the counts agree.
    let gz = dir.path().join("mixed.gz");
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut w, &fs::read(&input).unwrap()).unwrap();
    fs::write(&gz, w.finish().unwrap()).unwrap();
    let (_, json, _, _) = bench(&["-j", "1"], &gz);
    assert_eq!(json["inputs"][0]["codec"], "gzip");
    assert_eq!(json["inputs"][0]["puzzles"], 30);
    assert_eq!(json["results"][0]["solved"], 30);
}

#[test]
fn zero_puzzles_give_zero_rates_not_nan_and_no_speed_up() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("empty.txt");
    fs::write(&input, "# nothing here\n").unwrap();
    let (stdout, json, rows, md) = bench(&["-j", "1,2"], &input);
    assert_no_null_numbers(&json, "report");
    for r in json["results"].as_array().unwrap() {
        assert_eq!(r["puzzles"], 0);
        assert_eq!(r["passes"], 0);
        assert_eq!(r["puzzles_per_s"], 0.0);
        assert_eq!(r["us_per_puzzle"], 0.0);
        assert_eq!(r["latency"]["max_us"], 0.0);
        // The 1-thread row said 1.00 and the 2-thread row 0.00, both 0 / 0.
        assert!(r["speedup"].is_null() && r["efficiency"].is_null(), "{r}");
    }
    assert!(rows
        .iter()
        .all(|r| !r.iter().any(|f| f == "NaN" || f == "inf")));
    for i in 0..2 {
        let row = csv_row(&rows, i);
        assert_eq!((&row["speedup"][..], &row["efficiency"][..]), ("", ""));
    }
    let md_rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(md_rows.len(), 2, "{md}");
    assert!(md_rows.iter().all(|l| l.ends_with("| n/a | n/a |")), "{md}");
    let table: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(table.len(), 2, "{stdout}");
    for l in table {
        let cells: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(cells[cells.len() - 2..], ["n/a", "n/a"], "{stdout}");
    }
}

/// Every export says it timed a shard (the CSV and Markdown did not), and the CSV
/// carries the settings the JSON does.
#[test]
fn bench_shard_times_only_its_part() {
    let sample = Path::new(SAMPLE);
    let n = data_lines(&fs::read_to_string(sample).unwrap()).len() as u64;
    let mut total = 0;
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (stdout, json, rows, md) = bench(&["-j", "1", "--shard", &shard], sample);
        let puzzles = json["inputs"][0]["puzzles"].as_u64().unwrap();
        // The terminal table's row read like the whole file's.
        let row = stdout.lines().nth(1).expect("a table row");
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells[..5],
            [
                SAMPLE,
                "(shard",
                &format!("{shard})"),
                "1",
                &puzzles.to_string()
            ],
            "{stdout}"
        );
        total += puzzles;
        assert_eq!(json["settings"]["shard"], shard);
        let row = csv_row(&rows, 0);
        assert_eq!(row["shard"], shard);
        assert_eq!(row["puzzles"], puzzles.to_string());
        assert_eq!(row["warmup_passes"], "0");
        assert_eq!(row["min_time_s"], "0.001");
        assert_eq!(row["baseline_threads"], "1");
        let cell = format!("| `{SAMPLE}` (shard {shard}) | 1 | {puzzles} |");
        assert!(md.contains(&cell), "{md}");
        assert!(
            md.contains(&format!("- shard {shard}: only that part")),
            "{md}"
        );
    }
    assert_eq!(total, n);
    let (stdout, _, rows, md) = bench(&["-j", "1"], sample);
    assert_eq!(csv_row(&rows, 0)["shard"], "");
    assert!(!md.contains("shard"), "{md}");
    assert!(!stdout.contains("shard"), "{stdout}");
}

/// A row run with more threads than cores is marked in every export, not only by the warning
/// on stderr; the provenance holds the load average at the start and end
/// of the run.
#[test]
fn oversubscribed_rows_and_the_load_average_are_in_every_export() {
    let sample = Path::new(SAMPLE);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let over = cores + 1;
    let j = format!("1,{over}");
    let (out, json, rows, md) = bench(&["-j", &j], sample);
    assert_eq!(json["provenance"]["cores"], cores);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["threads"], 1);
    assert_eq!(results[0]["oversubscribed"], false);
    assert_eq!(results[1]["threads"], over);
    assert_eq!(results[1]["oversubscribed"], true);
    assert_eq!(csv_row(&rows, 0)["oversubscribed"], "false");
    assert_eq!(csv_row(&rows, 1)["oversubscribed"], "true");
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with("| `")).collect();
    assert!(table[0].contains(" | 1 | "), "{md}");
    assert!(table[1].contains(&format!(" | {over}* | ")), "{md}");
    let cores_word = if cores == 1 { "core" } else { "cores" };
    let line = format!(
        "- \\* oversubscribed: -j {over} exceeds the {cores} {cores_word} of this machine: \
         those rows measure threads taking turns, not scaling"
    );
    assert!(md.lines().any(|l| l == line), "{line}\n{md}");
    // The terminal table marks and footnotes the row as well.
    let threads: Vec<&str> = out
        .lines()
        .skip(1)
        .take(2)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(threads, ["1".to_string(), format!("{over}*")], "{out}");
    assert_eq!(out.lines().nth(3), Some(&line[3..]), "{out}");
    // Within the cores: no mark, no line.
    let (out, json, rows, md) = bench(&["-j", "1"], sample);
    assert!(!out.contains('*'), "{out}");
    assert_eq!(json["results"][0]["oversubscribed"], false);
    assert_eq!(csv_row(&rows, 0)["oversubscribed"], "false");
    assert!(!md.contains("oversubscribed"), "{md}");
    // The load averages: three numbers each, from /proc/loadavg where there is one.
    let p = &json["provenance"];
    let row = csv_row(&rows, 0);
    let md_line = md
        .lines()
        .find(|l| l.starts_with("- load average (1, 5, 15 min): "))
        .unwrap_or_else(|| panic!("no load average line: {md}"));
    if Path::new("/proc/loadavg").exists() {
        for key in ["load_average_start", "load_average_end"] {
            for m in ["one_min", "five_min", "fifteen_min"] {
                let x = p[key][m]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{key}.{m}: {p}"));
                assert!(x >= 0.0, "{key}.{m}: {x}");
            }
            let fields: Vec<f64> = row[key].split(' ').map(|f| f.parse().unwrap()).collect();
            assert_eq!(fields.len(), 3, "{key}: {:?}", row[key]);
            assert!((fields[0] - p[key]["one_min"].as_f64().unwrap()).abs() < 0.006);
        }
        assert!(
            md_line.ends_with(&format!("{} at the end", row["load_average_end"])),
            "{md_line}"
        );
    } else {
        assert!(p["load_average_start"].is_null() && p["load_average_end"].is_null());
        assert_eq!(row["load_average_start"], "");
        assert_eq!(
            md_line,
            "- load average (1, 5, 15 min): unknown at the start, unknown at the end"
        );
    }
}

/// Row `i` of a CSV export, by column name.
fn csv_row(rows: &[csv::StringRecord], i: usize) -> std::collections::HashMap<String, String> {
    let header = sudoku_batch::export::CSV_HEADER;
    assert_eq!(rows[i].len(), header.len());
    header
        .iter()
        .zip(rows[i].iter())
        .map(|(k, v)| ((*k).to_string(), v.to_string()))
        .collect()
}

/// `-j 1,1` gave two rows of one measurement; and `report merge` named a bench
/// export "not a sudoku-batch --report" although it is one of this tool's files.
#[test]
fn a_thread_count_given_twice_is_refused_and_bench_exports_are_not_merged() {
    let a = bin()
        .args(["bench", "-q", "-j", "2,1,2", SAMPLE])
        .assert()
        .code(2)
        .stdout("");
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(
        err,
        "sudoku-batch: error: --threads: 2 given twice; name each thread count once\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("b.json");
    bin()
        .args(["bench", "-q", "-j", "1", "--min-time", "0", "--warmup", "0"])
        .args([SAMPLE, "--shard", "1/2", "--export-json"])
        .arg(&export)
        .assert()
        .code(0);
    let a = bin()
        .args(["report", "merge"])
        .arg(dir.path().join("m.json"))
        .arg(&export)
        .assert()
        .code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    let want = format!(
        "sudoku-batch: error: {}: a bench export (--export-json), which report merge does \
         not merge:",
        export.display()
    );
    assert!(err.starts_with(&want), "{err}");
}

#[test]
fn bad_bench_flags_exit_2() {
    for args in [
        vec!["bench", "--min-time", "-1", SAMPLE],
        vec!["bench", "--min-time", "nan", SAMPLE],
        vec!["bench", "-j", "0", SAMPLE],
        vec!["bench", "--first", "--unique", SAMPLE],
        vec!["bench", "--shard", "4/3", SAMPLE],
        vec!["bench", "/nonexistent/p.txt"],
        vec!["bench"],
    ] {
        let a = bin().args(&args).assert().code(2);
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// `--min-time inf` was answered "expected seconds >= 0", which it is: the message now says
/// the number must be finite. A finite value too large for a duration is refused, not a panic.
#[test]
fn a_min_time_that_is_not_a_finite_number_of_seconds_is_refused() {
    for value in ["inf", "-inf", "nan", "-1", "-0.5"] {
        let o = bin()
            .args(["bench", "-q", &format!("--min-time={value}"), SAMPLE])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{value}: {err}");
        assert_eq!(err.lines().count(), 1, "{value}: {err}");
        assert!(
            err.contains("expected a finite number of seconds >= 0"),
            "{value}: {err}"
        );
    }
    let o = bin()
        .args(["bench", "-q", "--min-time", "1e30", SAMPLE])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--min-time 1000000000000000000000000000000: too long"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_export_to_stdout_replaces_the_table() {
    let out = bin()
        .args([
            "bench",
            "-q",
            "-j",
            "1",
            "--min-time",
            "0",
            "--warmup",
            "0",
            "--export-json",
            "-",
            SAMPLE,
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["results"][0]["threads"], 1);
}

/// Issue 11: every export path is checked before any timing: a missing folder, an export
/// that is the input, two exports to one file. Each fails with exit 2 and one line before
/// the first progress line (which `bench` prints just before measuring an input).
#[test]
fn bad_export_paths_fail_before_any_timing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("puzzles.txt");
    fs::copy(SAMPLE, &input).unwrap();
    let before = fs::read(&input).unwrap();
    let missing = dir.path().join("no-such-dir").join("b.json");
    let same = dir.path().join("b.out");
    let cases: [(Vec<&std::ffi::OsStr>, &str); 3] = [
        (
            vec!["--export-json".as_ref(), missing.as_os_str()],
            "no-such-dir",
        ),
        (
            vec!["--export-csv".as_ref(), input.as_os_str()],
            "is the input",
        ),
        (
            vec![
                "--export-csv".as_ref(),
                same.as_os_str(),
                "--export-markdown".as_ref(),
                same.as_os_str(),
            ],
            "both write",
        ),
    ];
    for (args, why) in cases {
        let a = bin()
            .args(["bench", "-j", "1", "--min-time", "0", "--warmup", "0"])
            .arg(&input)
            .args(&args)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(!err.contains("puzzles, 1 thread"), "timed first: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    assert_eq!(fs::read(&input).unwrap(), before, "the input is untouched");
    assert!(!same.exists());
}

/// Every input is read before any timing, so a missing or unreadable
/// third input fails the run at once (exit 2, one line naming it), not after the first two
/// were timed.
#[test]
fn a_bad_input_fails_before_any_timing() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("puzzles.txt");
    fs::copy(SAMPLE, &good).unwrap();
    let missing = dir.path().join("typo.txt");
    let folder = dir.path().join("folder");
    fs::create_dir(&folder).unwrap();
    for (bad, why) in [
        (&missing, "No such file or directory"),
        (&folder, "directory"),
    ] {
        let a = bin()
            .args(["bench", "-j", "1", "--min-time", "0", "--warmup", "0"])
            .args([&good, &good, bad])
            .arg("--export-json")
            .arg(dir.path().join("b.json"))
            .assert()
            .code(2);
        let o = a.get_output();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(bad.to_str().unwrap()) && err.contains(why),
            "{err}"
        );
        assert!(o.stdout.is_empty(), "no table");
        assert!(!dir.path().join("b.json").exists());
    }
}

/// `solved` and `multiple` mean what they mean in `solve`: a puzzle with two solutions is
/// `multiple`, not also `solved`.
#[test]
fn status_words_match_solve() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("two.txt");
    let unique = fs::read_to_string(SAMPLE).unwrap();
    let unique = unique.lines().find(|l| !l.starts_with('#')).unwrap();
    fs::write(&input, format!("{unique}\n{}\n", ".".repeat(81))).unwrap();
    let (_, json, _, _) = bench(&["-j", "1"], &input);
    let r = &json["results"][0];
    assert_eq!(
        (r["solved"].as_u64(), r["multiple"].as_u64()),
        (Some(1), Some(1))
    );
    // `--first` looks for no second solution, so `multiple` is
    // not 0 but unknown: `null` in JSON and empty in CSV, as `solve --first` reports it.
    let (_, first, csv, _) = bench(&["-j", "1", "--first"], &input);
    let r = &first["results"][0];
    assert_eq!(
        (r["solved"].as_u64(), &r["multiple"]),
        (Some(2), &serde_json::Value::Null)
    );
    let row = csv_row(&csv, 0);
    assert_eq!(
        (row["solved"].as_str(), row["multiple"].as_str()),
        ("2", "")
    );
    let (_, _, csv, _) = bench(&["-j", "1"], &input);
    let row = csv_row(&csv, 0);
    assert_eq!(
        (row["solved"].as_str(), row["multiple"].as_str()),
        ("1", "1")
    );
}

/// A `target/` copied with `cp -r` kept the first
/// checkout's commit, and uncommitted edits were labelled with HEAD's. The commit in bench's
/// provenance and in a `--report` is this checkout's HEAD, with `-dirty` exactly when a
/// tracked build input differs from it, or `unknown` when git cannot say.
#[test]
fn the_provenance_names_this_checkouts_commit() {
    let root = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("--no-optional-locks")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let inputs = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(inputs);
    let want = match (
        git(&["ls-files", "--error-unmatch", "build.rs"]),
        git(&["rev-parse", "--short", "HEAD"]),
        git(&status),
    ) {
        (Some(_), Some(head), Some(changes)) if changes.is_empty() => head,
        (Some(_), Some(head), Some(_)) => format!("{head}-dirty"),
        _ => "unknown".to_string(),
    };
    let (_, json, rows, md) = bench(&["-j", "1"], Path::new(SAMPLE));
    assert_eq!(json["provenance"]["git_commit"], want.as_str());
    assert_eq!(csv_row(&rows, 0)["git_commit"], want);
    assert!(md.contains(&format!("(commit {want})")), "{md}");
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    bin()
        .args(["verify", "-q", SAMPLE, "--report"])
        .arg(&report)
        .assert()
        .code(0);
    let r: serde_json::Value = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["commit"], want.as_str());
}

/// Ctrl-C while bench timed killed it outright (it had no handler): no
/// message, the exports' temporaries left behind. It now stops within one puzzle's solve
/// time, writes no table and no export (rows cut short measure nothing), says so in one line
/// and exits 130.
#[test]
fn ctrl_c_stops_bench_with_one_line_and_exit_130() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    // Easter Monster, 75 guesses: 20,000 of them take a while per pass.
    const HARD: &str =
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("hard.txt");
    fs::write(&input, format!("{HARD}\n").repeat(20_000)).unwrap();
    let json = dir.path().join("b.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["bench", "-j", "1", "--warmup", "0", "--min-time", "3600"])
        .arg(&input)
        .arg("--export-json")
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Timing has started once its line is out (the handler is installed before loading).
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("20000 puzzles, 1 thread") {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "no timing line");
    }
    common::send_sigint(child.id());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    if child.try_wait().unwrap().is_none() {
        child.kill().unwrap();
        panic!("bench went on timing after Ctrl-C");
    }
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130), "{rest}");
    assert_eq!(
        rest,
        "sudoku-batch bench: interrupted: no table or export written\n"
    );
    assert_eq!(out, "", "no table");
    let left: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["hard.txt"], "no export, no temporary");
}
