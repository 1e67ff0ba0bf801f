//! End-to-end tests of `sudoku-batch verify` (issue 3).
//!
//! Each verdict gets a fixture built here from a real row of `data/sample_kaggle.csv`,
//! broken on purpose; the expected detail is worked out from the Sudoku rules and the
//! givens by this file, not copied from the tool's output. The public datasets and cases in
//! `../shared` are checked when that folder is present.

use crate::common;

use std::fs;
use std::path::Path;

use common::{bin, shared};
use predicates::prelude::*;

const SAMPLE_CSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample_kaggle.csv");
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt");

/// `(puzzle, solution)` rows of the committed Kaggle-layout sample (`0` blanks).
fn sample_rows() -> Vec<(String, String)> {
    let text = fs::read_to_string(SAMPLE_CSV).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let (p, s) = l.split_once(',').unwrap();
            (p.to_string(), s.to_string())
        })
        .collect()
}

fn cell(i: usize) -> String {
    format!("r{}c{}", i / 9 + 1, i % 9 + 1)
}

fn at(s: &str, i: usize) -> u8 {
    s.as_bytes()[i] - b'0'
}

fn with(s: &str, i: usize, ch: char) -> String {
    let mut b: Vec<char> = s.chars().collect();
    b[i] = ch;
    b.into_iter().collect()
}

fn same_box(a: usize, b: usize) -> bool {
    a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3
}

fn peers(i: usize) -> impl Iterator<Item = usize> {
    (0..81).filter(move |&j| j != i && (j / 9 == i / 9 || j % 9 == i % 9 || same_box(i, j)))
}

/// The puzzle with one blank set to a digit already given elsewhere in its row (and in no
/// other unit of the blank), and the exact conflict text: `d twice in row r (a, b)`.
fn conflicting(p: &str) -> (String, String) {
    for b in (0..81).filter(|&i| at(p, i) == 0) {
        for g in (b / 9 * 9..b / 9 * 9 + 9).filter(|&g| at(p, g) != 0 && !same_box(g, b)) {
            let d = at(p, g);
            let clash = peers(b).any(|j| j / 9 != b / 9 && at(p, j) == d);
            if !clash {
                let (x, y) = (b.min(g), b.max(g));
                let detail = format!("{d} twice in row {} ({}, {})", b / 9 + 1, cell(x), cell(y));
                return (with(p, b, (b'0' + d) as char), detail);
            }
        }
    }
    panic!("no blank can take a conflicting clue in {p}");
}

/// The unique puzzle `p` with one more given that differs from its solution `s` and
/// conflicts with no given: no grid completes it.
fn unsolvable(p: &str, s: &str) -> String {
    for b in (0..81).filter(|&i| at(p, i) == 0) {
        for d in (1..=9).filter(|&d| d != at(s, b)) {
            if peers(b).all(|j| at(p, j) != d) {
                return with(p, b, (b'0' + d) as char);
            }
        }
    }
    panic!("no blank takes a wrong, non-conflicting digit in {p}");
}

/// A grid with four cells blanked that form a "deadly pattern" (two rows of one band, two
/// columns of different stacks, digits a b / b a): exactly two grids complete it.
fn two_solution_puzzle(rows: &[(String, String)]) -> (String, String) {
    for (_, s) in rows {
        for r1 in 0..9 {
            for r2 in (r1 + 1..9).filter(|r2| r2 / 3 == r1 / 3) {
                for c1 in 0..9 {
                    for c2 in (c1 + 1..9).filter(|c2| c2 / 3 != c1 / 3) {
                        let [a, b, c, d] = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                        if at(s, a) == at(s, d) && at(s, b) == at(s, c) {
                            let mut p = s.clone();
                            for i in [a, b, c, d] {
                                p = with(&p, i, '0');
                            }
                            return (p, s.clone());
                        }
                    }
                }
            }
        }
    }
    panic!("no deadly pattern in the sample");
}

/// The solution with two non-given cells of one row and one box swapped: rows and boxes stay
/// permutations, two columns repeat a digit. Returns it and the exact conflict text.
fn illegal(p: &str, s: &str) -> (String, String) {
    for r in 0..9 {
        for c1 in 0..9 {
            for c2 in (c1 + 1..9).filter(|c2| c2 / 3 == c1 / 3) {
                let (i, j) = (r * 9 + c1, r * 9 + c2);
                if at(p, i) != 0 || at(p, j) != 0 {
                    continue;
                }
                let (a, b) = (at(s, i), at(s, j));
                let swapped = with(&with(s, i, (b'0' + b) as char), j, (b'0' + a) as char);
                let other =
                    |col: usize, d: u8| (0..9).map(|k| k * 9 + col).find(|&k| at(s, k) == d);
                let (bi, aj) = (other(c1, b).unwrap(), other(c2, a).unwrap());
                let detail = format!(
                    "{b} twice in col {} ({}, {}); {a} twice in col {} ({}, {})",
                    c1 + 1,
                    cell(i.min(bi)),
                    cell(i.max(bi)),
                    c2 + 1,
                    cell(j.min(aj)),
                    cell(j.max(aj)),
                );
                return (swapped, detail);
            }
        }
    }
    panic!("no two blanks share a row and a box in {p}");
}

/// `rXcY: clue a, solution b; n of m clues differ` for a stored grid `g` against `p`.
fn contradiction(p: &str, g: &str) -> String {
    let bad: Vec<usize> = (0..81)
        .filter(|&i| at(p, i) != 0 && at(p, i) != at(g, i))
        .collect();
    assert!(!bad.is_empty(), "the other grid keeps every clue");
    let clues = (0..81).filter(|&i| at(p, i) != 0).count();
    let f = bad[0];
    format!(
        "{}: clue {}, solution {}; {} of {clues} clues {}",
        cell(f),
        at(p, f),
        at(g, f),
        bad.len(),
        if bad.len() == 1 { "differs" } else { "differ" }
    )
}

