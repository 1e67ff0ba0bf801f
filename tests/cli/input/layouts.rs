//! Input layouts (issue 10): what the user says wins over sniffing, tab- and
//! semicolon-separated headers, a CSV-looking file with no puzzle column, ambiguous columns,
//! stored solutions in lines files, and `verify` naming where its solutions came from. The
//! `r2_*` cases of `../shared/cases` are checked when that folder is present.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{assert_solves, bin, shared, P, S};

/// Runs `sudoku-batch args...`; returns exit code, stdout and stderr.
fn run(args: &[&str], files: &[&Path]) -> (i32, String, String) {
    let out = bin().args(args).args(files).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
    )
}

/// `verify -q --report` on `file` with `flags`: exit code, the report, stderr.
fn verify(file: &Path, flags: &[&str]) -> (i32, serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let r = report.to_str().unwrap();
    let mut args = vec!["verify", "-j", "2", "--report", r];
    args.extend_from_slice(flags);
    let (code, _, err) = run(&args, &[file]);
    let json = fs::read_to_string(&report)
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or(serde_json::Value::Null);
    (code, json, err)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

/// `S` with its first two cells swapped: a full grid whose column 1 and 2 repeat digits.
fn swapped() -> String {
    let b = S.as_bytes();
    let mut v = b.to_vec();
    v.swap(0, 1);
    assert_ne!(b[0], b[1]);
    String::from_utf8(v).unwrap()
}

#[test]
fn tab_and_semicolon_headers_are_csv_and_their_solutions_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let bad = swapped();
    for (name, sep) in [("t.tsv", "\t"), ("s.csv", ";"), ("c.csv", ",")] {
        let text = format!("puzzle{sep}solution\n{P}{sep}{S}\n{P}{sep}{bad}\n");
        let f = write(dir.path(), name, &text);
        let (code, rep, err) = verify(&f, &[]);
        assert_eq!(code, 1, "{name}: {err}");
        assert_eq!(rep["inputs"][0]["layout"], "csv", "{name}");
        assert_eq!(rep["verdicts"]["ok"], 1, "{name}");
        assert_eq!(rep["verdicts"]["solution-illegal"], 1, "{name}");
        assert_eq!(rep["solution_source"], "solution", "{name}");
    }
}

#[test]
fn a_csv_looking_header_without_a_puzzle_column_stops_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "g.csv",
        &format!("id,grid,answer_grid\n1,{P},{S}\n"),
    );
    let (code, out, err) = run(&["solve", "-q"], &[&f]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("\"grid\"") && err.contains("--puzzle-column"),
        "{err}"
    );
    // Naming the column reads it, and the solution column is found by its content.
    let (code, rep, err) = verify(&f, &["--puzzle-column", "grid"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 1);
    assert_eq!(rep["solution_source"], "answer_grid");
}

/// A CSV with each line quoted whole (`"quizzes,solutions"`, a layout
/// `../shared/data/SOURCES.md` names) was told to pick a `--puzzle-column`, which then read
/// `puzzle,solution` as one 163-character puzzle. It is told to strip the quotes, and the
/// file without them reads clean.
#[test]
fn a_csv_quoted_a_whole_line_at_a_time_is_told_to_strip_the_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "quoted.csv",
        &format!("\"quizzes,solutions\"\n\"{P},{S}\"\n"),
    );
    let (code, out, err) = run(&["verify"], &[&f]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("each line is one quoted field holding ',' (\"quizzes,solutions\")"),
        "{err}"
    );
    assert!(
        err.contains("remove the quotes first, e.g. sed 's/\"//g'"),
        "{err}"
    );
    assert!(!err.contains("--puzzle-column"), "{err}");
    let text = fs::read_to_string(&f).unwrap().replace('"', "");
    let plain = write(dir.path(), "plain.csv", &text);
    let (code, rep, err) = verify(&plain, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 1);
}

#[test]
fn ambiguous_columns_are_settled_by_their_data_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "a.csv",
        &format!("puzzle,quizzes,solution\nx,{P},{S}\n"),
    );
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 1);
    let f = write(
        dir.path(),
        "b.csv",
        &format!("puzzle,quizzes,solution\n{P},{P},{S}\n"),
    );
    let (code, _, err) = run(&["solve", "-q"], &[&f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("\"puzzle\", \"quizzes\""), "{err}");
}

