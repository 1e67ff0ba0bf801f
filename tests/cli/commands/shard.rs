//! `--shard K/N` and `report merge`: the union of the N shards of an input is the whole run.
//! For N in 1..=5, each run of one input (with several, joined shards interleave the inputs:
//! README, Sharding), on the committed samples (lines and CSV) and on a file with comments,
//! blank lines, CRLF, a BOM and invalid lines: concatenated solutions equal the whole run's,
//! concatenated stats rows (timing column aside) equal the whole run's, and the merged
//! report's counts equal the whole report's.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{bin, stats_rows};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt");
const SAMPLE_CSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample_kaggle.csv");

/// A lines file that exercises every skip rule, written into `dir`.
fn messy_file(dir: &Path) -> PathBuf {
    let text = fs::read_to_string(SAMPLE).unwrap();
    let mut out = String::from("\u{feff}# a comment first\r\n\r\n");
    for (i, line) in text.lines().take(120).enumerate() {
        out.push_str(line);
        out.push_str(if i % 3 == 0 { "\r\n" } else { "\n" });
        match i % 17 {
            0 => out.push_str("# comment\n"),
            5 => out.push_str("   \n\n"),
            9 => out.push_str("not a puzzle\n"),
            13 => out.push_str(&format!("{}\n", &line[..80])),
            _ => {}
        }
    }
    out.push_str(&"1".repeat(81)); // conflicting givens, and no final newline
    let path = dir.join("messy.txt");
    fs::write(&path, out).unwrap();
    path
}

struct Run {
    out: Vec<u8>,
    stats: Vec<Vec<String>>,
    report: PathBuf,
}

fn solve(dir: &Path, input: &Path, shard: Option<&str>, tag: &str) -> Run {
    let out = dir.join(format!("{tag}.out"));
    let stats = dir.join(format!("{tag}.stats.csv"));
    let report = dir.join(format!("{tag}.json"));
    let mut cmd = bin();
    cmd.args(["solve", "-q", "-j", "2"]).arg(input);
    if let Some(s) = shard {
        cmd.args(["--shard", s]);
    }
    let code = cmd
        .arg("-o")
        .arg(&out)
        .arg("--stats")
        .arg(&stats)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap()
        .status
        .code();
    assert!(matches!(code, Some(0 | 1)), "{tag}: exit {code:?}");
    let stats = stats_rows(&fs::read_to_string(&stats).unwrap())
        .into_iter()
        .map(|mut r| {
            r.remove(6); // solve_ns: timing differs between runs
            r
        })
        .collect();
    Run {
        out: fs::read(&out).unwrap(),
        stats,
        report,
    }
}

/// Runs `report merge OUT REPORTS...`.
fn merge(out: &Path, reports: &[PathBuf]) -> assert_cmd::assert::Assert {
    bin()
        .args(["report", "merge"])
        .arg(out)
        .args(reports)
        .assert()
}

/// Asserts a refused merge (exit 2, nothing on stdout, one line on stderr); its stderr.
fn refusal(a: assert_cmd::assert::Assert) -> String {
    let a = a.code(2).stdout("");
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The solutions file without its first line (a CSV header every shard repeats).
fn body(out: &[u8]) -> &[u8] {
    let nl = out
        .iter()
        .position(|&b| b == b'\n')
        .map_or(out.len(), |i| i + 1);
    &out[nl..]
}

fn check_union(input: &Path, csv: bool) {
    let dir = tempfile::tempdir().unwrap();
    let whole = solve(dir.path(), input, None, "whole");
    let whole_report = json(&whole.report);
    for n in 1..=5u32 {
        let mut out = Vec::new();
        let mut stats = Vec::new();
        let mut reports = Vec::new();
        for k in 1..=n {
            let run = solve(
                dir.path(),
                input,
                Some(&format!("{k}/{n}")),
                &format!("s{k}of{n}"),
            );
            if csv && k > 1 {
                out.extend_from_slice(body(&run.out));
            } else {
                out.extend_from_slice(&run.out);
            }
            stats.extend(run.stats);
            reports.push(run.report);
        }
        let name = input.display();
        assert_eq!(out, whole.out, "{name}: solutions of {n} shards");
        assert_eq!(stats, whole.stats, "{name}: stats rows of {n} shards");
        let merged = dir.path().join(format!("merged{n}.json"));
        merge(&merged, &reports).code(0);
        let m = json(&merged);
        for key in ["records", "status", "input_bytes", "solution_limit"] {
            assert_eq!(
                m[key], whole_report[key],
                "{name}: merged {key} of {n} shards"
            );
        }
        for key in ["searched", "guesses", "no_guess"] {
            assert_eq!(
                m["tally"][key], whole_report["tally"][key],
                "{name}: tally.{key}"
            );
        }
        assert_eq!(
            m["inputs"][0]["records"],
            whole_report["inputs"][0]["records"]
        );
        assert_eq!(m["shards"].as_array().unwrap().len(), n as usize);
        let walls: Vec<f64> = reports
            .iter()
            .map(|r| json(r)["wall_ms"].as_f64().unwrap())
            .collect();
        let max = walls.iter().copied().fold(0.0, f64::max);
        assert_eq!(m["wall_ms"].as_f64().unwrap(), max);
        let l = &m["latency"];
        let p = |k: &str| l[k].as_f64().unwrap();
        assert!(
            p("p50_us") <= p("p90_us") && p("p90_us") <= p("p99_us") && p("p99_us") <= p("max_us")
        );
    }
}

#[test]
fn shards_of_the_lines_sample_make_the_whole_run() {
    check_union(Path::new(SAMPLE), false);
}

#[test]
fn shards_of_the_csv_sample_make_the_whole_run() {
    check_union(Path::new(SAMPLE_CSV), true);
}

#[test]
fn shards_of_a_file_with_comments_blanks_and_invalid_lines_make_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let messy = messy_file(dir.path());
    check_union(&messy, false);
}

