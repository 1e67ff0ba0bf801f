//! Columns found by content are judged on the first data rows by majority, never on row 1
//! alone: without a header one damaged, short or junk row 1
//! is that row's error and moves no column; a solution column found by its content
//! (`answer_grid`) stays read when one of its first rows is damaged; and a header that names
//! no puzzle column is refused naming the column that holds the puzzles. What the user says
//! (`--puzzle-column`, `--solution-column`) still wins. The headerless cases are built from
//! `../shared/cases/inputs/r2_02_headerless_3m_rows.csv` and skipped, saying so, without it.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{assert_solves, bin, shared};

/// Runs `sudoku-batch args... file`; returns exit code, stdout and stderr.
fn run(args: &[&str], file: &Path) -> (i32, String, String) {
    let out = bin().args(args).arg(file).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
    )
}

/// What `verify --report --rejects` says of one input.
struct Verified {
    code: i32,
    report: serde_json::Value,
    /// The rejects rows: (line, verdict, input).
    rejects: Vec<(u64, String, String)>,
    err: String,
}

fn verify(file: &Path, flags: &[&str]) -> Verified {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let rejects = dir.path().join("rej.csv");
    let mut args = vec![
        "verify",
        "-j",
        "2",
        "--report",
        report.to_str().unwrap(),
        "--rejects",
        rejects.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    let (code, _, err) = run(&args, file);
    let report = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    let mut rdr = csv::Reader::from_path(&rejects).unwrap();
    let rejects = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[2].parse().unwrap(), r[3].to_string(), r[1].to_string())
        })
        .collect();
    Verified {
        code,
        report,
        rejects,
        err,
    }
}

/// The data rows of the R2-02 case (`puzzle,solution,clues,difficulty,difficulty_range`,
/// no header; row 2's stored solution has r1c1 and r1c2 swapped) and its line end.
fn r2_02_rows() -> Option<(Vec<String>, &'static str)> {
    let f = shared("cases/inputs")?.join("r2_02_headerless_3m_rows.csv");
    let text = fs::read_to_string(f).unwrap();
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let rows: Vec<String> = text
        .split(eol)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    assert_eq!(rows.len(), 4, "the R2-02 case holds 4 rows");
    Some((rows, eol))
}

fn write(dir: &Path, name: &str, rows: &[String], eol: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, rows.join(eol) + eol).unwrap();
    path
}

/// Row 1 of R2-02 with its first cell typed `x`.
fn typo(row: &str) -> String {
    format!("x{}", &row[1..])
}

/// With `--no-header`, a typo, a cut or a line of junk in row 1 made
/// the solutions the puzzle column (verify passed, solve "solved" the solution grids), made
/// every good row the wrong width, or stopped the run. Each file here: row 1 is rejected
/// naming `file:1`, the R2-02 row whose stored solution is wrong is `solution-illegal` at its
/// line, every other row ok with its stored solution compared, exit 1.
#[test]
fn headerless_row_one_damage_is_that_rows_error_only() {
    let Some((rows, eol)) = r2_02_rows() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cut: String = rows[0].split(',').take(2).collect::<Vec<_>>().join(",");
    // (name, rows, verdict of line 1, line of the wrong stored solution, rows compared)
    let cases = [
        // nh7: row 1 typed `x`, then the original four rows.
        (
            "nh7.csv",
            [vec![typo(&rows[0])], rows.clone()].concat(),
            3,
            4,
        ),
        // nh6: row 1 typed `x`, then the original rows 2-4.
        (
            "nh6.csv",
            [vec![typo(&rows[0])], rows[1..].to_vec()].concat(),
            2,
            3,
        ),
        // nh2: row 1 cut to two fields.
        ("nh2.csv", [vec![cut], rows[1..].to_vec()].concat(), 2, 3),
        // nh3: a first line of junk, then the four rows.
        (
            "nh3.csv",
            [vec!["garbage line".into()], rows.clone()].concat(),
            3,
            4,
        ),
        (
            "nh3b.csv",
            [vec!["a,b,c,d,e".into()], rows.clone()].concat(),
            3,
            4,
        ),
    ];
    for (name, rows, illegal_line, compared) in cases {
        let f = write(dir.path(), name, &rows, eol);
        let v = verify(&f, &["--no-header"]);
        let rep = &v.report;
        assert_eq!(v.code, 1, "{name}: {}", v.err);
        assert_eq!(rep["inputs"][0]["puzzle_source"], "column 1", "{name}");
        assert_eq!(rep["solution_source"], "column 2", "{name}");
        assert_eq!(rep["rows"], rows.len() as u64, "{name}");
        assert_eq!(rep["verdicts"]["ok"], rows.len() as u64 - 2, "{name}");
        assert_eq!(rep["verdicts"]["puzzle-malformed"], 1, "{name}");
        assert_eq!(rep["verdicts"]["solution-illegal"], 1, "{name}");
        assert_eq!(rep["stored_solutions_compared"], compared, "{name}");
        assert_eq!(rep["stored_solutions_wrong"], 1, "{name}");
        let input = f.to_str().unwrap().to_string();
        assert_eq!(
            v.rejects,
            [
                (1, "puzzle-malformed".to_string(), input.clone()),
                (illegal_line, "solution-illegal".to_string(), input),
            ],
            "{name}"
        );
        assert!(
            v.err.contains(&format!("{name}:1: puzzle-malformed")),
            "{name}: {}",
            v.err
        );
    }
}