/// `solve`'s CSV output of a `quizzes,solutions` file has two
/// solution-named columns (`solutions`, `solution`). The commands that read no stored
/// solution take it as it is; those that do (`verify`, `overlap --by-solution`) ask which.
#[test]
fn two_solution_columns_stop_only_the_commands_that_read_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "k.csv",
        &format!("quizzes,solutions\n{P},{S}\n"),
    );
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (k1, k2) = (path("k1.csv"), path("k2.csv"));
    let (code, _, err) = run(&["solve", "-q", "-o", &k1], &[&input]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["solve", "-q", "-o", &k2, &k1], &[]);
    assert_eq!(code, 0, "solve reads its own output: {err}");
    let first = fs::read_to_string(&k1).unwrap();
    let second = fs::read_to_string(&k2).unwrap();
    assert_eq!(
        first.lines().next(),
        Some("quizzes,solutions,solution,status")
    );
    let header = "quizzes,solutions,solution,status,solution_2,status_2";
    assert_eq!(second.lines().next(), Some(header));
    // Round trip: every column of the first output kept, the same solution added again.
    for (a, b) in first.lines().zip(second.lines()).skip(1) {
        let fields: Vec<&str> = b.split(',').collect();
        assert_eq!(fields[..4].join(","), a);
        assert_eq!(fields[4..], [fields[2], "solved"]);
        assert_solves(P, fields[4], "solve of its own output");
    }
    assert_eq!(second.lines().count(), 2);
    let k1 = Path::new(&k1);
    for args in [
        vec!["canon", "-q", "-o", "-"],
        vec!["dedup", "-q", "-o", "-"],
        vec!["rate", "-q", "-o", "-"],
    ] {
        let (code, out, err) = run(&args, &[k1]);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(
            out.lines().count(),
            2,
            "{args:?}: header and the row: {out}"
        );
        assert!(args[0] == "rate" || out.contains(P), "{args:?}: {out}");
    }
    let bench = ["bench", "-q", "-j", "1", "--min-time", "0", "--warmup", "0"];
    let (code, _, err) = run(&bench, &[k1]);
    assert_eq!(code, 0, "{err}");
    let both = ["--train", &k1.to_string_lossy(), "--test"];
    let (code, out, err) = run(&[&["overlap", "-q"][..], &both].concat(), &[k1]);
    assert_eq!(code, 1, "the test row is the train row: {err}");
    assert!(out.ends_with(",exact\n"), "{out}");
    // Reading stored solutions, the choice is the user's.
    let args = [&["overlap", "-q", "--by-solution"][..], &both].concat();
    let (code, _, err) = run(&args, &[k1]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("[\"solutions\", \"solution\"]"), "{err}");
    let (code, rep, err) = verify(k1, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(rep.is_null());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("[\"solutions\", \"solution\"]") && err.contains("--solution-column"),
        "{err}"
    );
    let (code, rep, err) = verify(k1, &["--solution-column", "solution"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 1);
    assert_eq!(rep["solution_source"], "solution");
}

