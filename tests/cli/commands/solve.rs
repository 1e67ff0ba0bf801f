//! End-to-end tests of `sudoku-batch solve` on the committed sample and on small inputs.

use crate::common;

use common::{assert_solves, bin, cells, data_lines, stats_rows};
use predicates::prelude::*;
use std::fs;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt");
const SAMPLE_CSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample_kaggle.csv");

#[test]
fn sample_lines_all_solved_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let stats = dir.path().join("stats.csv");
    let report = dir.path().join("report.json");
    bin()
        .args(["solve", "-q", SAMPLE, "-o"])
        .arg(&out)
        .arg("--stats")
        .arg(&stats)
        .arg("--report")
        .arg(&report)
        .assert()
        .code(0);
    let puzzles = data_lines(&fs::read_to_string(SAMPLE).unwrap());
    let sols: Vec<String> = fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(sols.len(), puzzles.len());
    for ((line, p), s) in puzzles.iter().zip(&sols) {
        assert_solves(p, s, &format!("sample line {line}"));
    }
    let rows = stats_rows(&fs::read_to_string(&stats).unwrap());
    assert_eq!(rows.len(), puzzles.len());
    for (i, (row, (line, p))) in rows.iter().zip(&puzzles).enumerate() {
        assert_eq!(row[0], i.to_string());
        assert_eq!(row[1], line.to_string());
        assert_eq!(row[2], "solved");
        assert_eq!(row[3], "1");
        let clues = cells(p).iter().filter(|&&d| d != 0).count();
        assert_eq!(row[4], clues.to_string());
        assert!(row[6].parse::<u64>().is_ok());
        assert_eq!(row[7], "");
    }
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["records"], puzzles.len());
    assert_eq!(json["status"]["solved"], puzzles.len());
    assert!(json["latency"]["p50_us"].as_f64().unwrap() > 0.0);
    assert!(
        json["latency"]["max_us"].as_f64().unwrap() >= json["latency"]["p99_us"].as_f64().unwrap()
    );
}

#[test]
fn sample_csv_keeps_columns_and_adds_solution_and_status() {
    let out = bin()
        .args(["solve", "-q", SAMPLE_CSV])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let mut rdr = csv::Reader::from_reader(out.as_slice());
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["quizzes", "solutions", "solution", "status"]
    );
    let mut n = 0;
    for rec in rdr.records() {
        let rec = rec.unwrap();
        assert_solves(&rec[0], &rec[2], "sample csv");
        assert_eq!(
            &rec[1], &rec[2],
            "unique puzzle: our solution is the dataset's"
        );
        assert_eq!(&rec[3], "solved");
        n += 1;
    }
    let expected = fs::read_to_string(SAMPLE_CSV).unwrap().lines().count() - 1;
    assert_eq!(n, expected);
}

/// The stats CSV without its timing column, which is the only one allowed to differ.
fn without_timing(stats: &str) -> Vec<Vec<String>> {
    stats_rows(stats)
        .into_iter()
        .map(|mut r| {
            r.remove(6);
            r
        })
        .collect()
}

