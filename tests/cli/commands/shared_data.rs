//! `solve` on every public dataset in `../shared/data`: every record accounted for, every
//! solution checked against the rules and the givens, the known counts hold. Skipped, with
//! a note, when `../shared` is absent.

use crate::common;

use common::{assert_solves, bin, data_lines, shared, stats_rows};
use std::path::Path;

/// Solves `file`; returns (exit code, stats rows, solutions output).
fn run(file: &Path) -> (i32, Vec<Vec<String>>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.csv");
    let a = bin()
        .args(["solve", "-q", "-j", "2"])
        .arg(file)
        .arg("--stats")
        .arg(&stats)
        .assert();
    let out = a.get_output();
    let code = out.status.code().unwrap();
    (
        code,
        stats_rows(&std::fs::read_to_string(&stats).unwrap()),
        out.stdout.clone(),
    )
}

/// A lines file: records = data lines, statuses as given, each grid checked.
fn check_lines(name: &str, known_records: usize, expect: &str) {
    let Some(dir) = shared("data") else { return };
    let file = dir.join(name);
    let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).to_string();
    let lines = data_lines(&text);
    assert_eq!(
        lines.len(),
        known_records,
        "{name}: records in the file (SOURCES.md)"
    );
    let (code, rows, out) = run(&file);
    let out = String::from_utf8(out).unwrap();
    let outs: Vec<&str> = out.lines().collect();
    assert_eq!(
        rows.len(),
        known_records,
        "{name}: every record accounted for"
    );
    assert_eq!(outs.len(), known_records);
    for ((row, (line, puzzle)), sol) in rows.iter().zip(&lines).zip(&outs) {
        assert_eq!(row[1], line.to_string(), "{name}: line numbers");
        let status = row[2].as_str();
        match expect {
            "unique" => assert_eq!(status, "solved", "{name}:{line}"),
            "multiple" => assert_eq!(status, "multiple", "{name}:{line}"),
            _ => {}
        }
        if status == "solved" {
            // The puzzle is the first 81 characters, or the 81-cell field of a bank line.
            let p = puzzle
                .split_whitespace()
                .find(|f| f.len() == 81)
                .unwrap_or(&puzzle[..81.min(puzzle.len())]);
            assert_solves(&p[..81], sol, &format!("{name}:{line}"));
        } else {
            // A non-unique, unsolvable or invalid record is named, never given a grid.
            assert_eq!(*sol, status, "{name}:{line}");
        }
    }
    let want = if expect == "unique" { 0 } else { 1 };
    assert_eq!(code, want, "{name}: exit code");
}

#[test]
fn clue17_all_49158_unique() {
    check_lines("17_clue.txt", 49_158, "unique");
}

#[test]
fn top1465_and_top95_and_hardest_unique() {
    check_lines("top1465.txt", 1_465, "unique");
    check_lines("top95.txt", 95, "unique");
    check_lines("hardest.txt", 11, "unique");
    check_lines("hard20.txt", 20, "unique");
    check_lines("easy50.txt", 50, "unique");
}

#[test]
fn forum_hardest_sets_unique() {
    check_lines("forum_hardest_1905_11plus.txt", 48_766, "unique");
    check_lines("forum_hardest_1106.txt", 375, "unique");
}

#[test]
fn serg_benchmark_counts_and_checks_solutions() {
    // The tdoku README says this set holds puzzles with two or more solutions.
    check_lines("serg_benchmark.txt", 10_000, "any");
}

#[test]
fn top5k_and_exchange_bank_unique() {
    check_lines("sudoku_top5k.txt", 50_000, "unique");
    // The bank's README states every puzzle has a unique solution.
    check_lines("sudoku_exchange_diabolical.txt", 39_719, "unique");
}

#[test]
fn rated_forum_list_reads_its_title_line_as_one_invalid_record() {
    let Some(dir) = shared("data") else { return };
    let (code, rows, _) = run(&dir.join("forum_hardest_1106_rated.csv"));
    assert_eq!(code, 1);
    assert_eq!(
        rows.len(),
        377,
        "title line + 376 data rows; the #! header line is a comment"
    );
    assert_eq!((rows[0][1].as_str(), rows[0][2].as_str()), ("1", "invalid"));
    assert!(rows[1..].iter().all(|r| r[2] == "solved"));
}

/// A CSV dataset: every row solved, and our solution equals the dataset's solution column.
fn check_csv(name: &str, known_rows: usize, puzzle_col: usize, solution_col: usize) {
    let Some(dir) = shared("data") else { return };
    let (code, rows, out) = run(&dir.join(name));
    assert_eq!(code, 0, "{name}");
    assert_eq!(rows.len(), known_rows, "{name}: rows (SOURCES.md)");
    let mut rdr = csv::Reader::from_reader(out.as_slice());
    let width = rdr.headers().unwrap().len();
    let mut n = 0;
    for rec in rdr.records() {
        let rec = rec.unwrap();
        assert_solves(&rec[puzzle_col], &rec[width - 2], name);
        assert_eq!(
            &rec[solution_col],
            &rec[width - 2],
            "{name}: dataset solution"
        );
        assert_eq!(&rec[width - 1], "solved");
        n += 1;
    }
    assert_eq!(n, known_rows);
}

#[test]
fn kaggle_csv_layouts_match_their_solution_columns() {
    check_csv("kaggle_1m_sample.csv", 20_000, 0, 1);
    check_csv("kaggle_9m_sample.csv", 6_200, 0, 1);
    check_csv("kaggle_3m_sample_reformatted.csv", 7_034, 0, 1);
}