#[test]
fn csv_flags_mean_csv_even_when_the_sniffer_would_say_lines() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "h.txt", &format!("{P},{S},label\n"));
    // Sniffed as lines: the 81-cell field after the puzzle is its stored solution.
    let (code, out, err) = run(&["solve", "-q"], &[&f]);
    assert_eq!((code, out.trim()), (0, S), "{err}");
    // --no-header (or --delimiter) makes it CSV: the output keeps the row and adds columns.
    for flags in [&["--no-header"][..], &["--delimiter", ","]] {
        let mut args = vec!["solve", "-q"];
        args.extend_from_slice(flags);
        let (code, out, err) = run(&args, &[&f]);
        assert_eq!(code, 0, "{flags:?}: {err}");
        assert_eq!(out.trim(), format!("{P},{S},label,{S},solved"), "{flags:?}");
    }
    let (code, _, err) = run(&["solve", "-q", "--format", "lines", "--no-header"], &[&f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--no-header means a CSV input"), "{err}");
}

#[test]
fn lines_files_store_a_solution_only_in_an_81_cell_field() {
    let dir = tempfile::tempdir().unwrap();
    let bad = swapped();
    let f = write(
        dir.path(),
        "l.txt",
        &format!("{P} ED=10.3/10.3/9.8\n{P},{bad},hard\n"),
    );
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(rep["verdicts"]["duplicate"], 0);
    assert_eq!(rep["verdicts"]["solution-illegal"], 1);
    assert_eq!(rep["solution_source"], "81-cell field after the puzzle");
    // The tdoku layout `puzzle:count:solution` was named "field 2"; its solution is field 3,
    // and the source is named without a field number, right for both.
    let f = write(dir.path(), "t.txt", &format!("{P}:1:{S}\n{P}:1:{bad}\n"));
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(rep["verdicts"]["solution-illegal"], 1);
    assert_eq!(rep["solution_source"], "81-cell field after the puzzle");
    assert!(
        err.contains("solution source: 81-cell field after the puzzle"),
        "{err}"
    );
    let f = write(dir.path(), "r.txt", &format!("{P} ED=10.3/10.3/9.8\n"));
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(rep["solution_source"].is_null());
    // The input's own entry named the lines' solution field although no line had
    // one, and `solve` named it too, reading none.
    assert!(rep["inputs"][0]["solution_source"].is_null(), "{rep}");
    let (_, _, err) = run(&["verify"], &[&f]);
    assert!(
        err.contains(
            "no stored solutions (no line has a solution field): only the puzzles were checked"
        ),
        "{err}"
    );
    let (_, with, _) = verify(&dir.path().join("l.txt"), &[]);
    let source = &with["inputs"][0]["solution_source"];
    assert_eq!(source, "81-cell field after the puzzle", "{with}");
    let solved = dir.path().join("solve.json");
    let out = dir.path().join("out.txt");
    let args = ["solve", "-o", out.to_str().unwrap(), "--report"];
    let l = dir.path().join("l.txt"); // its second line carries a solution: solve reads none
    let (code, _, err) = run(&[&args[..], &[solved.to_str().unwrap()]].concat(), &[&l]);
    assert_eq!(code, 0, "{err}");
    let rep: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&solved).unwrap()).unwrap();
    assert!(rep["inputs"][0]["solution_source"].is_null(), "{rep}");
}

/// An empty shard of a file with a solution column said "no stored solutions";
/// it read no rows, and says so.
/// A JSON Lines number is kept as written, not through `f64`: a
/// solution stored as an 81-digit number is compared digit by digit, and the other columns
/// come out of `solve` as they stand in the file.
#[test]
fn jsonl_numbers_keep_every_digit() {
    let dir = tempfile::tempdir().unwrap();
    let bad = swapped();
    let text = format!(
        "{{\"id\":12345678901234567890123,\"puzzle\":\"{P}\",\"solution\":{S},\
         \"a\":1.50,\"b\":1e3,\"c\":-0}}\n{{\"id\":2,\"puzzle\":\"{P}\",\"solution\":{bad}}}\n"
    );
    let f = write(dir.path(), "n.jsonl", &text);
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 1, "{err}");
    assert_eq!(rep["stored_solutions_wrong"], 1, "{err}");
    assert!(err.contains("n.jsonl:2: solution-illegal"), "{err}");
    assert!(!err.contains("scientific"), "{err}");
    let (code, out, err) = run(&["solve", "-q"], &[&f]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows[0], "id,puzzle,solution,a,b,c,solution_2,status");
    assert_eq!(
        rows[1],
        format!("12345678901234567890123,{P},{S},1.50,1e3,-0,{S},solved")
    );
    assert_eq!(rows[2], format!("2,{P},{bad},,,,{S},solved"));
}

#[test]
fn an_empty_shard_says_it_checked_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "one.csv",
        &format!("puzzle,solution\n{P},{S}\n"),
    );
    let (code, rep, err) = verify(&f, &["--shard", "2/2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["rows"], 0, "{rep}");
    assert!(err.contains("no rows read: nothing checked"), "{err}");
    assert!(!err.contains("no stored solutions"), "{err}");
}

fn case(name: &str) -> Option<PathBuf> {
    shared("cases/inputs").map(|d| d.join(name))
}

#[test]
fn r2_rated_list_has_no_stored_solutions() {
    let Some(f) = case("r2_01_serate_rated_list.txt") else {
        return;
    };
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 6);
    assert_eq!(rep["verdicts"]["duplicate"], 1);
    assert_eq!(rep["stored_solutions_wrong"], 0);
    assert!(rep["solution_source"].is_null());
    let (code, out, _) = run(&["solve", "-q"], &[&f]);
    assert_eq!((code, out.lines().count()), (0, 7));
}