#[test]
fn shards_of_a_crlf_csv_with_bom_comments_and_bad_rows_make_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(SAMPLE_CSV).unwrap();
    let mut out = String::from("\u{feff}# made for the shard test\r\n");
    for (i, line) in text.lines().take(200).enumerate() {
        out.push_str(line);
        out.push_str("\r\n");
        match i % 23 {
            4 => out.push_str("\r\n"),
            7 => out.push_str("# a comment row\r\n"),
            11 => out.push_str("only-one-field\r\n"),
            // A line of blanks is skipped as an empty one is.
            15 => out.push_str(" \t \r\n"),
            _ => {}
        }
    }
    let path = dir.path().join("crlf.csv");
    fs::write(&path, out).unwrap();
    check_union(&path, true);
}

/// A CSV whose rows end in a lone CR (classic Mac OS) after a header ended by LF, all of
/// them or some (a mix with LF and CRLF): the cuts fell only at `\n`, so a CR-only file
/// was never cut (shard 1 held every row) and a mixed one numbered its shards' records as
/// if each `\n` ended one row, which doubled record numbers across shards. Now the shards
/// are cut between rows, each holds its share, and their union is the whole run.
#[test]
fn shards_of_a_csv_with_lone_cr_line_ends_make_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(SAMPLE_CSV).unwrap();
    let (header, rows) = text.split_once('\n').unwrap();
    let rows: Vec<&str> = rows.lines().take(90).collect();
    let cr_only = format!("{header}\n{}\r", rows.join("\r"));
    let mut mixed = format!("{header}\n");
    for (i, row) in rows.iter().enumerate() {
        mixed.push_str(row);
        mixed.push_str(["\r", "\r", "\n", "\r\n", "\r"][i % 5]);
        if i % 17 == 3 {
            mixed.push('\r'); // a blank line, ended by a lone CR
        }
    }
    for (name, text) in [("cr.csv", cr_only), ("mixed.csv", mixed)] {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        check_union(&path, true);
        for k in 1..=3 {
            let run = solve(dir.path(), &path, Some(&format!("{k}/3")), "third");
            let rows = run.stats.len();
            if name == "cr.csv" {
                // Rows of equal length: the cuts fall exactly between rows 30 and 31, 60 and 61.
                assert_eq!(rows, 30, "{name}: shard {k}/3");
            } else {
                assert!(
                    (25..=35).contains(&rows),
                    "{name}: shard {k}/3 holds {rows} rows"
                );
            }
        }
    }
}

#[test]
fn more_shards_than_lines_leaves_some_empty() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("two.txt");
    let text = fs::read_to_string(SAMPLE).unwrap();
    let two: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    fs::write(&input, &two).unwrap();
    let mut total = 0;
    for k in 1..=7 {
        let run = solve(
            dir.path(),
            &input,
            Some(&format!("{k}/7")),
            &format!("t{k}"),
        );
        total += run.stats.len();
    }
    assert_eq!(total, 2);
    // An empty shard must not say "no puzzles found", as if the file were empty: it names
    // the shard; a whole empty file keeps that note.
    let note = |args: &[&str], input: &Path| {
        let out = bin()
            .arg("solve")
            .args(args)
            .arg(input)
            .arg("-o")
            .arg(dir.path().join("n.out"))
            .output()
            .unwrap();
        String::from_utf8(out.stderr).unwrap()
    };
    let err = note(&["--shard", "7/7"], &input);
    let want = format!(
        "sudoku-batch: note: {}: shard 7/7 holds no records\n",
        input.display()
    );
    assert!(err.starts_with(&want), "{err}");
    assert!(!err.contains("no puzzles found"), "{err}");
    let empty = dir.path().join("empty.txt");
    fs::write(&empty, "").unwrap();
    let err = note(&[], &empty);
    assert!(
        err.contains(&format!(
            "{}: no puzzles found (0 records)",
            empty.display()
        )),
        "{err}"
    );
}