/// `solve --no-header` on nh7 solves the puzzles (column 1), not the solution grids: row 1
/// is invalid, every other row solved with the R2-02 solution of its puzzle (rows 1, 3, 4
/// their stored one; row 2's stored one is wrong).
#[test]
fn headerless_solve_reads_the_puzzles_not_the_solutions() {
    let Some((rows, eol)) = r2_02_rows() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "nh7.csv",
        &[vec![typo(&rows[0])], rows.clone()].concat(),
        eol,
    );
    let (code, out, err) = run(&["solve", "-q", "-j", "2", "--no-header"], &f);
    assert_eq!(code, 1, "one invalid row: {err}");
    assert!(
        err.contains("nh7.csv:1: puzzle: r1c1: invalid character 'x' (character 1)"),
        "{err}"
    );
    let out: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(out.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    assert_eq!(out.len(), 5);
    assert_eq!((out[0][5].as_str(), out[0][6].as_str()), ("", "invalid"));
    for (k, row) in out[1..].iter().enumerate() {
        assert_eq!(row[6], "solved", "row {}", k + 2);
        assert_ne!(row[0], row[5], "row {}: solved its own solution", k + 2);
        assert_solves(&row[0], &row[5], &format!("nh7 row {}", k + 2));
        if k != 1 {
            assert_eq!(row[5], row[1], "row {}: the stored solution", k + 2);
        }
    }
}

/// What the user says wins over the majority: `--puzzle-column 2` reads the solutions as
/// puzzles (the user asked), `--solution-column 3` compares that column; and a user who adds
/// `--no-header` to a file with a header loses only the header row, not the stored
/// solutions (2000 solutions had been left unchecked).
#[test]
fn headerless_user_choices_win_and_solutions_are_never_dropped() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((rows, eol)) = r2_02_rows() {
        let f = write(
            dir.path(),
            "nh7.csv",
            &[vec![typo(&rows[0])], rows.clone()].concat(),
            eol,
        );
        let v = verify(&f, &["--no-header", "--puzzle-column", "2"]);
        assert_eq!(v.report["inputs"][0]["puzzle_source"], "column 2");
        assert!(v.report["solution_source"].is_null(), "{}", v.report);
        let v = verify(&f, &["--no-header", "--solution-column", "3"]);
        assert_eq!(v.code, 1, "{}", v.err);
        assert_eq!(v.report["inputs"][0]["puzzle_source"], "column 1");
        assert_eq!(v.report["solution_source"], "column 3");
        assert_eq!(v.report["verdicts"]["solution-malformed"], 4);
    }
    let kaggle = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample_kaggle.csv");
    let v = verify(&kaggle, &["--no-header", "--puzzle-column", "1"]);
    assert_eq!(v.code, 1, "{}", v.err);
    assert_eq!(v.report["solution_source"], "column 2");
    assert_eq!(v.report["verdicts"]["ok"], 2000);
    assert_eq!(v.report["stored_solutions_compared"], 2000);
    assert_eq!(v.report["stored_solutions_wrong"], 0);
    assert_eq!(v.rejects.len(), 1);
    assert_eq!(
        (v.rejects[0].0, v.rejects[0].1.as_str()),
        (1, "puzzle-malformed")
    );
}