#[test]
fn one_thread_and_two_threads_give_identical_output() {
    let dir = tempfile::tempdir().unwrap();
    // Mixed statuses make order mistakes visible.
    let input = dir.path().join("mixed.txt");
    let mut text = fs::read_to_string(SAMPLE).unwrap();
    text.push_str(
        "11...............................................................................\n",
    );
    text.push_str(&".".repeat(81));
    text.push_str("\nnot a puzzle\n");
    fs::write(&input, text.repeat(3)).unwrap();
    let mut outputs = Vec::new();
    for j in ["1", "2"] {
        let out = dir.path().join(format!("out{j}.txt"));
        let stats = dir.path().join(format!("stats{j}.csv"));
        bin()
            .args(["solve", "-q", "-j", j])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .arg("--stats")
            .arg(&stats)
            .assert()
            .code(1);
        outputs.push((
            fs::read(&out).unwrap(),
            without_timing(&fs::read_to_string(&stats).unwrap()),
        ));
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn stdin_is_read_when_no_input_or_dash() {
    let puzzle = fs::read_to_string(SAMPLE)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    for args in [vec!["solve", "-q"], vec!["solve", "-q", "-"]] {
        let out = bin()
            .args(&args)
            .write_stdin(format!("{puzzle}\n"))
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        let s = String::from_utf8(out).unwrap();
        assert_solves(&puzzle, s.trim_end(), "stdin");
    }
}

#[test]
fn exit_codes() {
    // 1: a record is not solved; the empty grid is `multiple`, and says so.
    bin()
        .args(["solve", "-q"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .assert()
        .code(1)
        .stdout("multiple\n");
    // 0 with --first, which gives it a grid.
    bin()
        .args(["solve", "-q", "--first"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .assert()
        .code(0)
        .stdout(predicate::str::is_match("^[1-9]{81}\n$").unwrap());
    // 2: missing input, a directory, bad flags; one line, no panic.
    for args in [
        vec!["solve", "/nonexistent/p.txt"],
        vec!["solve", "/"],
        vec!["solve", "-j", "0", SAMPLE],
        // A typo must not make the OS spawn 99,999 threads.
        vec!["solve", "-j", "99999", SAMPLE],
        vec!["bench", "-j", "1,5000", SAMPLE],
        vec!["solve", "--format", "xml", SAMPLE],
    ] {
        let a = bin().args(&args).assert().code(2);
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    bin()
        .args(["solve", "/nonexistent/p.txt"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("/nonexistent/p.txt")
                .and(predicate::str::contains("No such file")),
        );
    bin()
        .args(["solve", "/"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
    // 0: empty input is a clean 0-record run.
    bin()
        .args(["solve"])
        .write_stdin("")
        .assert()
        .code(0)
        .stdout("")
        .stderr(predicate::str::contains("0 records"));
}

#[test]
fn unwritable_output_is_fatal_and_named() {
    bin()
        .args(["solve", "-q", SAMPLE, "-o", "/nonexistent-dir/out.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent-dir/out.txt"));
}

#[test]
fn first_mode_solves_without_proving_uniqueness() {
    let out = bin()
        .args(["solve", "-q", "--first"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_solves(
        &".".repeat(81),
        String::from_utf8(out).unwrap().trim_end(),
        "--first empty grid",
    );
}

/// `--limit 1` reported a two-solution puzzle as `solved` with one of its
/// solutions, as `--first` does but without saying so. It is refused, naming `--first`;
/// `--limit 2` on the same puzzle says `multiple`.
#[test]
fn limit_one_is_refused_in_favour_of_first() {
    let two = "652483917978162435314.7.628825736149791824563436.1.872269348751547291386183657294";
    for value in ["1", "1000001"] {
        let out = bin()
            .args(["solve", "-q", "--limit", value])
            .write_stdin(format!("{two}\n"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--limit {value}");
        assert!(out.stdout.is_empty(), "--limit {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--limit") && err.contains("--first"), "{err}");
    }
    bin()
        .args(["solve", "-q", "--limit", "2"])
        .write_stdin(format!("{two}\n"))
        .assert()
        .code(1)
        .stdout("multiple\n");
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    fs::copy(SAMPLE, &input).unwrap();
    let hard = dir.path().join("hard.txt");
    fs::hard_link(&input, &hard).unwrap();
    let dotted = dir.path().join(".").join("in.txt");
    for (cmd, flag, out) in [
        ("solve", "-o", &input),
        ("solve", "--stats", &dotted),
        ("verify", "--rejects", &hard),
    ] {
        bin()
            .args([cmd, "-q"])
            .arg(&input)
            .arg(flag)
            .arg(out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("it would be overwritten"));
    }
    assert_eq!(fs::read(&input).unwrap(), fs::read(SAMPLE).unwrap());
}

/// `canon - -o in.txt < in.txt` replaced its own input: standard input redirected from a
/// file is that file, for every command that reads it (`-` given, or no input at all).
#[test]
fn an_output_that_is_standard_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    fs::copy(SAMPLE, &input).unwrap();
    let i = input.to_str().unwrap();
    let cases: [&[&str]; 7] = [
        &["canon", "-q", "-", "-o", i],
        &["canon", "-q", "-o", i],
        &["solve", "-q", "-", "-o", "/dev/null", "--stats", i],
        &["dedup", "-q", "-", "-o", i],
        &["verify", "-q", "--rejects", i],
        &["rate", "-q", "-", "-o", i],
        &["bench", "-q", "-", "--export-json", i],
    ];
    // Redirected, as the shell's `< in.txt` does (assert_cmd's pipe_stdin would pipe it).
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
            .args(args)
            .stdin(fs::File::open(&input).unwrap())
            .output()
            .unwrap()
    };
    for args in cases {
        let o = run(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let needle = format!("{i} is standard input (the file it reads): it would be overwritten");
        assert!(err.contains(&needle), "{args:?}: {err}");
        assert_eq!(fs::read(&input).unwrap(), fs::read(SAMPLE).unwrap());
    }
    // Another file, or standard input from a pipe, is written as asked.
    let other = dir.path().join("forms.txt");
    let o = run(&["canon", "-q", "-", "-o", other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let forms = fs::read_to_string(&other).unwrap();
    assert_eq!(
        forms.lines().count(),
        data_lines(&fs::read_to_string(SAMPLE).unwrap()).len()
    );
    bin()
        .args(["canon", "-q", "-", "-o", i])
        .write_stdin(fs::read(SAMPLE).unwrap())
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&input).unwrap(), forms);
}

#[test]
fn two_outputs_naming_one_new_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let abs = sub.join("b.txt");
    let dotted = sub.join(".").join("b.txt");
    let up = sub.join("..").join("sub").join("b.txt");
    // A dangling symlink to b.txt: writing through it would create b.txt.
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&abs, &link).unwrap();
    for (cmd, a, b, pa, pb) in [
        ("solve", "-o", "--stats", &abs, &dotted),
        ("solve", "--stats", "--report", &abs, &up),
        ("verify", "--rejects", "--report", &dotted, &up),
        ("solve", "-o", "--stats", &link, &abs),
        ("verify", "--rejects", "--report", &up, &link),
    ] {
        // Each output is renamed into place at the end: the second would silently replace
        // the first, so the run is refused before it starts, whatever the spelling.
        bin()
            .args([cmd, "-q", SAMPLE])
            .arg(a)
            .arg(pa)
            .arg(b)
            .arg(pb)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("both write"));
        assert!(!abs.exists(), "{cmd} {a} {b}: nothing written");
    }
}

#[test]
fn an_output_that_is_standard_output_beside_dash_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("all.txt");
    for other in [file.to_str().unwrap(), "/dev/stdout"] {
        // Standard output redirected to `file`: `--stats file` or `/dev/stdout` beside
        // `-o -` would mix the stats into the solutions.
        let out = std::fs::File::create(&file).unwrap();
        let status = std::process::Command::new(bin().get_program())
            .args(["solve", "-q", SAMPLE, "-o", "-", "--stats", other])
            .stdout(out)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(status.status.code(), Some(2), "{other}");
        let err = String::from_utf8(status.stderr).unwrap();
        assert!(err.contains("both write standard output"), "{other}: {err}");
        assert_eq!(fs::read(&file).unwrap(), b"", "{other}: nothing written");
    }
}

#[test]
fn an_output_on_standard_output_or_error_keeps_what_the_file_held() {
    // `--stats /dev/stdout >> log 2>&1` reopened the log with O_TRUNC,
    // wiping what it held, and the summary on stderr then overwrote the start of the
    // output. Written through the shared descriptor, the log keeps its old line, the whole
    // output and the summary.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    let records = data_lines(&fs::read_to_string(SAMPLE).unwrap()).len();
    for (flag, path) in [
        ("--stats", "/dev/stdout"),
        ("--stats", "/dev/stderr"),
        ("--report", "/dev/stdout"),
        ("--report", "/dev/fd/2"),
    ] {
        fs::write(&log, "an old line\n").unwrap();
        let f = fs::OpenOptions::new().append(true).open(&log).unwrap();
        let status = std::process::Command::new(bin().get_program())
            .args(["solve", SAMPLE, "-o", "/dev/null", flag, path])
            .stdout(f.try_clone().unwrap())
            .stderr(f)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0), "{flag} {path}");
        let text = fs::read_to_string(&log).unwrap();
        let (old, rest) = text.split_once('\n').unwrap();
        assert_eq!(old, "an old line", "{flag} {path}: {text:.300}");
        assert!(
            rest.contains(&format!("{records} records")),
            "{flag} {path}: the summary: {text:.300}"
        );
        if flag == "--stats" {
            let csv: String = rest
                .lines()
                .filter(|l| l.starts_with("record,") || l.starts_with(|c: char| c.is_ascii_digit()))
                .map(|l| format!("{l}\n"))
                .collect();
            let rows = stats_rows(&csv);
            assert_eq!(rows.len(), records, "{flag} {path}");
            assert!(rows.iter().all(|r| r[2] == "solved"), "{flag} {path}");
        } else {
            let json = &rest[rest.find('{').unwrap()..=rest.rfind('}').unwrap()];
            let report: serde_json::Value = serde_json::from_str(json)
                .unwrap_or_else(|e| panic!("{flag} {path}: {e}: {text:.600}"));
            assert_eq!(report["records"], records, "{flag} {path}");
        }
    }
}

#[test]
fn inputs_of_different_layouts_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let csv = "data/sample_kaggle.csv";
    // The same rows under another header: the message names both headers.
    let other = dir.path().join("other.csv");
    let text = fs::read_to_string(csv).unwrap();
    let (header, rows) = text.split_once('\n').unwrap();
    assert_eq!(header, "quizzes,solutions");
    fs::write(&other, format!("puzzle,solution\n{rows}")).unwrap();
    let other = other.to_str().unwrap();
    let lines_then_csv = format!(
        "{csv}: its layout is csv, the first input's ({SAMPLE}) is lines; \
         give inputs of different layouts in separate runs"
    );
    let csv_then_lines =
        format!("{SAMPLE}: its layout is lines, the first input's ({csv}) is csv;");
    let headers = format!(
        "{other}: its header is \"puzzle,solution\", the first input's ({csv}) is \"quizzes,solutions\";"
    );
    for (first, second, why) in [
        (SAMPLE, csv, lines_then_csv.as_str()),
        (SAMPLE, missing.to_str().unwrap(), "missing.txt"),
        // A CSV output starts with its header: not even that is written.
        (csv, SAMPLE, &csv_then_lines),
        (csv, other, &headers),
        (csv, missing.to_str().unwrap(), "missing.txt"),
    ] {
        // Standard output would receive the first input's solutions if the second were
        // checked only when its turn came.
        let out = bin()
            .args(["solve", "-q", first, second, "-o", "-"])
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty(), "{second}: nothing solved");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(why) && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn indented_lines_are_read_and_indented_comments_skipped() {
    let sample = fs::read_to_string(SAMPLE).unwrap();
    let puzzles = data_lines(&sample);
    let (p1, p2) = (&puzzles[0].1, &puzzles[1].1);
    let input = format!("   {p1}\n  # an indented comment\n\t{p2}  \n");
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.csv");
    let out = bin()
        .args(["solve", "-q", "--stats"])
        .arg(&stats)
        .write_stdin(input)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let sols: Vec<&str> = out.lines().collect();
    assert_eq!(sols.len(), 2, "two records, the comment skipped");
    assert_solves(p1, sols[0], "indented line 1");
    assert_solves(p2, sols[1], "tab-indented line 3");
    let rows = stats_rows(&fs::read_to_string(&stats).unwrap());
    let lines: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(lines, ["1", "3"]);
}

#[test]
fn a_missing_argument_is_named_on_one_line() {
    for (args, name) in [
        (vec!["bench"], "<INPUT>"),
        (vec!["report", "merge", "out.json"], "<IN.json>"),
    ] {
        let out = bin().args(&args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(name), "{args:?}: {err}");
    }
}

/// A negative number given as a flag's value reaches that flag's own check, on one line,
/// instead of clap's advice to write `-- -1` (which is no use for a flag's value).
#[test]
fn a_negative_value_gets_the_flags_own_message() {
    for (args, says) in [
        (
            vec!["bench", "--min-time", "-1", SAMPLE],
            "--min-time -1: expected a finite",
        ),
        (
            vec!["solve", "--limit", "-3", SAMPLE],
            "'-3' for '--limit <N>'",
        ),
        (
            vec!["solve", "-j", "-1", SAMPLE],
            "'-1' for '--threads <N>'",
        ),
        (
            vec!["rate", "--samples", "-1", SAMPLE],
            "'-1' for '--samples <K>'",
        ),
        (
            vec!["augment", "-n", "-1", SAMPLE],
            "'-1' for '--copies <K>'",
        ),
    ] {
        let out = bin().args(&args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(says) && !err.contains("-- -"),
            "{args:?}: {err}"
        );
    }
}

/// `--seed` takes a whole number from 0 to 2^64 - 1 in every command that has it; anything
/// else (a negative number, a fraction, a number too large) gets that range, not Rust's
/// "invalid digit found in string".
#[test]
fn a_bad_seed_gets_the_flags_own_message() {
    let range = format!("expected a whole number from 0 to {}", u64::MAX);
    for cmd in ["augment", "rate", "bench"] {
        for bad in ["-1", "1.5", "18446744073709551616", "x"] {
            let args = [cmd, "--seed", bad, SAMPLE];
            let out = bin().args(args).assert().code(2).get_output().clone();
            let err = String::from_utf8(out.stderr).unwrap();
            let want = format!(
                "sudoku-batch: error: invalid value '{bad}' for '--seed <S>': {range} (see --help)\n"
            );
            let want = if cmd == "bench" {
                want.replace("<S>", "<SEED>")
            } else {
                want
            };
            assert_eq!(err, want, "{args:?}");
        }
    }
}

/// Issue 11: clap's suggestions reach the user, on the one error line.
#[test]
fn misspelt_commands_and_flags_get_a_suggestion() {
    for (args, hint) in [
        (vec!["slove", SAMPLE], "'solve'"),
        (vec!["solve", "--treads", "2", SAMPLE], "'--threads'"),
        (vec!["verify", "--rejcts", "r.csv", SAMPLE], "'--rejects'"),
    ] {
        let out = bin().args(&args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("similar") && err.contains(hint),
            "{args:?}: {err}"
        );
    }
}

/// `verify -o FILE` got clap's "to pass '-o' as a value, use '-- -o'";
/// it now points to the flags that do write files.
#[test]
fn verify_with_an_output_points_to_rejects_and_report() {
    for flag in ["-o", "--output"] {
        let out = bin()
            .args(["verify", SAMPLE, flag, "x.csv"])
            .assert()
            .code(2)
            .stdout("")
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{flag}: {err}");
        assert!(
            err.contains("verify writes no solutions; use --rejects FILE")
                && err.contains("--report FILE"),
            "{flag}: {err}"
        );
    }
}

/// Issue 11: a file given where the command should be hints at `solve FILE`.
#[test]
fn a_file_as_the_first_argument_hints_at_solve() {
    let out = bin().arg(SAMPLE).assert().code(2).get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("sudoku-batch solve {SAMPLE}")),
        "{err}"
    );
}

/// A count that stopped at `--limit` says it is a lower bound (stats `>=N`,
/// report `solutions_capped`, a summary line), and `invalid` records are told apart:
/// malformed (not a puzzle) and clue conflicts (a puzzle that breaks the rules).
#[test]
fn capped_counts_and_kinds_of_invalid_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (stats, report) = (dir.path().join("s.csv"), dir.path().join("r.json"));
    let empty = ".".repeat(81);
    let clash = format!("11{}", ".".repeat(79));
    let two = "652483917978162435314.7.628825736149791824563436.1.872269348751547291386183657294";
    let input = format!("{empty}\nabc\n{clash}\n{two}\nxyz\n");
    let out = bin()
        .args(["solve", "--limit", "5", "-o", "/dev/null", "--stats"])
        .arg(&stats)
        .arg("--report")
        .arg(&report)
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let rows = stats_rows(&fs::read_to_string(&stats).unwrap());
    let counts: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[2].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(
        counts,
        [
            ("multiple", ">=5"),
            ("invalid", "0"),
            ("invalid", "0"),
            ("multiple", "2"),
            ("invalid", "0")
        ]
    );
    let r: serde_json::Value = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["solutions_capped"], 1);
    assert_eq!(r["status"]["invalid"], 3);
    assert_eq!(r["invalid_kinds"]["malformed"], 2);
    assert_eq!(r["invalid_kinds"]["clue_conflict"], 1);
    assert_eq!(r["invalid_kinds"]["internal_error"], 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sudoku-batch: invalid: 2 malformed, 1 clue conflict\n"),
        "{err}"
    );
    assert!(
        err.contains("1 of the multiple have at least 5 solutions"),
        "{err}"
    );
}

/// The output's extension picks the format (issue 13): a `.csv` name on a lines input gets
/// the table `record,input,line,puzzle,solution,status`, and a `.txt` name on a CSV input gets one
/// solution line per record, not the CSV with its input columns.
#[test]
fn output_extension_picks_the_format_across_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("table.csv");
    bin()
        .args(["solve", "-q", SAMPLE, "-o"])
        .arg(&table)
        .assert()
        .code(0);
    let puzzles = data_lines(&fs::read_to_string(SAMPLE).unwrap());
    let text = fs::read_to_string(&table).unwrap();
    let mut rows = text.lines();
    assert_eq!(
        rows.next(),
        Some("record,input,line,puzzle,solution,status")
    );
    let rows: Vec<Vec<&str>> = rows.map(|r| r.split(',').collect()).collect();
    assert_eq!(rows.len(), puzzles.len());
    for (i, (row, (line, p))) in rows.iter().zip(&puzzles).enumerate() {
        let key = [i.to_string(), SAMPLE.to_string(), line.to_string()];
        assert_eq!(row[..3], key, "record {i}");
        assert_eq!(cells(row[3]), cells(p), "record {i}");
        assert_solves(p, row[4], &format!("sample line {line}"));
        assert_eq!(row[5], "solved");
    }

    let lines = dir.path().join("solutions.txt");
    bin()
        .args(["solve", "-q", SAMPLE_CSV, "-o"])
        .arg(&lines)
        .assert()
        .code(0);
    let csv = fs::read_to_string(SAMPLE_CSV).unwrap();
    let quizzes: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|r| r.split(',').next().unwrap())
        .collect();
    let sols = fs::read_to_string(&lines).unwrap();
    let sols: Vec<&str> = sols.lines().collect();
    assert_eq!(sols.len(), quizzes.len());
    for (i, (q, s)) in quizzes.iter().zip(&sols).enumerate() {
        assert_solves(q, s, &format!("sample_kaggle record {i}"));
    }
}