/// Parses a rejects CSV, checking its header.
fn rejects(path: &Path) -> Vec<Vec<String>> {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        ["record", "input", "line", "verdict", "detail", "puzzle", "solution"]
    );
    // Without the input column (checked not empty), so rows compare as `row()`.
    common::rows_without_input(rdr)
}

fn row(line: usize, verdict: &str, detail: &str, puzzle: &str, solution: &str) -> Vec<String> {
    // The fixtures below have the header on line 1 and one record per line.
    [
        &(line - 2).to_string(),
        &line.to_string(),
        verdict,
        detail,
        puzzle,
        solution,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Runs `verify` on `input` with `--rejects` and `--report`; returns the rejects, the report
/// and stderr after checking the exit code.
fn verify(
    dir: &Path,
    input: &Path,
    extra: &[&str],
    code: i32,
) -> (Vec<Vec<String>>, serde_json::Value, String) {
    let rej = dir.join("rejects.csv");
    let rep = dir.join("report.json");
    let out = bin()
        .arg("verify")
        .args(extra)
        .arg(input)
        .arg("--rejects")
        .arg(&rej)
        .arg("--report")
        .arg(&rep)
        .assert()
        .code(code)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let json = serde_json::from_str(&fs::read_to_string(&rep).unwrap()).unwrap();
    (rejects(&rej), json, stderr)
}

#[test]
fn each_verdict_on_a_broken_kaggle_row() {
    let rows = sample_rows();
    let (p, s) = &rows[0];
    let (_, s1) = &rows[1];
    let (conflict, conflict_detail) = conflicting(p);
    let no_sol = unsolvable(p, s);
    let (two, two_sol) = two_solution_puzzle(&rows);
    let zero = format!("{}0", &s[..80]);
    let (swapped, illegal_detail) = illegal(p, s);
    let bad_char = with(p, 40, 'x');
    let short = &p[..80];
    let dotted = p.replace('0', ".");
    let body = [
        (p.as_str(), s.as_str()),
        (&conflict, s),
        (&no_sol, s),
        (&two, &two_sol),
        (p, &zero),
        (p, &swapped),
        (p, s1),
        (&bad_char, s),
        (short, s),
        (&dotted, s),
        (&conflict, s),
    ];
    let mut text = String::from("quizzes,solutions\n");
    for (a, b) in body {
        text.push_str(&format!("{a},{b}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("broken.csv");
    fs::write(&input, text).unwrap();
    let (got, json, stderr) = verify(dir.path(), &input, &[], 1);
    // Lines 6-8 and 11 repeat the puzzle of line 2: each keeps its own verdict and says so.
    let again = "; same puzzle as line 2";
    let clues_plus_one = no_sol.bytes().filter(|&b| b != b'0').count();
    let expected = vec![
        row(3, "clue-conflict", &conflict_detail, &conflict, s),
        row(
            4,
            "no-solution",
            &format!("no grid completes the {clues_plus_one} givens"),
            &no_sol,
            s,
        ),
        row(
            5,
            "multiple-solutions",
            "at least 2 solutions (counted up to --limit 2); the stored solution is one of them",
            &two,
            &two_sol,
        ),
        row(
            6,
            "solution-malformed",
            &format!(
                "solutions: r9c9: blank '0', expected a digit 1-9; the unique solution has {} there{again}",
                at(s, 80)
            ),
            p,
            &zero,
        ),
        row(
            7,
            "solution-illegal",
            &format!(
                "{illegal_detail}; {} of 81 cells differ from the unique solution{again}",
                swapped.bytes().zip(s.bytes()).filter(|(a, b)| a != b).count()
            ),
            p,
            &swapped,
        ),
        row(
            8,
            "solution-contradicts-clue",
            &format!("{}{again}", contradiction(p, s1)),
            p,
            s1,
        ),
        row(
            9,
            "puzzle-malformed",
            "quizzes: r5c5: invalid character 'x' (character 41)",
            &bad_char,
            s,
        ),
        row(
            10,
            "puzzle-malformed",
            "quizzes: 80 characters, expected 81 (all digits: leading zeros lost? a spreadsheet may have stored the puzzle as a number)",
            short,
            s,
        ),
        row(11, "duplicate", "same puzzle as line 2", &dotted, s),
        row(
            12,
            "clue-conflict",
            &format!("{conflict_detail}; same puzzle as line 3"),
            &conflict,
            s,
        ),
    ];
    assert_eq!(got, expected);
    // The report counts the same rows.
    assert_eq!(json["command"], "verify");
    assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(json["rows"], 11);
    assert_eq!(json["rejected"], 9);
    assert_eq!(json["duplicates"], 5);
    // solution-illegal and -contradicts-clue; the non-unique row's stored grid is one of
    // its solutions. The solution-malformed row's was not compared: counted apart.
    assert_eq!(json["stored_solutions_wrong"], 2);
    assert_eq!(json["stored_solutions_malformed"], 1);
    let v = &json["verdicts"];
    for (word, n) in [
        ("ok", 1),
        ("duplicate", 1),
        ("puzzle-malformed", 2),
        ("clue-conflict", 2),
        ("no-solution", 1),
        ("multiple-solutions", 1),
        ("solution-malformed", 1),
        ("solution-illegal", 1),
        ("solution-contradicts-clue", 1),
        ("solution-wrong", 0),
    ] {
        assert_eq!(v[word], n, "{word}");
    }
    assert_eq!(json["examples"]["clue-conflict"][1]["line"], 12);
    let sum = |key: &str, field: Option<&str>| -> u64 {
        match &json[key] {
            serde_json::Value::Object(m) => m.values().map(|n| n.as_u64().unwrap()).sum(),
            serde_json::Value::Array(a) => {
                a.iter().map(|b| b[field.unwrap()].as_u64().unwrap()).sum()
            }
            other => panic!("{key}: {other}"),
        }
    };
    // 9 puzzles parsed; 7 reached the solver (not malformed, not conflicting).
    assert_eq!(sum("clues_histogram", None), 9);
    assert_eq!(sum("guesses_histogram", Some("rows")), 7);
    let clues = p.bytes().filter(|&b| b != b'0').count().to_string();
    assert!(json["clues_histogram"][&clues].as_u64().unwrap() >= 3);
    // The summary names each verdict with its lines.
    for part in [
        "verify: 11 rows: 1 ok, 1 duplicate, 9 rejected; 2 stored solutions wrong",
        ", 1 malformed (not compared), ",
        "clue-conflict: 2 (lines 3, 12)",
        "puzzle-malformed: 2 (lines 9, 10)",
        "duplicate: 1 (line 11)",
        "rows repeating an earlier puzzle (any verdict): 5 (lines 6, 7, 8, 11, 12)",
    ] {
        assert!(stderr.contains(part), "{part:?} not in {stderr}");
    }
}

#[test]
fn limit_counts_further_and_says_exactly() {
    let (two, sol) = two_solution_puzzle(&sample_rows());
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("two.txt");
    fs::write(&input, format!("{two}\n{two},{sol}\n")).unwrap();
    let (got, _, _) = verify(dir.path(), &input, &["--limit", "3"], 1);
    let details: Vec<&str> = got.iter().map(|r| r[3].as_str()).collect();
    assert_eq!(
        details,
        [
            "exactly 2 solutions",
            "exactly 2 solutions; the stored solution is one of them; same puzzle as line 1"
        ]
    );
}

#[test]
fn lines_pairs_with_every_separator() {
    let rows = sample_rows();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("pairs.txt");
    let mut text = String::from("# puzzle<sep>solution\n");
    for (k, sep) in [",", ";", ":", "\t", " ", ":1:"].iter().enumerate() {
        let (p, s) = &rows[k];
        text.push_str(&format!("{}{sep}{s}\n", p.replace('0', ".")));
    }
    let (p, s) = &rows[10];
    let zero = with(s, 3, '0');
    text.push_str(&format!("{p}:1:{zero}\n{p}\n"));
    fs::write(&input, &text).unwrap();
    let (got, json, _) = verify(dir.path(), &input, &[], 1);
    assert_eq!(
        got,
        [
            [
                "6",
                "8",
                "solution-malformed",
                &format!(
                "solution: r1c4: blank '0', expected a digit 1-9; the unique solution has {} there",
                at(s, 3)
            ),
                p,
                &zero
            ],
            ["7", "9", "duplicate", "same puzzle as line 8", p, ""]
        ]
    );
    assert_eq!(json["verdicts"]["ok"], 6);
    assert_eq!(json["verdicts"]["duplicate"], 1, "line 9 repeats line 8");
}

/// On a lines file, a solution cut to 80 digits, one of 82 and one of 79 after
/// `:` passed as `ok` (no 81-character field, so "no solution"), and the summary's "0 stored
/// solutions wrong" seemed to cover rows without one. A field of 75-90 cells after the
/// puzzle is now a damaged solution (`solution-malformed`), and the rows compared and the
/// rows without a solution are counted, on lines and in JSON Lines (a row without the key).
#[test]
fn damaged_and_missing_stored_solutions_are_counted() {
    let rows = sample_rows();
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("damaged.txt");
    let p = |i: usize| rows[i].0.as_str();
    let s = |i: usize| rows[i].1.as_str();
    let text = format!(
        "{} {}\n{} {}\n{} {}7\n{}:1:{}\n{}\n{} ED=10.3/10.3/9.8\n",
        p(0),
        s(0),
        p(1),
        &s(1)[..80],
        p(2),
        s(2),
        p(3),
        &s(3)[..79],
        p(4),
        p(5)
    );
    fs::write(&lines, text).unwrap();
    let (got, json, err) = verify(dir.path(), &lines, &[], 1);
    let found: Vec<(&str, &str, &str)> = got
        .iter()
        .map(|r| (r[1].as_str(), r[2].as_str(), r[5].as_str()))
        .collect();
    let s2 = format!("{}7", s(2));
    assert_eq!(
        found,
        [
            ("2", "solution-malformed", &s(1)[..80]),
            ("3", "solution-malformed", s2.as_str()),
            ("4", "solution-malformed", &s(3)[..79]),
        ]
    );
    for (r, n) in got.iter().zip([80, 82, 79]) {
        assert!(
            r[3].starts_with(&format!("solution: {n} characters, expected 81")),
            "{r:?}"
        );
        // A solution (digits 1-9) has no leading zeros to lose.
        assert!(!r[3].contains("leading zeros"), "{r:?}");
    }
    assert_eq!(json["verdicts"]["ok"], 3);
    // A malformed solution was read but not compared: it is not among the compared (a
    // reader of "N compared" trusts that N were compared), and is counted apart.
    assert_eq!(json["stored_solutions_compared"], 1);
    assert_eq!(json["stored_solutions_malformed"], 3);
    assert_eq!(json["rows_without_solution"], 2);
    assert_eq!(json["stored_solutions_wrong"], 0);
    assert!(
        err.contains(
            "; 1 stored solution compared, 3 malformed (not compared), 2 lines without a solution"
        ),
        "{err}"
    );

    let jsonl = dir.path().join("rows.jsonl");
    let text = format!(
        "{{\"puzzle\": \"{}\", \"solution\": \"{}\"}}\n{{\"puzzle\": \"{}\"}}\n",
        p(0),
        s(0),
        p(1)
    );
    fs::write(&jsonl, text).unwrap();
    let (got, json, err) = verify(dir.path(), &jsonl, &[], 0);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(json["verdicts"]["ok"], 2);
    assert_eq!(json["stored_solutions_compared"], 1);
    assert_eq!(json["rows_without_solution"], 1);
    assert!(
        err.contains("; 1 stored solution compared, 1 row without a solution"),
        "{err}"
    );
}

/// A file of `puzzle,solution` lines cut 60 bytes before its end passed `verify`
/// (the last line's 22-digit solution read as "no solution"), and so did a middle row whose
/// solution held 60 digits: only fields of 75 to 90 cells counted as damaged solutions. In a
/// file whose lines carry 81-cell solutions, any field of cells after the puzzle is now one,
/// `solution-malformed` when not 81 long; a comment or a rating still carries none, and in a
/// file without solutions a count or a rating of digits is still no solution.
#[test]
fn a_cut_solution_in_a_file_of_pairs_is_malformed() {
    let rows = sample_rows();
    let dir = tempfile::tempdir().unwrap();
    let p = |i: usize| rows[i].0.as_str();
    let s = |i: usize| rows[i].1.as_str();
    let mut text = format!(
        "{},{}\n{},{}\n{},{} # checked by hand\n{} ED=7.1/1.2/1.2\n",
        p(0),
        s(0),
        p(1),
        &s(1)[..60],
        p(2),
        s(2),
        p(3)
    );
    for i in 4..8 {
        text += &format!("{},{}\n", p(i), s(i));
    }
    // Cut 60 bytes before the end: the line end and 59 digits of the last solution go.
    text.truncate(text.len() - 60);
    let pairs = dir.path().join("pairs_trunc.txt");
    fs::write(&pairs, &text).unwrap();
    let (got, json, err) = verify(dir.path(), &pairs, &[], 1);
    let found: Vec<(&str, &str, &str)> = got
        .iter()
        .map(|r| (r[1].as_str(), r[2].as_str(), r[5].as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("2", "solution-malformed", &s(1)[..60]),
            ("8", "solution-malformed", &s(7)[..81 - 59]),
        ]
    );
    for (r, n) in got.iter().zip([60, 22]) {
        assert!(
            r[3].starts_with(&format!("solution: {n} characters, expected 81")),
            "{r:?}"
        );
    }
    assert_eq!(json["verdicts"]["ok"], 6);
    assert_eq!(json["stored_solutions_compared"], 5);
    assert_eq!(json["stored_solutions_malformed"], 2);
    assert_eq!(json["rows_without_solution"], 1, "line 4 carries a rating");
    assert!(
        err.contains("pairs_trunc.txt:8: solution-malformed"),
        "{err}"
    );

    // Without 81-cell solutions in the file, a count or a rating of digits stays text.
    let rated = dir.path().join("rated.txt");
    fs::write(&rated, format!("{} 7\n{} 9.8\n{}:1\n", p(0), p(1), p(2))).unwrap();
    let (got, json, err) = verify(dir.path(), &rated, &[], 0);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(json["verdicts"]["ok"], 3);
    assert!(
        err.contains(
            "no stored solutions (no line has a solution field): only the puzzles were checked"
        ),
        "{err}"
    );
}

#[test]
fn puzzle_only_files_check_shape_conflicts_and_uniqueness() {
    let dir = tempfile::tempdir().unwrap();
    bin()
        .args(["verify", "-q", SAMPLE])
        .assert()
        .code(0)
        .stderr("");
    let (two, _) = two_solution_puzzle(&sample_rows());
    let input = dir.path().join("only.txt");
    let first = fs::read_to_string(SAMPLE)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    fs::write(&input, format!("{first}\n{two}\n")).unwrap();
    let (got, _, _) = verify(dir.path(), &input, &[], 1);
    assert_eq!(
        got,
        [[
            "1",
            "2",
            "multiple-solutions",
            "at least 2 solutions (counted up to --limit 2)",
            &two,
            ""
        ]]
    );
}

#[test]
fn solution_column_by_flag_and_extreme_layout() {
    let rows = sample_rows();
    let dir = tempfile::tempdir().unwrap();
    let (p, s) = &rows[3];
    let (_, other) = &rows[4];
    // Neither column has a recognised name: the solution column is found by its content
    // (issue 10: a solution column under another name is never silently left unchecked).
    let input = dir.path().join("named.csv");
    fs::write(&input, format!("id,grid,sol\n1,{p},{s}\n2,{p},{other}\n")).unwrap();
    bin()
        .args(["verify", "-q", "--puzzle-column", "grid"])
        .arg(&input)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(":3: solution-contradicts-clue"));
    let (got, _, _) = verify(
        dir.path(),
        &input,
        &["--puzzle-column", "grid", "--solution-column", "SOL"],
        1,
    );
    assert_eq!(
        got,
        [row(
            3,
            "solution-contradicts-clue",
            &format!("{}; same puzzle as line 2", contradiction(p, other)),
            p,
            other
        )]
    );
    for (args, flag) in [
        (
            vec!["--puzzle-column", "grid", "--solution-column", "nope"],
            "--solution-column",
        ),
        (vec!["--solution-column", "sol"], "--puzzle-column"),
        // The puzzle column named as the solution column, by name or by number.
        (
            vec!["--puzzle-column", "grid", "--solution-column", "grid"],
            "--solution-column \"grid\" is the puzzle column (\"grid\")",
        ),
        (
            vec!["--puzzle-column", "grid", "--solution-column", "2"],
            "--solution-column \"2\" is the puzzle column (\"grid\")",
        ),
    ] {
        let out = bin()
            .arg("verify")
            .args(&args)
            .arg(&input)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
    // sudoku-extreme: source,question,answer,rating with '.' blanks.
    let input = dir.path().join("extreme.csv");
    let q = p.replace('0', ".");
    fs::write(
        &input,
        format!("source,question,answer,rating\nsample,{q},{s},3\nsample,{q},{other},3\n"),
    )
    .unwrap();
    let (got, _, _) = verify(dir.path(), &input, &[], 1);
    let detail = format!("{}; same puzzle as line 2", contradiction(p, other));
    assert_eq!(
        got,
        [row(3, "solution-contradicts-clue", &detail, &q, other)]
    );
}

#[test]
fn one_and_two_threads_give_identical_rejects() {
    // More rows than one batch (32,768), with broken rows spread through them.
    let rows = sample_rows();
    let mut text = String::from("quizzes,solutions\n");
    for k in 0..17 {
        for (i, (p, s)) in rows.iter().enumerate() {
            let line = match (i + k) % 997 {
                0 => format!("{},{s}\n", &p[..79]),
                1 => format!("{p},{}\n", with(s, 80, '0')),
                2 => format!("{p},{}\n", rows[(i + 1) % rows.len()].1),
                _ => format!("{p},{s}\n"),
            };
            text.push_str(&line);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.csv");
    fs::write(&input, text).unwrap();
    let mut outs = Vec::new();
    for j in ["1", "2"] {
        let rej = dir.path().join(format!("rejects{j}.csv"));
        bin()
            .args(["verify", "-q", "-j", j])
            .arg(&input)
            .arg("--rejects")
            .arg(&rej)
            .assert()
            .code(1);
        outs.push(fs::read(&rej).unwrap());
    }
    assert_eq!(outs[0], outs[1]);
    let got = rejects(&dir.path().join("rejects1.csv"));
    // Every row after the first copy of the sample is a duplicate (or worse).
    assert!(got.len() > 16 * rows.len(), "{}", got.len());
    assert!(got.iter().any(|r| r[2] == "solution-contradicts-clue"));
}

#[test]
fn flag_errors_are_fatal() {
    for args in [
        vec!["verify", "--limit", "1", SAMPLE_CSV],
        vec!["verify", "--rejects", "-", "--report", "-", SAMPLE_CSV],
        vec!["verify", "/nonexistent/v.csv"],
        vec!["verify", SAMPLE_CSV, "--rejects", "/nonexistent-dir/r.csv"],
    ] {
        let a = bin().args(&args).assert().code(2);
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    bin()
        .args(["verify", "-q"])
        .write_stdin("")
        .assert()
        .code(0);
}

#[test]
fn shared_datasets_verify_clean() {
    let Some(data) = shared("data") else { return };
    for name in [
        "kaggle_1m_sample.csv",
        "kaggle_9m_sample.csv",
        "kaggle_3m_sample_reformatted.csv",
    ] {
        let path = data.join(name);
        let rows = fs::read_to_string(&path).unwrap().lines().count() - 1;
        let dir = tempfile::tempdir().unwrap();
        let (got, json, _) = verify(dir.path(), &path, &["-q"], 0);
        assert!(got.is_empty(), "{name}: {:?}", &got[..got.len().min(3)]);
        assert_eq!(json["rows"], rows, "{name}");
        assert_eq!(json["verdicts"]["ok"], rows, "{name}");
    }
}

/// `(line, verdict, detail)` of one rejected row.
type Triple = (String, String, String);

/// `(line, verdict, detail)` of the rejects of one case file, and the report.
fn case(name: &str, extra: &[&str], code: i32) -> Option<(Vec<Triple>, serde_json::Value)> {
    let path = shared("cases/inputs")?.join(name);
    let dir = tempfile::tempdir().unwrap();
    let (got, json, _) = verify(dir.path(), &path, extra, code);
    let got = got
        .into_iter()
        .map(|r| (r[1].clone(), r[2].clone(), r[3].clone()))
        .collect();
    Some((got, json))
}

fn t(line: &str, verdict: &str, detail: &str) -> Triple {
    (line.into(), verdict.into(), detail.into())
}

#[test]
fn case_c17_zero_in_a_stored_solution() {
    let Some((got, json)) = case("c17_9m_solution_with_zero.csv", &[], 1) else {
        return;
    };
    assert_eq!(
        got,
        [t(
            "3",
            "solution-malformed",
            "solution: r9c9: blank '0', expected a digit 1-9; the unique solution has 7 there"
        )]
    );
    assert_eq!(json["verdicts"]["ok"], 2);
}

#[test]
fn case_c24_non_unique_is_not_a_mismatch() {
    let Some((got, json)) = case("c24_9m_uniqueness_audit.csv", &["--limit", "1000"], 1) else {
        return;
    };
    let one_of = "the stored solution is one of them";
    assert_eq!(
        got,
        [
            t(
                "3",
                "multiple-solutions",
                &format!("exactly 318 solutions; {one_of}")
            ),
            t(
                "4",
                "multiple-solutions",
                &format!("exactly 26 solutions; {one_of}")
            ),
        ]
    );
    assert_eq!(json["verdicts"]["ok"], 2);
    assert_eq!(json["verdicts"]["solution-contradicts-clue"], 0);
    assert_eq!(json["verdicts"]["solution-wrong"], 0);
    // Rejected as puzzles, but no stored solution is wrong.
    assert_eq!(json["rejected"], 2);
    assert_eq!(json["stored_solutions_wrong"], 0);
}

#[test]
fn case_c32_solutions_of_other_puzzles() {
    let Some((got, _)) = case("c32_9m_solution_not_matching_clues.csv", &[], 1) else {
        return;
    };
    assert_eq!(
        got,
        [
            t(
                "3",
                "solution-contradicts-clue",
                "r1c2: clue 4, solution 9; 28 of 34 clues differ"
            ),
            t(
                "4",
                "solution-contradicts-clue",
                "r1c1: clue 6, solution 3; 31 of 34 clues differ"
            ),
        ]
    );
}

#[test]
fn case_c34_bom_and_crlf() {
    let Some((got, json)) = case("c34_kaggle_bom_crlf.csv", &[], 0) else {
        return;
    };
    assert!(got.is_empty());
    assert_eq!(json["verdicts"]["ok"], 3);
}

#[test]
fn case_c36_spreadsheet_damage() {
    let Some((got, _)) = case("c36_kaggle_leading_zeros_lost.csv", &[], 1) else {
        return;
    };
    let lost =
        "(all digits: leading zeros lost? a spreadsheet may have stored the puzzle as a number)";
    let sci = "is a number in scientific notation, not 81 cells (a spreadsheet converted it; the digits are lost)";
    assert_eq!(
        got,
        [
            t(
                "3",
                "puzzle-malformed",
                &format!("quizzes: 80 characters, expected 81 {lost}")
            ),
            t(
                "4",
                "solution-malformed",
                &format!("solutions: \"6.95127E+80\" {sci}")
            ),
            t(
                "5",
                "puzzle-malformed",
                &format!("quizzes: \"4.972E+80\" {sci}")
            ),
            t(
                "6",
                "puzzle-malformed",
                &format!("quizzes: 79 characters, expected 81 {lost}")
            ),
        ]
    );
}

#[test]
fn case_c41_ragged_rows_are_named_and_the_rest_go_on() {
    let Some((got, json)) = case("c41_radcliffe_ragged_rows.csv", &[], 1) else {
        return;
    };
    assert_eq!(
        got,
        [
            t("3", "puzzle-malformed", "row: 4 fields, expected 5"),
            t("4", "puzzle-malformed", "row: 6 fields, expected 5"),
        ]
    );
    assert_eq!(json["verdicts"]["ok"], 3, "lines 2, 5 (quoted) and 6");
    // The ragged rows carry a solution; it was not compared, but they did not
    // "have none".
    assert_eq!(json["stored_solutions_compared"], 3);
    assert_eq!(json["stored_solutions_not_compared"], 2);
    assert_eq!(json["rows_without_solution"], 0);
}

/// A row whose stored solution opens a quote it never closes is rejected as a row
/// (`puzzle-malformed`); its solution was not compared, but the row did carry one.
#[test]
fn an_unclosed_quote_in_the_solution_is_not_a_row_without_solution() {
    let rows = sample_rows();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("q.csv");
    let mut text = String::from("quizzes,solutions\n");
    for (i, (p, s)) in rows.iter().take(6).enumerate() {
        let quote = if i == 2 { "\"" } else { "" };
        text.push_str(&format!("{p},{quote}{s}\n"));
    }
    fs::write(&csv, text).unwrap();
    let (got, json, err) = verify(dir.path(), &csv, &[], 1);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0][1].as_str(), got[0][2].as_str()),
        ("4", "puzzle-malformed")
    );
    assert!(
        got[0][3].contains("solutions (column 2) opens a quote"),
        "{got:?}"
    );
    assert_eq!(json["verdicts"]["ok"], 5);
    assert_eq!(json["stored_solutions_compared"], 5);
    assert_eq!(json["stored_solutions_not_compared"], 1);
    assert_eq!(json["rows_without_solution"], 0);
    assert!(
        err.contains("; 5 stored solutions compared, 1 not compared (row failed first)\n"),
        "{err}"
    );
}

#[test]
fn case_c42_duplicates_are_informational() {
    let Some((got, json)) = case("c42_hrm_format_duplicates.csv", &[], 0) else {
        return;
    };
    // Line 4 repeats line 2 exactly; line 6 is line 7 relabelled, which is not an exact
    // duplicate and stays ok.
    assert_eq!(got, [t("4", "duplicate", "same puzzle as line 2")]);
    assert_eq!(json["verdicts"]["ok"], 5);
    assert_eq!(json["rejected"], 0);
    assert_eq!(json["duplicates"], 1);
}

#[test]
fn shards_add_up_to_the_whole_run() {
    // Distinct puzzles, so no duplicate spans two shards; every fourth row is broken.
    let rows = sample_rows();
    let mut text = String::from("quizzes,solutions\n");
    for (i, (p, s)) in rows.iter().take(40).enumerate() {
        let s = if i % 4 == 1 {
            with(s, 80, '0')
        } else {
            s.clone()
        };
        text.push_str(&format!("{p},{s}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ten.csv");
    fs::write(&input, text).unwrap();
    let (whole, _, _) = verify(dir.path(), &input, &[], 1);
    assert_eq!(whole.len(), 10);
    let mut union = Vec::new();
    for k in ["1/3", "2/3", "3/3"] {
        let rej = dir.path().join("shard.csv");
        bin()
            .args(["verify", "-q", "--shard", k])
            .arg(&input)
            .arg("--rejects")
            .arg(&rej)
            .assert()
            .code(predicate::in_iter([0, 1]));
        union.extend(rejects(&rej));
    }
    assert_eq!(union, whole);
}

#[test]
fn an_unwritable_report_fails_before_the_work_and_commits_no_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.csv");
    let verify = |report: &Path| {
        bin()
            .args(["verify", "-q", SAMPLE_CSV, "--rejects"])
            .arg(&rejects)
            .arg("--report")
            .arg(report)
            .assert()
    };
    verify(&dir.path().join("missing-dir").join("report.json"))
        .code(2)
        .stderr(predicate::str::contains("report.json"));
    assert!(!rejects.exists(), "no output committed");
    // Both written when both can be.
    let report = dir.path().join("report.json");
    verify(&report).code(0);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["rows"], sample_rows().len());
    assert!(rejects.exists());
}

/// A stored solution shifted by one character (a CSV cell cut at the
/// front) repeats digits in most units, and each row's reason listed every repeat (870-970
/// characters; all 9s, 2.5 KB). The reason names the first three repeats, how many more, at
/// most four cells a repeat, and how many cells differ from the unique solution.
#[test]
fn an_illegal_stored_solution_gets_a_short_reason() {
    let (p, s) = (common::P, common::S);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("shifted.csv");
    let shifted = format!("{}{}", &s[1..], &s[..1]);
    let nines = "9".repeat(81);
    std::fs::write(
        &input,
        format!("puzzle,solution\n{p},{shifted}\n{p},{nines}\n"),
    )
    .unwrap();
    let o = bin().arg("verify").arg(&input).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let differ = |g: &str| g.bytes().zip(s.bytes()).filter(|(a, b)| a != b).count();
    let path = input.to_str().unwrap();
    // Row 1 of the shifted grid is s[1..10]: its 9 (r1c6) and s[9] (r1c9) are both 9.
    let first =
        format!("sudoku-batch: {path}:2: solution-illegal: 9 twice in row 1 (r1c6, r1c9); ");
    let line = err.lines().find(|l| l.contains(":2: ")).unwrap();
    assert!(line.starts_with(&first), "{line}");
    assert_eq!(
        line.matches(" in ").count(),
        3,
        "three repeats named: {line}"
    );
    let tail = format!(
        " more repeats; {} of 81 cells differ from the unique solution",
        differ(&shifted)
    );
    assert!(line.ends_with(&tail), "{line}");
    assert!(line.len() < 300, "{} characters: {line}", line.len());
    // All 9s: nine in each of 27 units, four cells named for each of three.
    let line = err.lines().find(|l| l.contains(":3: ")).unwrap();
    let want = format!(
        "sudoku-batch: {path}:3: solution-illegal: 9 9 times in row 1 (r1c1, r1c2, r1c3, r1c4, …); 9 9 times \
         in row 2 (r2c1, r2c2, r2c3, r2c4, …); 9 9 times in row 3 (r3c1, r3c2, r3c3, r3c4, …); \
         and 24 more repeats; {} of 81 cells differ from the unique solution; same puzzle as line 2",
        differ(&nines)
    );
    assert_eq!(line, want);
}

/// An empty CSV solution field was a wrong stored solution (`solutions: empty`)
/// while the same row in JSON Lines (`null`) carried none, so the tool's own CSV outputs,
/// which write "none" as an empty field, failed verify. An empty or blank field is now "no
/// stored solution", counted in `rows_without_solution`.
#[test]
fn an_empty_csv_solution_field_is_no_stored_solution() {
    let rows = sample_rows();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("es.csv");
    let text = format!(
        "quizzes,solutions\n{},{}\n{},{}\n{},\n{},  \n",
        rows[0].0, rows[0].1, rows[1].0, rows[1].1, rows[2].0, rows[3].0
    );
    fs::write(&csv, text).unwrap();
    let (got, json, err) = verify(dir.path(), &csv, &[], 0);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(json["verdicts"]["ok"], 4);
    assert_eq!(json["stored_solutions_compared"], 2);
    assert_eq!(json["stored_solutions_wrong"], 0);
    assert_eq!(json["rows_without_solution"], 2);
    assert!(
        err.contains("; 2 stored solutions compared, 2 rows with an empty solution"),
        "{err}"
    );
}

/// A solution column present but empty on every row said "no stored
/// solutions", as a file without the column does; and "0 stored solutions wrong" stood for
/// a run that compared none. The summary names the column and the empty rows, and says
/// "wrong" only of solutions it compared.
#[test]
fn an_all_empty_solution_column_is_named_apart_from_no_column() {
    let rows = sample_rows();
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.csv");
    let text = format!("quizzes,solutions\n{},\n{},\n", rows[0].0, rows[1].0);
    fs::write(&empty, text).unwrap();
    let (got, json, err) = verify(dir.path(), &empty, &[], 0);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(json["rows_without_solution"], 2);
    assert_eq!(json["stored_solutions_compared"], 0);
    assert!(json["solution_source"].is_null(), "{json}");
    assert_eq!(json["inputs"][0]["solution_source"], "solutions");
    assert!(
        err.contains(
            "solution column solutions present, no stored solution compared \
             (all 2 rows with an empty solution): only the puzzles were checked"
        ),
        "{err}"
    );
    assert!(!err.contains("no stored solutions"), "{err}");
    assert!(!err.contains("wrong"), "{err}");

    let bare = dir.path().join("bare.csv");
    fs::write(&bare, format!("quizzes\n{}\n{}\n", rows[0].0, rows[1].0)).unwrap();
    let (_, json, err) = verify(dir.path(), &bare, &[], 0);
    assert!(json["inputs"][0]["solution_source"].is_null(), "{json}");
    assert!(
        err.contains("no solution column: only the puzzles were checked"),
        "{err}"
    );

    // Malformed solutions only: none compared, so none is called right or wrong.
    let cut = dir.path().join("cut.csv");
    let text = format!("quizzes,solutions\n{},{}\n", rows[0].0, &rows[0].1[..80]);
    fs::write(&cut, text).unwrap();
    let (_, _, err) = verify(dir.path(), &cut, &[], 1);
    assert!(
        err.contains("verify: 1 row: 0 ok, 0 duplicate, 1 rejected\n"),
        "{err}"
    );
    assert!(
        err.contains("; 0 stored solutions compared, 1 malformed (not compared)"),
        "{err}"
    );
}

/// `augment --keep-unsolved -o ku.csv` writes an empty `solution` for the rows it
/// keeps without one; `verify ku.csv` must not call those wrong stored solutions.
#[test]
fn augment_keep_unsolved_output_verifies() {
    let Some(dir) = shared("cases/inputs") else {
        return;
    };
    let input = dir.join("c23_mixed_validity.txt");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ku.csv");
    bin()
        .args(["augment", "-n", "1", "--seed", "1", "--keep-unsolved", "-o"])
        .arg(&out)
        .arg(&input)
        .assert()
        .code(predicate::in_iter([0, 1]));
    let text = fs::read_to_string(&out).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let col = rdr
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "solution")
        .unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let empty = rows.iter().filter(|r| r[col].is_empty()).count() as u64;
    assert!(
        empty > 0,
        "--keep-unsolved kept a row without a solution: {text}"
    );
    let o = bin()
        .arg("verify")
        .arg(&out)
        .arg("--report")
        .arg(tmp.path().join("r.json"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("r.json")).unwrap()).unwrap();
    // Rejected only for the kept puzzles themselves (not unique, or unsolvable).
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(json["verdicts"]["solution-malformed"], 0, "{err}");
    assert_eq!(json["stored_solutions_wrong"], 0, "{err}");
    assert_eq!(json["rows_without_solution"], empty, "{err}");
    assert_eq!(
        json["stored_solutions_compared"],
        rows.len() as u64 - empty,
        "{err}"
    );
}

/// `solve`, `canon`, `rate`, `augment`, `dedup` and `overlap` said `xc.csv:2:
/// column 41: invalid character 'x'` ("column 41" reads as a field number in a CSV) and
/// `:3: 80 characters, expected 81` where `verify` named the cell and the column. Every
/// command now gives `verify`'s detail; a lines input, with one field, gives it unnamed.
#[test]
fn every_command_words_a_bad_puzzle_field_as_verify_does() {
    let dir = tempfile::tempdir().unwrap();
    let (p, s) = sample_rows().swap_remove(0);
    let p = p.replace('0', "."); // so a cut puzzle is not all digits (a spreadsheet's)
    let bad = format!("{}x{}", &p[..40], &p[41..]);
    let csv = dir.path().join("xc.csv");
    let text = format!("question,answer\n{bad},{s}\n{},{s}\n", &p[..80]);
    fs::write(&csv, text).unwrap();
    let lines = dir.path().join("x.txt");
    fs::write(&lines, format!("{bad}\n{}\n", &p[..80])).unwrap();
    let notes = |args: &[&str], file: &Path| -> Vec<String> {
        let o = bin().args(args).arg(file).output().unwrap();
        let err = String::from_utf8(o.stderr).unwrap();
        let at = format!("{}:", file.display());
        err.lines()
            .filter_map(|l| l.strip_prefix("sudoku-batch: "))
            .filter(|l| l.starts_with(&at))
            .map(String::from)
            .collect()
    };
    let (c, l) = (csv.display(), lines.display());
    let want_csv = [
        format!("{c}:2: question: r5c5: invalid character 'x' (character 41)"),
        format!("{c}:3: question: 80 characters, expected 81"),
    ];
    let verified: Vec<String> = notes(&["verify"], &csv)
        .iter()
        .map(|n| n.replacen(": puzzle-malformed", "", 1))
        .collect();
    assert_eq!(verified, want_csv);
    let want_lines = [
        format!("{l}:1: r5c5: invalid character 'x' (character 41)"),
        format!("{l}:2: 80 characters, expected 81"),
    ];
    let out = dir.path().join("out.csv");
    let o = out.to_str().unwrap();
    for cmd in ["solve", "canon", "rate", "augment", "dedup"] {
        assert_eq!(notes(&[cmd, "-o", o], &csv), want_csv, "{cmd}");
        assert_eq!(notes(&[cmd, "-o", o], &lines), want_lines, "{cmd}");
    }
    let train = ["overlap", "-o", o, "--test", SAMPLE, "--train"];
    assert_eq!(notes(&train, &csv), want_csv, "overlap");
}

/// A file whose every puzzle appears twice (the second copy in the
/// second half), verified as shard 1/2, said "0 duplicate" as if the file had no repeats.
/// The summary says that only the shard was searched; the whole run finds them all.
#[test]
fn a_shards_summary_says_repeats_were_searched_within_it_only() {
    let dir = tempfile::tempdir().unwrap();
    let csv = fs::read_to_string(SAMPLE_CSV).unwrap();
    let body: String = csv.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let input = dir.path().join("twice.csv");
    fs::write(&input, format!("{csv}{body}")).unwrap();
    let n = sample_rows().len();
    let summary = |args: &[&str]| {
        let out = bin().arg("verify").arg(&input).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let err = String::from_utf8(out.stderr).unwrap();
        let line = err
            .lines()
            .find(|l| l.starts_with("sudoku-batch: verify: "));
        line.expect("a summary line").to_string()
    };
    let whole = summary(&[]);
    assert!(
        whole.contains(&format!("{n} ok, {n} duplicate, 0 rejected")),
        "{whole}"
    );
    assert!(!whole.contains("shard"), "{whole}");
    let shard = summary(&["--shard", "1/2"]);
    assert!(
        shard.contains(" duplicate (repeats searched within this shard only), 0 rejected"),
        "{shard}"
    );
}
