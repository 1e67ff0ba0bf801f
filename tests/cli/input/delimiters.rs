//! Outputs that echo a CSV input's rows keep its delimiter: `dedup -o`
//! writes the kept rows of a `;`- or tab-separated file as they were read, and `solve -o
//! x.csv` writes every input field, then `solution` and `status`, separated the same way.
//! The tables of the tool's own (`--stats`, `--groups`) stay comma-separated.

use crate::common;

use std::fs;
use std::path::Path;

use common::{assert_solves, bin, P, S};

/// [`P`] without its first given (cell 2, a `5`): another puzzle, which dedup keeps.
fn other_puzzle() -> String {
    let mut p = P.to_string();
    p.replace_range(1..2, ".");
    assert_ne!(p, P);
    p
}

/// A file separated by `sep`: a header, two puzzles, a copy of the first (line 4), a
/// record that is not a puzzle (line 5). The `note` column holds a comma in line 2 (no
/// quotes needed when `sep` is not a comma) and `sep` itself, quoted, in line 3.
fn input(sep: char) -> (String, Vec<Vec<String>>) {
    let p2 = other_puzzle();
    let rows: Vec<Vec<String>> = vec![
        vec!["id", "quizzes", "solutions", "note"],
        vec!["1", P, S, "plain, with a comma"],
        vec!["2", &p2, "", &format!("holds {sep} inside")],
        vec!["3", P, S, "copy of 1"],
        vec!["4", "xyz", "", "not a puzzle"],
    ]
    .into_iter()
    .map(|r| r.into_iter().map(String::from).collect())
    .collect();
    let text: String = rows
        .iter()
        .map(|r| {
            let fields: Vec<String> = r
                .iter()
                .map(|f| {
                    if f.contains(sep) {
                        format!("\"{f}\"")
                    } else {
                        f.clone()
                    }
                })
                .collect();
            fields.join(&sep.to_string()) + "\n"
        })
        .collect();
    (text, rows)
}

/// The rows of `path` read as CSV separated by `sep`, header included.
fn read_rows(path: &Path, sep: char) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .delimiter(sep as u8)
        .has_headers(false)
        .flexible(true)
        .from_path(path)
        .unwrap()
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Runs `sudoku-batch args...`; returns the exit code and stderr.
fn run(args: &[&str]) -> (i32, String) {
    let out = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code().unwrap_or(-1), err)
}

/// `|` is sniffed: a `|`-separated file was read as lines, every row invalid.
const SEPARATORS: [(char, &str); 3] = [(';', "semi.csv"), ('\t', "tab.tsv"), ('|', "pipe.csv")];

#[test]
fn dedup_writes_kept_rows_byte_for_byte_with_the_inputs_delimiter() {
    let dir = tempfile::tempdir().unwrap();
    for (sep, name) in SEPARATORS {
        let (text, rows) = input(sep);
        let inp = dir.path().join(name);
        fs::write(&inp, &text).unwrap();
        let out = dir.path().join(format!("{name}.dd.csv"));
        let groups = dir.path().join(format!("{name}.groups.csv"));
        let (code, err) = run(&[
            "dedup",
            "-q",
            inp.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--groups",
            groups.to_str().unwrap(),
        ]);
        // The record that is not a puzzle is kept and counted invalid: exit 1.
        assert_eq!(code, 1, "{name}: {err}");
        // Line 4 (the copy of line 2) dropped; every other line exactly as it was.
        let expected: String = text
            .lines()
            .enumerate()
            .filter(|&(i, _)| i != 3)
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        assert_eq!(fs::read_to_string(&out).unwrap(), expected, "{name}");
        let kept = read_rows(&out, sep);
        let want: Vec<Vec<String>> = [0, 1, 2, 4].iter().map(|&i| rows[i].clone()).collect();
        assert_eq!(kept, want, "{name}: every field of every kept row");
        // --groups is dedup's own table: comma-separated whatever the input.
        let g = fs::read_to_string(&groups).unwrap();
        let g: Vec<&str> = g.lines().collect();
        assert_eq!(
            g[0],
            "record,input,line,first_record,first_input,first_line,relation"
        );
        assert_eq!(g.len(), 2, "{name}: {g:?}");
        let path = inp.to_str().unwrap();
        assert_eq!(g[1], format!("2,{path},4,0,{path},2,exact"), "{name}");
    }
}

