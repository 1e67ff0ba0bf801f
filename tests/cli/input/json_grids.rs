//! Grids written as JSON lists in JSON Lines (issue 33, item 4): a 9x9 nested list or a
//! flat list of 81, with `null` or `0` for an empty cell, is a grid; a list of another shape
//! is one `invalid` record whose reason names the shape, and the batch goes on.

use crate::common;

use std::fs;
use std::path::Path;

use common::{assert_solves, bin, cells, P};

/// `grid` (81 cells, `.` or `0` empty) as a JSON list of its cells, `blank` for an empty one.
fn json_cells(grid: &str, blank: &str) -> Vec<String> {
    cells(grid)
        .iter()
        .map(|&d| match d {
            0 => blank.to_string(),
            d => d.to_string(),
        })
        .collect()
}

/// `grid` as a 9x9 nested list, `blank` for an empty cell.
fn nested(grid: &str, blank: &str) -> String {
    let rows: Vec<String> = json_cells(grid, blank)
        .chunks(9)
        .map(|r| format!("[{}]", r.join(",")))
        .collect();
    format!("[{}]", rows.join(","))
}

/// `grid` as a flat list of 81, `blank` for an empty cell.
fn flat(grid: &str, blank: &str) -> String {
    format!("[{}]", json_cells(grid, blank).join(","))
}

/// [`P`] with its digits renamed (`d` becomes `d % 9 + 1`): another puzzle with one
/// solution, so rows solved out of order would show.
fn renamed(grid: &str) -> String {
    grid.chars()
        .map(|c| match c.to_digit(10) {
            Some(d @ 1..=9) => char::from_digit(d % 9 + 1, 10).unwrap(),
            _ => c,
        })
        .collect()
}