#[test]
fn bad_shard_values_exit_2_with_one_line_naming_the_flag() {
    for bad in ["0/4", "5/4", "1/0", "abc", "1/", "/3", "2/3/4", "-1/2"] {
        let a = bin()
            .args(["solve", "-q", SAMPLE, "--shard", bad])
            .assert()
            .code(2);
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "--shard {bad}: {err}");
        assert!(err.contains("--shard"), "--shard {bad}: {err}");
        assert!(a.get_output().stdout.is_empty());
    }
}

#[test]
fn merge_of_missing_or_foreign_reports_is_fatal_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("foreign.json");
    fs::write(&foreign, "{\"hello\": 1}").unwrap();
    let out = dir.path().join("m.json");
    for input in [foreign.as_path(), Path::new("/nonexistent/r.json")] {
        bin()
            .args(["report", "merge"])
            .arg(&out)
            .arg(input)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(input.to_str().unwrap()));
    }
    assert!(!out.exists());
}

#[test]
fn merge_refuses_overlapping_reports_and_an_output_that_is_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(SAMPLE);
    let whole = solve(dir.path(), sample, None, "whole").report;
    let s1 = solve(dir.path(), sample, Some("1/2"), "s1").report;
    let s2 = solve(dir.path(), sample, Some("2/2"), "s2").report;
    let t1 = solve(dir.path(), sample, Some("1/3"), "t1").report;
    let csv = solve(dir.path(), Path::new(SAMPLE_CSV), None, "csv").report;
    let out = dir.path().join("m.json");
    // Sets that do not make one run, each refused with its reason.
    let refused: [(&[&PathBuf], &str); 5] = [
        (&[&s1, &s1], "both shard 1/2"),
        (&[&whole, &s2], "is a whole run"),
        (&[&s1, &t1], "share N"),
        (&[&whole, &whole], "both cover"),
        (&[&s1], "shard 2/2 of"),
    ];
    for (set, why) in refused {
        bin()
            .args(["report", "merge"])
            .arg(&out)
            .args(set)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why));
        assert!(!out.exists());
    }
    // Disjoint: two shards of one input, or whole runs of different inputs. Success says
    // in one line what was merged, with the records of the merged report.
    for pair in [[&s1, &s2], [&whole, &csv]] {
        let done = bin()
            .args(["report", "merge"])
            .arg(&out)
            .args(pair)
            .assert()
            .code(0);
        let err = String::from_utf8(done.get_output().stderr.clone()).unwrap();
        let records = json(&out)["records"].as_u64().unwrap();
        let shards = if pair[0] == &s1 {
            " (shards 1/2 to 2/2)"
        } else {
            ""
        };
        let line = format!("merged 2 solve reports{shards}: {records} records -> ");
        assert!(err.starts_with(&format!("sudoku-batch: {line}")), "{err}");
        // The second line says what the headline rate is per second of.
        let m = json(&out);
        let rates = format!(
            "sudoku-batch: {:.0} puzzles/s over the slowest run's wall time, as if side by \
             side; {:.0}/s if one after another",
            m["puzzles_per_s"].as_f64().unwrap(),
            m["records_per_s_wall_sum"].as_f64().unwrap()
        );
        assert_eq!(err.lines().nth(1), Some(rates.as_str()), "{err}");
        assert_eq!(err.lines().count(), 2, "{err}");
    }
    let m = json(&out);
    assert_eq!(
        m["records"],
        json(&whole)["records"].as_u64().unwrap() + json(&csv)["records"].as_u64().unwrap()
    );
    // The output may not replace one of the reports it merges.
    let before = fs::read(&s1).unwrap();
    let err = refusal(merge(&s1, &[s1.clone(), s2.clone()]));
    let want = format!(
        "sudoku-batch: error: {}: the output is one of the reports being merged;",
        s1.display()
    );
    assert!(err.starts_with(&want), "{err}");
    assert_eq!(fs::read(&s1).unwrap(), before);
}