#[test]
fn r2_headerless_csv_solutions_are_checked_with_or_without_no_header() {
    let Some(f) = case("r2_02_headerless_3m_rows.csv") else {
        return;
    };
    let lines = "81-cell field after the puzzle";
    for (flags, source) in [(&[][..], lines), (&["--no-header"], "column 2")] {
        let (code, rep, err) = verify(&f, flags);
        assert_eq!(code, 1, "{flags:?}: {err}");
        assert_eq!(rep["verdicts"]["ok"], 3, "{flags:?}");
        assert_eq!(rep["verdicts"]["solution-illegal"], 1, "{flags:?}");
        assert_eq!(rep["examples"]["solution-illegal"][0]["line"], 2);
        assert_eq!(rep["solution_source"], source);
    }
    // --no-header means CSV for solve too: the rows come back with two columns added.
    let (code, out, err) = run(&["solve", "-q", "--no-header"], &[&f]);
    assert_eq!(code, 0, "{err}");
    for line in out.lines() {
        assert!(line.ends_with(",solved"), "{line}");
        assert_eq!(line.split(',').count(), 7, "{line}");
    }
}

#[test]
fn r2_index_column_and_hrm_rows() {
    let Some(f) = case("r2_11_index_column_export.csv") else {
        return;
    };
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 3);
    assert_eq!(rep["examples"]["solution-illegal"][0]["line"], 4);
    let f = case("r2_12_hrm_wrong_length_rows.csv").unwrap();
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(rep["examples"]["puzzle-malformed"][0]["line"], 3);
    assert_eq!(rep["examples"]["solution-malformed"][0]["line"], 4);
    assert_eq!(rep["solution_source"], "answer");
}

#[test]
fn r2_utf16_text_is_decoded() {
    let Some(f) = case("r2_06_excel_unicode_text_utf16.txt") else {
        return;
    };
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["rows"], 3);
    assert_eq!(rep["verdicts"]["ok"], 3);
    assert_eq!(rep["solution_source"], "solutions");
}

#[test]
fn stats_and_rejects_rows_name_their_input() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", &format!("{P}\nbad\n"));
    let b = write(dir.path(), "b, c.txt", &format!("{P}\n"));
    let stats = dir.path().join("s.csv");
    let out = bin()
        .args(["solve", "-q", "-j", "2", "--stats"])
        .arg(&stats)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let mut rdr = csv::Reader::from_path(&stats).unwrap();
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header.join(","),
        "record,input,line,status,solutions,clues,guesses,solve_ns,error"
    );
    let rows: Vec<(String, String, String)> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r[1].to_string(), r[2].to_string())
        })
        .collect();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let want = [("0", a, "1"), ("1", a, "2"), ("2", b, "1")];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(r, p, l)| (r.to_string(), p.to_string(), l.to_string()))
        .collect();
    assert_eq!(rows, want);
    let rejects = dir.path().join("r.csv");
    let out = bin()
        .args(["verify", "-q", "--rejects"])
        .arg(&rejects)
        .arg(a)
        .arg(b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let mut rdr = csv::Reader::from_path(&rejects).unwrap();
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header.join(","),
        "record,input,line,verdict,detail,puzzle,solution"
    );
    let rows: Vec<Vec<String>> = rdr
        .records()
        .map(|r| r.unwrap().iter().take(4).map(String::from).collect())
        .collect();
    assert_eq!(rows[0], ["1", a, "2", "puzzle-malformed"]);
    assert_eq!(rows[1], ["2", b, "1", "duplicate"]);
}

/// The refusal of `--format lines|csv|jsonl` on a Parquet file (found by
/// its magic `PAR1`, with or without the `parquet` feature) is one line with no run of spaces
/// (the literal had been wrapped by hand, its indentation kept inside the message).
#[test]
fn a_text_format_on_a_parquet_file_is_refused_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "t.parquet", "PAR1 not really parquet\n");
    for format in ["lines", "csv", "jsonl"] {
        let (code, _, err) = run(&["solve", "-q", "--format", format], &[&f]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "--format {format}, but the file is Parquet (it starts with PAR1): drop \
                 --format, or give --format parquet"
            )),
            "{err}"
        );
        assert!(!err.contains("  "), "a run of spaces: {err}");
    }
}