/// Runs `solve -q -j 2 FILE -o out.csv [flags]` on `file`; the exit code, the rows of
/// `out.csv` (the input's columns, then `solution` and `status`) and stderr.
fn solve(file: &Path, flags: &[&str]) -> (Option<i32>, Vec<csv::StringRecord>, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let o = bin()
        .args(["solve", "-q", "-j", "2", "-o", out.to_str().unwrap()])
        .args(flags)
        .arg(file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    let rows = csv::Reader::from_path(&out)
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect();
    (o.status.code(), rows, err)
}

/// Nested lists with `null` blanks, with `0` blanks, and flat lists of 81 with `null`
/// blanks, as puzzles (and a stored solution as a nested list), are solved in order, mapped
/// and streamed; each solution keeps the givens and obeys the rules.
#[test]
fn nested_and_flat_lists_with_null_blanks_are_solved() {
    let dir = tempfile::tempdir().unwrap();
    let q = renamed(P);
    let puzzles = [
        (P.to_string(), nested(P, "null")),
        (q.clone(), nested(&q, "0")),
        (q.clone(), flat(&q, "null")),
        (P.to_string(), format!(" {} ", nested(P, " null "))),
    ];
    let mut text = String::new();
    for (i, (_, list)) in puzzles.iter().enumerate() {
        text.push_str(&format!("{{\"id\":{i},\"puzzle\":{list}}}\n"));
    }
    let file = dir.path().join("grids.jsonl");
    fs::write(&file, &text).unwrap();
    for flags in [&[][..], &["--no-mmap"]] {
        let (code, rows, err) = solve(&file, flags);
        assert_eq!(code, Some(0), "{flags:?}: {err}");
        assert_eq!(rows.len(), puzzles.len(), "{flags:?}");
        for (i, (row, (givens, _))) in rows.iter().zip(&puzzles).enumerate() {
            let what = format!("{flags:?} row {i}");
            assert_eq!(&row[0], i.to_string(), "{what}: in order");
            // The puzzle column holds the list's 81 cells.
            assert_eq!(cells(&row[1]), cells(givens), "{what}");
            assert_eq!(&row[3], "solved", "{what}");
            assert_solves(givens, &row[2], &what);
        }
    }
    // A stored solution written as a nested list is compared: verify finds it right.
    let (_, rows, _) = solve(&file, &[]);
    let solution = nested(&rows[0][2], "0");
    let with = dir.path().join("with.jsonl");
    fs::write(
        &with,
        format!(
            "{{\"puzzle\":{},\"solution\":{solution}}}\n",
            nested(P, "null")
        ),
    )
    .unwrap();
    let o = bin().args(["verify", "-q"]).arg(&with).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Lists of the wrong shape (8 rows, a row of 10, a value of 10, a string in a row, 80 flat
/// cells) are each one `invalid` record naming the file, its line and the shape; the rows
/// around them are solved, in order, each its own puzzle.
#[test]
fn lists_of_the_wrong_shape_are_invalid_rows_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let good = nested(P, "null");
    let rows_of = |edit: &dyn Fn(&mut Vec<Vec<String>>)| {
        let mut rows: Vec<Vec<String>> = json_cells(P, "null")
            .chunks(9)
            .map(<[String]>::to_vec)
            .collect();
        edit(&mut rows);
        let rows: Vec<String> = rows.iter().map(|r| format!("[{}]", r.join(","))).collect();
        format!("[{}]", rows.join(","))
    };
    let bad = [
        (
            rows_of(&|r| {
                r.pop();
            }),
            "\"puzzle\" is a nested list of 8 rows, expected 9",
        ),
        (
            rows_of(&|r| r[2].push("null".into())),
            "\"puzzle\" is a nested list whose row 3 has 10 values, expected 9",
        ),
        (
            rows_of(&|r| r[4][3] = "10".into()),
            "\"puzzle\" is a nested list whose row 5 holds 10 in column 4, not a digit 0-9 or null",
        ),
        (
            rows_of(&|r| r[0][0] = "\"5\"".into()),
            "\"puzzle\" is a nested list whose row 1 holds \"5\" in column 1, not a digit 0-9 or null",
        ),
        (
            format!("[{}]", json_cells(P, "null")[..80].join(",")),
            "\"puzzle\" is an array of 80 cells, expected 81",
        ),
    ];
    let q = renamed(P);
    // Line 1 a good puzzle, then each bad one followed by a good one (alternately P and Q).
    let mut text = format!("{{\"puzzle\":{good}}}\n");
    let mut want: Vec<Option<String>> = vec![Some(P.to_string())];
    for (i, (list, _)) in bad.iter().enumerate() {
        let next = if i % 2 == 0 { &q } else { P };
        text.push_str(&format!(
            "{{\"puzzle\":{list}}}\n{{\"puzzle\":{}}}\n",
            flat(next, "null")
        ));
        want.extend([None, Some(next.to_string())]);
    }
    let file = dir.path().join("shapes.jsonl");
    fs::write(&file, &text).unwrap();
    for flags in [&[][..], &["--no-mmap"]] {
        let (code, rows, err) = solve(&file, flags);
        assert_eq!(code, Some(1), "{flags:?}: invalid rows exit 1: {err}");
        assert_eq!(rows.len(), want.len(), "{flags:?}: every row kept");
        for (i, (row, want)) in rows.iter().zip(&want).enumerate() {
            let what = format!("{flags:?} row {i}");
            match want {
                Some(givens) => {
                    assert_eq!(&row[2], "solved", "{what}");
                    assert_solves(givens, &row[1], &what);
                }
                None => assert_eq!(&row[2], "invalid", "{what}"),
            }
        }
        for (i, (_, reason)) in bad.iter().enumerate() {
            let at = format!("shapes.jsonl:{}: ", 2 * i + 2);
            let said = err.lines().find(|l| l.contains(&at));
            assert!(
                said.is_some_and(|l| l.ends_with(reason)),
                "{flags:?}: {at}{reason} in {err}"
            );
        }
    }
}