/// The first `n` (puzzle, solution) rows of `data/sample_kaggle.csv`.
fn kaggle_rows(n: usize) -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample_kaggle.csv");
    let mut rdr = csv::Reader::from_path(path).unwrap();
    rdr.records()
        .take(n)
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r[1].to_string())
        })
        .collect()
}

/// `answer_grid` (no known solution name) is found by its content when
/// most of its first rows hold grids, so a typo in row 1's answer and a swap in row 3's are
/// reported (exit 1) instead of switching the column off (exit 0).
#[test]
fn a_solution_column_found_by_content_survives_a_damaged_row() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("id,grid,answer_grid\n");
    for (i, (p, s)) in kaggle_rows(5).into_iter().enumerate() {
        let s = match i {
            0 => format!("x{}", &s[1..]),
            2 => format!("{}{}{}", &s[1..2], &s[..1], &s[2..]),
            _ => s,
        };
        text += &format!("{},{p},{s}\n", i + 1);
    }
    let f = dir.path().join("ag3.csv");
    fs::write(&f, text).unwrap();
    let v = verify(&f, &["--puzzle-column", "grid"]);
    assert_eq!(v.code, 1, "{}", v.err);
    assert_eq!(v.report["solution_source"], "answer_grid");
    assert_eq!(v.report["verdicts"]["ok"], 3);
    // Row 1's answer is malformed: not compared, and counted apart from the wrong ones.
    assert_eq!(v.report["stored_solutions_compared"], 4);
    assert_eq!(v.report["stored_solutions_malformed"], 1);
    assert_eq!(v.report["stored_solutions_wrong"], 1);
    let found: Vec<(u64, &str)> = v.rejects.iter().map(|r| (r.0, r.1.as_str())).collect();
    assert_eq!(
        found,
        [(2, "solution-malformed"), (4, "solution-illegal")],
        "{}",
        v.err
    );
}

/// A header naming no puzzle column is refused naming the column that
/// holds the puzzles (`--puzzle-column grid`), and never suggesting `--format lines`, which
/// would read each row's id as its puzzle.
#[test]
fn a_header_without_a_puzzle_name_is_refused_naming_the_puzzle_column() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("id,grid,answer_grid\n");
    for (i, (p, s)) in kaggle_rows(3).into_iter().enumerate() {
        text += &format!("{},{p},{s}\n", i + 1);
    }
    let f = dir.path().join("ag.csv");
    fs::write(&f, text).unwrap();
    let (code, _, err) = run(&["verify"], &f);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("column \"grid\" holds puzzles: choose it with --puzzle-column grid"),
        "{err}"
    );
    assert!(!err.contains("--format lines"), "{err}");
    // A name that would need quoting is given by number.
    let text = fs::read_to_string(&f)
        .unwrap()
        .replacen("grid,", "the grid,", 1);
    fs::write(&f, text).unwrap();
    let (code, _, err) = run(&["solve", "-q"], &f);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("choose it with --puzzle-column 2"), "{err}");
    // No column of puzzles: the general hint, still not --format lines.
    fs::write(&f, "id,name\n1,a\n2,b\n").unwrap();
    let (code, _, err) = run(&["solve", "-q"], &f);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("choose one with --puzzle-column NAME or N"),
        "{err}"
    );
    assert!(!err.contains("--format lines"), "{err}");
}