/// `--solution-column 2` on a lines file made it CSV, its first puzzle taken for a
/// header; the error says so and how out, instead of only asking for a puzzle column.
#[test]
fn a_puzzle_taken_for_a_header_suggests_no_header() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "rated.txt",
        &format!("{P} ED=10.3/10.3/9.8\n{P} ED=2.0\n"),
    );
    let (code, _, err) = run(&["verify", "--solution-column", "2"], &[&f]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no puzzle column in header"), "{err}");
    assert!(
        err.contains("its first line holds a puzzle, so it is no header: add --no-header"),
        "{err}"
    );
    assert!(
        err.contains("drop --solution-column, which makes it CSV"),
        "{err}"
    );
    // A real header naming no puzzle column keeps the --puzzle-column hint.
    let h = write(dir.path(), "h.csv", &format!("grid,answer\n{P},{S}\n"));
    let (code, _, err) = run(&["verify", "--solution-column", "2"], &[&h]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("choose one with --puzzle-column NAME"),
        "{err}"
    );
    assert!(!err.contains("--no-header"), "{err}");
}

/// A CSV with CR-only line endings had its whole body read as the header line, so
/// every command read 0 rows and exited 0. A header line holding bare CRs is refused by
/// every command that reads CSV, mapped or streamed, naming the file and the `tr` fix;
/// `--no-header` (no header line to skip) still reads every row.
#[test]
fn a_csv_header_with_bare_crs_is_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("quizzes,solutions\r{P},{S}\r{P},{S}\r");
    let f = write(dir.path(), "k_cr.csv", &text);
    let name = f.to_str().unwrap();
    let kept = dir.path().join("kept.csv");
    let kept = kept.to_str().unwrap();
    let runs: [&[&str]; 9] = [
        &["solve", name],
        &["solve", "--no-mmap", name],
        &["verify", name],
        &["dedup", "-o", kept, name],
        &["canon", name],
        &["rate", name],
        &["augment", "-n", "1", name],
        &["bench", name],
        &["overlap", "--train", name, "--test", name],
    ];
    for args in runs {
        let (code, out, err) = run(args, &[]);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(name), "{args:?}: {err}");
        assert!(
            err.contains("header line holds bare CR characters"),
            "{args:?}: {err}"
        );
        assert!(err.contains(r"tr '\r' '\n'"), "{args:?}: {err}");
    }
    // Standard input too, and a header naming no known column.
    let o = bin()
        .args(["solve", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bare CR"));
    let g = write(dir.path(), "g.csv", &format!("id,grid\r1,{P}\r"));
    let (code, _, err) = run(&["solve"], &[&g]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bare CR"), "{err}");
    // Converted, it reads every row.
    let lf = write(dir.path(), "k_lf.csv", &text.replace('\r', "\n"));
    let (code, rep, err) = verify(&lf, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rep["verdicts"]["ok"], 1, "{err}");
    assert_eq!(rep["verdicts"]["duplicate"], 1, "{err}");
}

/// A headerless CSV with CR-only line ends numbered every row line 1: lines were counted
/// from `\n` bytes alone, while the `csv` crate ends a row at a lone `\r`. A lone CR now
/// ends a line in the count too, so a bad row on line 3 is named line 3, mapped or
/// streamed, by `solve` and `verify`, and a CRLF still counts once.
#[test]
fn a_headerless_csv_with_cr_only_line_ends_numbers_its_lines() {
    let dir = tempfile::tempdir().unwrap();
    let bad = format!("x{}", &P[1..]);
    let rows = [
        format!("{P},{S}"),
        format!("{P},{S}"),
        format!("{bad},{S}"),
        format!("{P},{S}"),
    ];
    for (name, eol) in [("cr.csv", "\r"), ("crlf.csv", "\r\n")] {
        let f = write(dir.path(), name, &(rows.join(eol) + eol));
        let path = f.to_str().unwrap();
        let said = format!("{path}:3: puzzle: r1c1: invalid character 'x' (character 1)");
        for flags in [&["--no-header"][..], &["--no-header", "--no-mmap"]] {
            let (code, _, err) = run(&[&["solve", "-q", "-o", "-"][..], flags].concat(), &[&f]);
            assert_eq!(code, 1, "{name} {flags:?}: {err}");
            assert_eq!(
                err.trim_end(),
                format!("sudoku-batch: {said}"),
                "{name} {flags:?}"
            );
            let (code, rep, err) = verify(&f, flags);
            assert_eq!(code, 1, "{name} {flags:?}: {err}");
            assert_eq!(rep["examples"]["puzzle-malformed"][0]["line"], 3, "{err}");
            assert_eq!(rep["examples"]["duplicate"][0]["line"], 2, "{err}");
            assert_eq!(rep["examples"]["duplicate"][1]["line"], 4, "{err}");
        }
    }
}

/// `--no-header` on a CSV whose first line is a header made that line a
/// `puzzle-malformed` row with only `invalid character 'p'`; it now asks whether it is a
/// header. Only the first row gets the hint (a header repeated further down is no reason to
/// drop `--no-header`), mapped or streamed.
#[test]
fn no_header_on_a_header_says_it_may_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "bad.csv",
        &format!(
            "Puzzle,solution\n{P},{S}\npuzzle,solution\nx{},{S}\n",
            &P[1..]
        ),
    );
    let name = f.to_str().unwrap();
    for flags in [&["--no-header"][..], &["--no-header", "--no-mmap"]] {
        let (code, rep, err) = verify(&f, flags);
        assert_eq!(code, 1, "{err}");
        assert_eq!(rep["verdicts"]["ok"], 1, "{err}");
        assert_eq!(rep["verdicts"]["puzzle-malformed"], 3, "{err}");
        // `Puzzle` and `puzzle` are 6 characters, far from 81: the length leads.
        let said = |line: u64, why: &str| {
            let at = if why == "'x'" {
                "r1c1: ".to_string()
            } else {
                "6 characters, expected 81; ".to_string()
            };
            format!("{name}:{line}: puzzle-malformed: puzzle: {at}invalid character {why} (character 1)")
        };
        let lines: Vec<&str> = err
            .lines()
            .filter(|l| l.contains(": puzzle-malformed: "))
            .collect();
        assert_eq!(
            lines,
            [
                format!(
                    "sudoku-batch: {} (a header? drop --no-header)",
                    said(1, "'P'")
                ),
                // A header again, inside the file: named as a repeated header.
                format!(
                    "sudoku-batch: {name}:3: puzzle-malformed: row: a repeated header row \
                     (\"puzzle\" in the puzzle column): CSV files joined with `cat`? not a \
                     puzzle"
                ),
                format!("sudoku-batch: {}", said(4, "'x'")),
            ],
            "{flags:?}"
        );
    }
}