#[test]
fn a_missing_shard_is_refused_by_name_unless_partial_which_the_report_records() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(SAMPLE);
    let s1 = solve(dir.path(), sample, Some("1/3"), "s1").report;
    let s2 = solve(dir.path(), sample, Some("2/3"), "s2").report;
    let out = dir.path().join("m.json");
    let a = bin()
        .args(["report", "merge"])
        .arg(&out)
        .args([&s1, &s2])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("shard 3/3 of") && err.contains("missing"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!out.exists());
    bin()
        .args(["report", "merge", "--partial"])
        .arg(&out)
        .args([&s1, &s2])
        .assert()
        .code(0);
    let m = json(&out);
    assert_eq!(m["partial"], true);
    assert_eq!(m["missing_shards"], serde_json::json!(["3/3"]));
    let sum = json(&s1)["records"].as_u64().unwrap() + json(&s2)["records"].as_u64().unwrap();
    assert_eq!(m["records"], sum);
    // Adding the missing shard to the partial merge: refused, asking for one merge of all.
    let s3 = solve(dir.path(), sample, Some("3/3"), "s3").report;
    let again = dir.path().join("m2.json");
    let err = refusal(merge(&again, &[out.clone(), s3]));
    let want = format!("{} is a partial merge (missing shard 3/3)", out.display());
    assert!(err.contains(&want), "{err}");
    assert!(err.contains("again all together, 3/3 included"), "{err}");
    assert!(!err.contains("whole run"), "{err}");
    assert!(!again.exists());
}

/// A shard stopped by SIGINT or SIGTERM (a Slurm time limit) must not merge into
/// `merged 4 solve reports (shards 1/4 to 4/4)`, `"partial": false`. It is refused like
/// a missing shard, and `--partial` names it in the report and on stderr.
#[test]
fn an_interrupted_shard_is_refused_unless_partial_which_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(SAMPLE);
    let reports: Vec<PathBuf> = ["1/3", "2/3", "3/3"]
        .iter()
        .enumerate()
        .map(|(i, s)| solve(dir.path(), sample, Some(s), &format!("s{}", i + 1)).report)
        .collect();
    // The report of a run stopped by a signal: counts of the finished prefix, flagged.
    let mut cut = json(&reports[1]);
    cut["interrupted"] = serde_json::Value::Bool(true);
    fs::write(&reports[1], serde_json::to_string_pretty(&cut).unwrap()).unwrap();
    let out = dir.path().join("m.json");
    let err = refusal(merge(&out, &reports));
    let want = format!(
        "sudoku-batch: error: {}: shard 2/3 was interrupted after {} records",
        reports[1].display(),
        cut["records"]
    );
    assert!(err.starts_with(&want), "{err}");
    assert!(!out.exists());
    let a = bin()
        .args(["report", "merge", "--partial"])
        .arg(&out)
        .args(&reports)
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains(", partial: shard 2/3 interrupted (counts cover only the finished prefix)"),
        "{err}"
    );
    let m = json(&out);
    assert_eq!(m["partial"], true);
    assert_eq!(m["interrupted_shards"], serde_json::json!(["2/3"]));
    assert_eq!(m["missing_shards"], serde_json::json!([]));
}

/// A shard report edited so that `records` is 5 above its status counts must not merge
/// into "45 records", exit 0. A report whose counts do not add up is refused by name, for
/// solve (records against statuses) and verify (rows against verdicts) alike.
#[test]
fn a_report_whose_counts_do_not_add_up_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(SAMPLE);
    let mut reports: Vec<PathBuf> = ["1/3", "2/3", "3/3"]
        .iter()
        .enumerate()
        .map(|(i, s)| solve(dir.path(), sample, Some(s), &format!("s{}", i + 1)).report)
        .collect();
    let out = dir.path().join("m.json");
    merge(&out, &reports).code(0);
    let mut bad = json(&reports[2]);
    let records = bad["records"].as_u64().unwrap();
    bad["records"] = (records + 5).into();
    let edited = dir.path().join("s3bad.json");
    fs::write(&edited, serde_json::to_string_pretty(&bad).unwrap()).unwrap();
    reports[2] = edited.clone();
    let merged = dir.path().join("bad.json");
    let err = refusal(merge(&merged, &reports));
    let want = format!(
        "{}: its counts do not add up: records is {} but the status counts add up to {records} (",
        edited.display(),
        records + 5
    );
    assert!(err.contains(&want), "{err}");
    assert!(!merged.exists());

    let verify = |shard: &str, tag: &str| -> PathBuf {
        let report = dir.path().join(format!("{tag}.json"));
        bin()
            .args(["verify", "-q", "--shard", shard, "--report"])
            .arg(&report)
            .arg(SAMPLE)
            .assert()
            .code(0);
        report
    };
    let (v1, v2) = (verify("1/2", "v1"), verify("2/2", "v2"));
    let mut bad = json(&v2);
    let ok = bad["verdicts"]["ok"].as_u64().unwrap();
    bad["verdicts"]["ok"] = (ok - 1).into();
    fs::write(&v2, serde_json::to_string_pretty(&bad).unwrap()).unwrap();
    let err = refusal(merge(&dir.path().join("vm.json"), &[v1, v2.clone()]));
    let rows = bad["rows"].as_u64().unwrap();
    let want = format!(
        "{}: its counts do not add up: rows is {rows} but the verdicts add up to {} (ok {}",
        v2.display(),
        rows - 1,
        ok - 1
    );
    assert!(err.contains(&want), "{err}");
}