/// `--help` once disagreed with the manual (docs/GUIDE.md now holds the help itself, kept in
/// step by tests/cli/project/help_docs.rs). Each help says: the extension decides the format of `solve`
/// and `canon` (`.csv` on a lines input gives the table, `.txt` on a CSV input the lines),
/// `rate`'s text is space-separated with no header (it has no grid column), Parquet needs its cargo feature,
/// the ranges of `--limit` and `--samples`, and a solution column found by content.
#[test]
fn help_texts_say_what_the_guide_says() {
    let help = |cmd: &str| {
        let out = bin().args([cmd, "--help"]).assert().success();
        // Joined into one line: clap wraps at 100 columns.
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    for cmd in ["solve", "canon"] {
        let h = help(cmd);
        assert!(
            h.contains(".csv on a lines input gives the table, .txt on a CSV input the lines"),
            "{cmd}: {h}"
        );
    }
    let rate = help("rate");
    assert!(!rate.contains("grid columns"), "{rate}");
    assert!(rate.contains("txt: space-separated, no header"), "{rate}");
    assert!(rate.contains("solved per puzzle, 1 to 100,000"), "{rate}");
    for cmd in ["solve", "verify"] {
        assert!(help(cmd).contains("up to N, 2 to 1,000,000"), "{cmd}");
    }
    assert!(help("augment")
        .contains("parquet: Apache Parquet (only in a build with the cargo feature `parquet`)"));
    for cmd in ["verify", "augment"] {
        assert!(help(cmd).contains("else found by content"), "{cmd}");
    }
    // Every INPUT help said "lines or CSV", though all read JSON Lines
    // and Parquet too; the manual's input tables said the same.
    let inputs = "lines of 81 cells, a CSV dataset, JSON Lines or Parquet";
    for cmd in [
        "solve", "verify", "bench", "canon", "dedup", "augment", "rate",
    ] {
        let h = help(cmd);
        assert!(h.contains(inputs), "{cmd}: {h}");
        assert!(!h.to_lowercase().contains("lines or csv"), "{cmd}: {h}");
    }
    let overlap = help("overlap");
    assert!(overlap.contains("Train inputs (lines, CSV, JSON Lines or Parquet)"));
    assert!(overlap.contains("Test inputs (lines, CSV, JSON Lines or Parquet)"));
    // Overlap's --solution-column was "CSV solution column for
    // --by-solution", though JSON Lines and Parquet take it, by content too, and it is
    // checked without --by-solution.
    let solution = overlap
        .split("--solution-column <NAME> ")
        .nth(1)
        .unwrap_or_default();
    assert!(
        solution.starts_with("Solution column of a CSV, JSON Lines or Parquet input"),
        "{overlap}"
    );
    assert!(
        solution.contains("read only with --by-solution") && solution.contains("must still exist"),
        "{solution}"
    );
    assert!(solution.contains("else found by content"), "{solution}");
}