/// In a CSV an empty line was skipped, but a line of spaces was a row of one field
/// (`bl.csv:5: puzzle-malformed: row: 1 field, expected 2`). Lines of blanks (spaces, tabs,
/// a CRLF's `\r`) are skipped too, whether the row before them is plain or quoted (two
/// read paths), from a file or a stream, and the rows after them keep their line numbers.
#[test]
fn blank_csv_lines_are_skipped_like_empty_ones() {
    let dir = tempfile::tempdir().unwrap();
    let short = &P[..80];
    let text =
        format!("puzzle,solution\n{P},{S}\n   \n\t\r\n\"{P}\",{S}\n \t \n\n{short},{S}\n{P},{S}\n");
    let f = write(dir.path(), "bl.csv", &text);
    let want_err = format!("{}:8: puzzle-malformed: puzzle: 80 characters", f.display());
    let (code, rep, err) = verify(&f, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(rep["rows"], 4, "{rep}");
    assert_eq!(rep["verdicts"]["puzzle-malformed"], 1, "{rep}");
    assert!(err.contains(&want_err), "{err}");
    assert_eq!(err.matches("puzzle-malformed:").count(), 2, "{err}");

    let out = bin()
        .args(["verify", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("-:8: puzzle-malformed: puzzle: 80"), "{err}");
    assert!(err.contains("verify: 4 rows:"), "{err}");
    assert!(err.contains("puzzle-malformed: 1 (line 8)"), "{err}");
}