/// `report merge` of verify reports counts in verify's own word, rows, as verify's summary
/// does (it said "records"): the line names the merged report's `rows`, which equal a whole
/// run's.
#[test]
fn merge_of_verify_reports_says_rows() {
    let dir = tempfile::tempdir().unwrap();
    let verify = |shard: Option<&str>, tag: &str| -> PathBuf {
        let report = dir.path().join(format!("{tag}.json"));
        let mut cmd = bin();
        cmd.args(["verify", "-q", "--report"])
            .arg(&report)
            .arg(SAMPLE);
        if let Some(s) = shard {
            cmd.args(["--shard", s]);
        }
        cmd.assert().code(0);
        report
    };
    let whole_report = json(&verify(None, "whole"));
    assert_eq!(whole_report["duplicates_within"], "the run");
    assert_eq!(whole_report["rate_basis"], "wall_ms of the run");
    assert_eq!(
        whole_report["records_per_s_wall_sum"],
        whole_report["rows_per_s"]
    );
    let whole = whole_report["rows"].as_u64().unwrap();
    assert_eq!(
        whole,
        common::data_lines(&fs::read_to_string(SAMPLE).unwrap()).len() as u64
    );
    let shards = [verify(Some("1/2"), "v1"), verify(Some("2/2"), "v2")];
    let merged = dir.path().join("vm.json");
    let done = merge(&merged, &shards).code(0);
    let m = json(&merged);
    assert_eq!(m["rows"], whole);
    // The JSON says repeats were searched per shard, and what the rate is of.
    assert_eq!(json(&shards[0])["duplicates_within"], "the shard");
    assert_eq!(m["duplicates_within"], "each shard");
    assert_eq!(m["rate_basis"], "wall_ms of the slowest merged run");
    // Within a part in 1e9: serde_json's float parsing may miss the last bit.
    let rate_of = |rate: &str, wall: &str| {
        let want = whole as f64 / (m[wall].as_f64().unwrap() / 1000.0);
        let got = m[rate].as_f64().unwrap();
        assert!(
            (got - want).abs() <= want * 1e-9,
            "{rate}: {got} against {want}"
        );
    };
    rate_of("rows_per_s", "wall_ms");
    rate_of("records_per_s_wall_sum", "wall_ms_sum");
    assert!(m["wall_ms_sum"].as_f64() > m["wall_ms"].as_f64());
    let err = String::from_utf8(done.get_output().stderr.clone()).unwrap();
    let want = format!(
        "sudoku-batch: merged 2 verify reports (shards 1/2 to 2/2): {whole} rows (repeats \
         searched within each shard only) -> {}\n\
         sudoku-batch: {:.0} rows/s over the slowest run's wall time, as if side by side; \
         {:.0}/s if one after another\n",
        merged.display(),
        m["rows_per_s"].as_f64().unwrap(),
        m["records_per_s_wall_sum"].as_f64().unwrap()
    );
    assert_eq!(err, want);
}

/// Case R2-04: verify reports carry `shard` and merge like solve reports (40 rows, 40 ok);
/// solve and verify reports never merge together.
#[test]
fn verify_shard_reports_merge_to_the_whole_file() {
    let Some(cases) = common::shared("cases/inputs") else {
        return;
    };
    let input = cases.join("r2_04_shard_merge_9m.csv");
    let dir = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    for k in 1..=2 {
        let report = dir.path().join(format!("v{k}.json"));
        bin()
            .args([
                "verify",
                "-q",
                "-j",
                "2",
                "--shard",
                &format!("{k}/2"),
                "--report",
            ])
            .arg(&report)
            .arg(&input)
            .assert()
            .code(0);
        assert_eq!(json(&report)["shard"], format!("{k}/2"));
        reports.push(report);
    }
    let merged = dir.path().join("vm.json");
    merge(&merged, &reports).code(0);
    let m = json(&merged);
    assert_eq!(m["command"], "verify");
    assert_eq!(m["rows"], 40);
    assert_eq!(m["verdicts"]["ok"], 40);
    assert_eq!(m["rejected"], 0);
    assert_eq!(m["inputs"][0]["records"], 40);
    assert_eq!(m["partial"], false);
    let solved = solve(dir.path(), &input, Some("1/2"), "s").report;
    bin()
        .args(["report", "merge", "--partial"])
        .arg(dir.path().join("mixed.json"))
        .args([&reports[1], &solved])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("merge reports of one command"));
}