#[test]
fn solve_csv_output_keeps_every_field_and_the_inputs_delimiter() {
    let dir = tempfile::tempdir().unwrap();
    for (sep, name) in SEPARATORS {
        let (text, rows) = input(sep);
        let inp = dir.path().join(name);
        fs::write(&inp, &text).unwrap();
        let out = dir.path().join("x.csv");
        let stats = dir.path().join("stats.csv");
        let (code, err) = run(&[
            "solve",
            "-q",
            inp.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--stats",
            stats.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{name}: one record is invalid: {err}");
        let written = fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines.len(), rows.len(), "{name}: {written}");
        // Each line is the input line, then the two added fields after the delimiter.
        for (i, (out_line, in_line)) in lines.iter().zip(text.lines()).enumerate() {
            assert!(
                out_line.starts_with(&format!("{in_line}{sep}")),
                "{name}: line {}: {out_line:?} does not extend {in_line:?}",
                i + 1
            );
        }
        let got = read_rows(&out, sep);
        let mut header = rows[0].clone();
        header.extend(["solution".to_string(), "status".to_string()]);
        assert_eq!(got[0], header, "{name}");
        for (i, (g, r)) in got.iter().zip(&rows).enumerate().skip(1) {
            assert_eq!(g.len(), 6, "{name}: row {i}: {g:?}");
            assert_eq!(&g[..4], &r[..], "{name}: row {i}: input fields kept");
        }
        for i in [1, 3] {
            assert_eq!(got[i][4], S, "{name}: row {i}");
            assert_eq!(got[i][5], "solved", "{name}: row {i}");
        }
        // The puzzle without one given: whatever its status, a solution written is one.
        assert_ne!(got[2][5], "invalid", "{name}");
        assert_solves(&other_puzzle(), &got[2][4], name);
        assert_eq!(got[4][4], "", "{name}");
        assert_eq!(got[4][5], "invalid", "{name}");
        // --stats is the tool's own table: comma-separated.
        let s = fs::read_to_string(&stats).unwrap();
        assert!(
            s.starts_with("record,input,line,status,solutions,clues,guesses,solve_ns,error\n"),
            "{s}"
        );
    }
}

/// The header `id|puzzle|solution|clues|difficulty` is sniffed as CSV, and a
/// lines file whose lines hold `|` after the puzzle is still read as lines.
#[test]
fn a_pipe_separated_csv_is_sniffed_and_a_lines_file_with_pipes_stays_lines() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("pipe.csv");
    let text = format!("id|puzzle|solution|clues|difficulty\n1|{P}|{S}|28|hard\n");
    fs::write(&csv, text).unwrap();
    let report = dir.path().join("r.json");
    let r = report.to_str().unwrap();
    let (code, err) = run(&["verify", "-q", csv.to_str().unwrap(), "--report", r]);
    assert_eq!(code, 0, "{err}");
    let rep: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(rep["inputs"][0]["layout"], "csv", "{rep}");
    assert_eq!(rep["inputs"][0]["solution_source"], "solution", "{rep}");
    assert_eq!(rep["stored_solutions_compared"], 1, "{rep}");
    let lines = dir.path().join("l.txt");
    fs::write(&lines, format!("{P} | rated 2.3\n{P} | puzzle\n")).unwrap();
    let out = dir.path().join("out.txt");
    let args = [
        "solve",
        "-q",
        lines.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let (code, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(fs::read_to_string(&out).unwrap(), format!("{S}\n{S}\n"));
}

/// `--delimiter ';'` on a comma file read its header as one field, and the error
/// only asked for a puzzle column; it now names the delimiter the field holds, and that one
/// reads the file. A header that holds no other delimiter keeps the old hint.
#[test]
fn a_wrong_delimiter_names_the_one_the_header_holds() {
    let dir = tempfile::tempdir().unwrap();
    for (sep, said, flag) in [
        (",", "','", "','"),
        ("\t", "tab", "tab"),
        ("|", "'|'", "'|'"),
    ] {
        let f = dir.path().join("c.csv");
        fs::write(&f, format!("puzzle{sep}solution\n{P}{sep}{S}\n")).unwrap();
        let path = f.to_str().unwrap();
        let (code, err) = run(&["verify", "--delimiter", ";", path]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let want = format!(
            "{path}: no puzzle column in header [\"puzzle{}solution\"]: expected one of \
             [\"quizzes\", \"puzzle\", \"question\", \"puzzles\", \"quiz\"]; it is one field \
             holding {said}: is that the delimiter? give --delimiter {flag}",
            sep.escape_debug()
        );
        assert!(err.trim_end().ends_with(&want), "{err}");
        let flag = flag.trim_matches('\'');
        let (code, err) = run(&["verify", "--delimiter", flag, path]);
        assert_eq!(code, 0, "{sep:?}: {err}");
    }
    let f = dir.path().join("g.csv");
    fs::write(&f, format!("grid\n{P}\n")).unwrap();
    let (code, err) = run(&["verify", "--delimiter", ";", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("choose one with --puzzle-column NAME"),
        "{err}"
    );
}