/// `--shard auto` reads K/N from a Slurm array or a Kubernetes indexed Job, and is a
/// one-line error (exit 2) outside both.
#[test]
fn shard_auto_takes_the_task_from_the_scheduler() {
    const VARS: [&str; 5] = [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_STEP",
        "JOB_COMPLETION_INDEX",
    ];
    let dir = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &str)], extra: &[&str]| {
        let report = dir.path().join("auto.json");
        let mut cmd = bin();
        for v in VARS {
            cmd.env_remove(v);
        }
        let a = cmd
            .envs(env.iter().copied())
            .args(["solve", "-q", SAMPLE, "-o", "/dev/null", "--shard", "auto"])
            .args(extra)
            .arg("--report")
            .arg(&report)
            .assert();
        let code = a.get_output().status.code();
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        let shard = fs::read_to_string(&report)
            .ok()
            .map(|t| serde_json::from_str::<serde_json::Value>(&t).unwrap()["shard"].clone());
        let _ = fs::remove_file(&report);
        (code, shard, err)
    };
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "4"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "5"),
    ];
    let (code, shard, _) = run(&slurm, &[]);
    assert_eq!((code, shard), (Some(0), Some("4/5".into())));
    let (code, shard, _) = run(&[("JOB_COMPLETION_INDEX", "2")], &["--shard-count", "3"]);
    assert_eq!((code, shard), (Some(0), Some("3/3".into())));
    let (code, _, err) = run(&[("JOB_COMPLETION_INDEX", "2")], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--shard-count"), "{err}");
    // An index beyond the count is not blamed on "an array given as a list with gaps" (a
    // Slurm notion); the count is what is short.
    let (code, shard, err) = run(&[("JOB_COMPLETION_INDEX", "8")], &["--shard-count", "8"]);
    assert_eq!((code, shard), (Some(2), None));
    assert_eq!(
        err.trim_end(),
        "sudoku-batch: error: --shard auto: JOB_COMPLETION_INDEX=8 needs --shard-count of at \
         least 9 (the Job's completions), not 8"
    );
    let (code, shard, err) = run(&[], &[]);
    assert_eq!((code, shard), (Some(2), None));
    assert!(
        err.contains("SLURM_ARRAY_TASK_ID") && err.lines().count() == 1,
        "{err}"
    );
}

/// A verify shard run with `--puzzle-column solutions` checks the solution grids as
/// puzzles and reads no stored solution; its merge with a shard that did must not claim
/// every stored solution checked. Refused, naming both reports and the values; the
/// reports carry the build's commit, and shards read alike still merge.
#[test]
fn verify_shards_that_read_other_columns_are_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let verify = |shard: &str, extra: &[&str], tag: &str| -> PathBuf {
        let report = dir.path().join(format!("{tag}.json"));
        bin()
            .args(["verify", "-q", "--shard", shard, "--report"])
            .arg(&report)
            .arg(SAMPLE_CSV)
            .args(extra)
            .assert()
            .code(predicates::ord::le(1));
        report
    };
    let a = verify("1/2", &[], "a");
    let b = verify("2/2", &["--puzzle-column", "solutions"], "b");
    let b_json = json(&b);
    assert_eq!(b_json["inputs"][0]["puzzle_source"], "solutions");
    assert_eq!(
        b_json["inputs"][0]["solution_source"],
        serde_json::Value::Null
    );
    assert_eq!(json(&a)["inputs"][0]["solution_source"], "solutions");
    let commit = b_json["commit"].as_str().unwrap();
    assert!(!commit.is_empty(), "{b_json}");
    let out = dir.path().join("m.json");
    let err = refusal(merge(&out, &[a.clone(), b.clone()]));
    let want = format!(
        "{} and {} differ in the puzzle source of {SAMPLE_CSV}: quizzes against solutions;",
        a.display(),
        b.display()
    );
    assert!(err.contains(&want), "{err}");
    assert!(!out.exists());
    // What is compared is the column read, not the flag: column 2 is `solutions`.
    let c = verify("2/2", &["--solution-column", "2"], "c");
    merge(&out, &[a.clone(), c]).code(0);
    // Shards read alike merge, and the merge keeps their commit.
    let d = verify("2/2", &[], "d");
    merge(&out, &[a, d]).code(0);
    assert_eq!(json(&out)["commit"], commit);
    assert_eq!(json(&out)["solution_source"], "solutions");
}

/// An unclosed quote, in the puzzle field or the solution field, makes its row
/// invalid, and the rows it would swallow are read as rows: shards cut anywhere (the quoted
/// row first or last of a shard) make the whole run, from a map and from a stream.
#[test]
fn shards_of_a_csv_with_unclosed_quotes_make_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(SAMPLE_CSV).unwrap();
    let mut out = String::new();
    let quoted = [3, 9, 10, 17, 30, 40];
    for (i, line) in text.lines().take(41).enumerate() {
        let line = match i {
            3 | 10 | 30 => format!("\"{line}"),
            9 | 17 | 40 => line.replacen(',', ",\"", 1),
            _ => line.to_string(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    let path = dir.path().join("quotes.csv");
    fs::write(&path, out).unwrap();
    check_union(&path, true);
    let whole = solve(dir.path(), &path, None, "quotes");
    assert_eq!(whole.stats.len(), 40, "no row is lost");
    for (i, row) in whole.stats.iter().enumerate() {
        // Row `i` is on line `i + 2`. The last quote is never closed: its row is invalid too.
        let bad = quoted.contains(&(i + 1));
        assert_eq!(row[1], (i + 2).to_string());
        assert_eq!(row[2], if bad { "invalid" } else { "solved" }, "{row:?}");
        if bad {
            assert!(
                row[6].contains("opens a quote") && row[6].contains("an unclosed quote"),
                "{row:?}"
            );
        }
    }
    let stream = bin()
        .args(["solve", "-q", "--no-mmap", "-j", "2", "-o", "-"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(stream.stdout, whole.out, "a stream reads it as a map does");
}

/// A report whose latency histogram was cut short is refused in words, not with Rust debug
/// text (`IoError(Error { kind: UnexpectedEof, .. })`).
#[test]
fn a_damaged_latency_histogram_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let a = solve(dir.path(), Path::new(SAMPLE), Some("1/2"), "a").report;
    let b = solve(dir.path(), Path::new(SAMPLE), Some("2/2"), "b").report;
    let mut damaged = json(&b);
    let hist = damaged["tally"]["hist_v2_base64"]
        .as_str()
        .unwrap()
        .to_string();
    // Whole base64 groups, so what is left decodes: the histogram itself is short.
    damaged["tally"]["hist_v2_base64"] = hist[..hist.len() / 8 * 4].into();
    fs::write(&b, damaged.to_string()).unwrap();
    let err = refusal(merge(&dir.path().join("m.json"), &[a, b.clone()]));
    assert_eq!(
        err,
        format!(
            "sudoku-batch: error: {}: not a sudoku-batch solve --report: latency histogram: \
             truncated or damaged (failed to fill whole buffer)\n",
            b.display()
        )
    );
}

/// Shards cut at physical line starts would split a quoted note over three lines into
/// rows of one field, and number the records after it wrongly. A cut falls only
/// outside quotes: for 3 and 13 shards, from a map and from a stream, the joined solutions
/// and stats are the whole run's, and the merged verify reports hold 200 ok rows.
#[test]
fn shards_never_cut_a_quoted_field_over_several_lines() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(SAMPLE_CSV).unwrap();
    let mut csv = String::from("puzzle,solution,note\n");
    for (i, line) in text.lines().skip(1).take(200).enumerate() {
        let note = if i % 10 == 9 {
            "\"multi\nline\nnote\""
        } else {
            "plain"
        };
        csv.push_str(&format!("{line},{note}\n"));
    }
    let path = dir.path().join("mq.csv");
    fs::write(&path, csv).unwrap();
    let whole = solve(dir.path(), &path, None, "whole");
    assert_eq!(whole.stats.len(), 200);
    let lines: Vec<String> = whole.stats.iter().map(|r| r[1].clone()).collect();
    assert_eq!(
        lines[10], "14",
        "row 11 is on line 14, after one note over three lines"
    );
    for mmap in [true, false] {
        for n in [3u32, 13] {
            let (mut out, mut stats, mut reports) = (Vec::new(), Vec::new(), Vec::new());
            for k in 1..=n {
                let tag = format!("s{k}of{n}{mmap}");
                let run = if mmap {
                    solve(dir.path(), &path, Some(&format!("{k}/{n}")), &tag)
                } else {
                    let o = dir.path().join(format!("{tag}.out"));
                    let st = dir.path().join(format!("{tag}.stats.csv"));
                    bin()
                        .args(["solve", "-q", "--no-mmap", "--shard", &format!("{k}/{n}")])
                        .arg(&path)
                        .arg("-o")
                        .arg(&o)
                        .arg("--stats")
                        .arg(&st)
                        .assert()
                        .code(0);
                    let rows = stats_rows(&fs::read_to_string(&st).unwrap());
                    Run {
                        out: fs::read(&o).unwrap(),
                        stats: rows
                            .into_iter()
                            .map(|mut r| {
                                r.remove(6);
                                r
                            })
                            .collect(),
                        report: PathBuf::new(),
                    }
                };
                out.extend_from_slice(if k > 1 { body(&run.out) } else { &run.out });
                stats.extend(run.stats);
                let report = dir.path().join(format!("v{tag}.json"));
                bin()
                    .args(["verify", "-q", "--shard", &format!("{k}/{n}"), "--report"])
                    .arg(&report)
                    .arg(&path)
                    .assert()
                    .code(0);
                reports.push(report);
            }
            assert_eq!(out, whole.out, "solutions of {n} shards, mmap {mmap}");
            assert_eq!(stats, whole.stats, "stats of {n} shards, mmap {mmap}");
            let merged = dir.path().join(format!("vm{n}{mmap}.json"));
            merge(&merged, &reports).code(0);
            let m = json(&merged);
            assert_eq!(
                (m["rows"].as_u64(), m["verdicts"]["ok"].as_u64()),
                (Some(200), Some(200))
            );
        }
    }
}

/// From standard input a report must not say `bytes: 0` beside the content's SHA-256,
/// nor for a `.gz` give the compressed size beside the decompressed content's SHA-256,
/// named as if both were the file's. `file_bytes` is the file as stored
/// (`null` for standard input) and `content_sha256` the content read; a `.gz` and its
/// plain copy are one input, so their shards merge.
#[test]
fn reports_name_the_stored_size_and_the_content_fingerprint() {
    use sha2::{Digest, Sha256};
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let plain = fs::read(SAMPLE).unwrap();
    let digest: String = Sha256::digest(&plain)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let gz = dir.path().join("sample.txt.gz");
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    w.write_all(&plain).unwrap();
    fs::write(&gz, w.finish().unwrap()).unwrap();
    let report = |input: &Path, shard: Option<&str>, tag: &str| -> serde_json::Value {
        let r = dir.path().join(format!("{tag}.json"));
        let mut cmd = bin();
        cmd.args(["solve", "-q", "-o", "-", "--report"])
            .arg(&r)
            .arg(input);
        if let Some(s) = shard {
            cmd.args(["--shard", s]);
        }
        cmd.assert().code(0);
        json(&r)
    };
    let stdin_report = dir.path().join("stdin.json");
    bin()
        .args(["solve", "-q", "-o", "-", "-", "--report"])
        .arg(&stdin_report)
        .write_stdin(plain.clone())
        .assert()
        .code(0);
    let from_stdin = json(&stdin_report);
    assert_eq!(
        from_stdin["inputs"][0]["file_bytes"],
        serde_json::Value::Null
    );
    assert_eq!(from_stdin["inputs"][0]["content_sha256"], digest);
    assert_eq!(from_stdin["input_bytes"], 0);
    let from_gz = report(&gz, None, "gz");
    let gz_len = fs::metadata(&gz).unwrap().len();
    assert_eq!(from_gz["inputs"][0]["file_bytes"], gz_len);
    assert_eq!(from_gz["inputs"][0]["content_sha256"], digest);
    assert_eq!(from_gz["inputs"][0]["codec"], "gzip");
    let from_file = report(Path::new(SAMPLE), Some("1/2"), "p1");
    assert_eq!(from_file["inputs"][0]["file_bytes"], plain.len());
    assert_eq!(from_file["inputs"][0]["content_sha256"], digest);
    // Shard 1 of the plain file and shard 2 of its .gz: one input, cut alike.
    let out = dir.path().join("m.json");
    let shards = [dir.path().join("p1.json"), {
        report(&gz, Some("2/2"), "g2");
        dir.path().join("g2.json")
    }];
    merge(&out, &shards).code(0);
    assert_eq!(json(&out)["records"], from_gz["records"]);
}

/// `solve --first` never looks for a second solution, so neither its
/// summary nor its report says `0 multiple`; the merge of its shards keeps `multiple` null,
/// and so does the merge of a report that says 0 there (written before), by its limit of 1.
#[test]
fn first_solution_reports_do_not_count_multiple() {
    let dir = tempfile::tempdir().unwrap();
    let sample = fs::read_to_string(SAMPLE).unwrap();
    let puzzle = sample.lines().find(|l| !l.starts_with('#')).unwrap();
    // The empty grid has many solutions; --first takes one.
    let input = dir.path().join("in.txt");
    fs::write(&input, format!("{puzzle}\n{}\n{puzzle}\n", ".".repeat(81))).unwrap();
    let mut reports = Vec::new();
    for (k, shard) in ["1/2", "2/2"].into_iter().enumerate() {
        let report = dir.path().join(format!("f{k}.json"));
        let a = bin()
            .args([
                "solve", "--first", "-j", "1", "-o", "-", "--shard", shard, "--report",
            ])
            .arg(&report)
            .arg(&input)
            .assert()
            .code(0);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(
            err.contains("with a solution (uniqueness not checked), 0 unsolvable"),
            "{err}"
        );
        assert!(!err.contains("multiple"), "{err}");
        let j = json(&report);
        assert_eq!(j["solution_limit"], 1);
        assert_eq!(j["status"]["multiple"], serde_json::Value::Null, "{j}");
        reports.push(report);
    }
    let out = dir.path().join("m.json");
    merge(&out, &reports).code(0);
    let m = json(&out);
    assert_eq!(m["status"]["solved"], 3);
    assert_eq!(m["status"]["multiple"], serde_json::Value::Null, "{m}");
    // As a report written before this change said it: `"multiple": 0`.
    let mut old = json(&reports[0]);
    old["status"]["multiple"] = 0.into();
    fs::write(&reports[0], old.to_string()).unwrap();
    merge(&out, &reports).code(0);
    assert_eq!(json(&out)["status"]["multiple"], serde_json::Value::Null);
}
