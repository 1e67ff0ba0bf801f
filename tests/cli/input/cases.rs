//! The solve- and parse-side outcomes of `../shared/cases/inputs`, as written in
//! `../shared/cases/EXPECTED.md`. Skipped, with a note, when `../shared` is absent.

use crate::common;

use common::{assert_solves, bin, data_lines, shared, stats_rows};
use std::path::Path;

/// One record's result: line, status, solutions, error, and what the output holds for it.
#[derive(Debug)]
struct Row {
    line: u64,
    status: String,
    /// As written: a number, or `>=N` when the count stopped at the limit.
    solutions: String,
    guesses: u32,
    error: String,
    output: String,
}

/// Solves `file` with `extra` flags; returns the exit code and one row per record.
fn solve(file: &Path, extra: &[&str]) -> (i32, Vec<Row>) {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.csv");
    let out = dir.path().join("out");
    let threads: &[&str] = if extra.contains(&"-j") {
        &[]
    } else {
        &["-j", "2"]
    };
    let a = bin()
        .args(["solve", "-q"])
        .args(threads)
        .args(extra)
        .arg(file)
        .arg("-o")
        .arg(&out)
        .arg("--stats")
        .arg(&stats)
        .assert();
    let code = a.get_output().status.code().unwrap();
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let rows = stats_rows(&std::fs::read_to_string(&stats).unwrap());
    let output = std::fs::read_to_string(&out).unwrap();
    let is_csv = file.extension().is_some_and(|e| e == "csv");
    let outputs: Vec<String> = if is_csv {
        // Strict: every row has the header's width, ragged input rows too.
        let mut rdr = csv::ReaderBuilder::new().from_reader(output.as_bytes());
        rdr.records()
            .map(|r| r.unwrap().iter().rev().nth(1).unwrap().to_string())
            .collect()
    } else {
        output.lines().map(String::from).collect()
    };
    assert_eq!(outputs.len(), rows.len(), "one output per record");
    let rows = rows
        .into_iter()
        .zip(outputs)
        .map(|(r, output)| Row {
            line: r[1].parse().unwrap(),
            status: r[2].clone(),
            solutions: r[3].clone(),
            guesses: r[5].parse().unwrap(),
            error: r[7].clone(),
            output,
        })
        .collect();
    (code, rows)
}

fn case(name: &str) -> Option<std::path::PathBuf> {
    shared("cases/inputs").map(|d| d.join(name))
}

/// The puzzle text on 1-based `line` of a case file.
fn puzzle_at(file: &Path, line: u64) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let (_, l) = data_lines(&text)
        .into_iter()
        .find(|(n, _)| *n as u64 == line)
        .unwrap();
    l.chars().take(81).collect()
}

fn assert_row(r: &Row, line: u64, status: &str) {
    assert_eq!((r.line, r.status.as_str()), (line, status), "{r:?}");
}

#[test]
fn c01_c02_c10_c16_duplicate_givens_are_invalid_with_units_named() {
    let Some(_) = case("") else { return };
    let expect: &[(&str, &[&str])] = &[
        ("c01_duplicate_givens.txt", &["9 twice in row 1 (r1c2, r1c3); 9 twice in col 2 (r1c2, r5c2); 9 twice in box 1 (r1c2, r1c3)"]),
        ("c02_sparse_duplicates.txt", &["1 twice in row 1 (r1c1, r1c2); 1 twice in box 1 (r1c1, r1c2)", "1 twice in col 1 (r1c1, r9c1)"]),
        ("c10_invalid_board.txt", &["6 twice in row 2 (r2c3, r2c9); 7 twice in row 4 (r4c2, r4c5)"]),
        ("c16_full_grid_invalid.txt", &[
            "5 twice in col 1 (r1c1, r8c1); 6 twice in col 2 (r1c2, r7c2)",
            "1 twice in row 5 (r5c3, r5c5); 1 twice in col 5 (r5c5, r6c5); 1 twice in box 5 (r5c5, r6c5)",
        ]),
    ];
    for (file, errors) in expect {
        let (code, rows) = solve(&case(file).unwrap(), &[]);
        assert_eq!(code, 1, "{file}");
        assert_eq!(rows.len(), errors.len(), "{file}");
        for (i, (r, e)) in rows.iter().zip(*errors).enumerate() {
            assert_row(r, i as u64 + 1, "invalid");
            assert_eq!(r.error, *e, "{file}");
            assert_eq!(r.output, "invalid", "no grid is printed for {file}");
            assert_eq!(r.guesses, 0, "no search for {file}");
        }
    }
}

#[test]
fn c03_blank_symbols_and_bad_characters() {
    let Some(file) = case("c03_bad_characters.txt") else {
        return;
    };
    let sol = "652483917978162435314975628825736149791824563436519872269348751547291386183657294";
    let (code, rows) = solve(&file, &[]);
    assert_eq!(code, 1);
    assert_eq!(rows.len(), 8);
    for r in &rows[..3] {
        // '.', '0' and the documented alias '_'.
        assert_eq!(r.status, "solved");
        assert_eq!(r.output, sol);
    }
    let errors = [
        "r1c1: invalid character '-' (character 1)",
        "r1c1: invalid character 'x' (character 1)",
        "r1c1: invalid character '*' (character 1)",
        "r1c2: invalid character 'a' (character 2)",
        "r1c2: invalid character '\u{FF15}' (character 2)",
    ];
    for (r, e) in rows[3..].iter().zip(errors) {
        assert_eq!(r.status, "invalid");
        assert_eq!(r.error, e);
    }
}

#[test]
fn c06_c07_c09_uniqueness_and_exact_counts() {
    let Some(c06) = case("c06_unique_slow_check.txt") else {
        return;
    };
    let (_, rows) = solve(&c06, &[]);
    assert_row(&rows[0], 1, "solved");
    assert_eq!(
        rows[0].output,
        "321597864497816253865243197579182436642375981138964725986751342214639578753428619"
    );

    let c07 = case("c07_missing_clue.txt").unwrap();
    let (_, rows) = solve(&c07, &["--limit", "1000"]);
    assert_row(&rows[0], 1, "multiple");
    assert_eq!(
        rows[0].solutions, "26",
        "the reported count, exact below the limit"
    );
    // C07: one of 26 solutions must not be written as if it were the answer.
    assert_eq!(rows[0].output, "multiple");
    let (_, first) = solve(&c07, &["--first"]);
    assert_row(&first[0], 1, "solved");
    assert_solves(&puzzle_at(&c07, 1), &first[0].output, "c07 line 1, --first");
    assert_row(&rows[1], 2, "solved");
    assert_eq!(
        rows[1].output,
        "358914672629753841471268395764192583932685417815437269183576924547829136296341758"
    );

    let c09 = case("c09_two_solutions.txt").unwrap();
    let (code, rows) = solve(&c09, &["--limit", "50"]);
    assert_eq!(code, 1);
    assert_eq!(
        (rows[0].status.as_str(), rows[0].solutions.as_str()),
        ("multiple", "2")
    );
    assert_eq!(rows[0].output, "multiple");
    let (_, first) = solve(&c09, &["--first"]);
    assert!([
        "652483917978162435314579628825736149791824563436915872269348751547291386183657294",
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294"
    ]
    .contains(&first[0].output.as_str()));
}

#[test]
fn c13_c14_c15_full_empty_and_unsolvable_grids() {
    let Some(c13) = case("c13_already_solved.txt") else {
        return;
    };
    let (code, rows) = solve(&c13, &[]);
    assert_eq!(code, 0);
    let grid = "987654321246173985351928746128537694634892157795461832519286473472319568863745219";
    for (i, r) in rows.iter().enumerate() {
        assert_row(r, i as u64 + 1, "solved");
        assert_eq!(r.output, grid);
        assert_eq!(r.guesses, 0);
    }
    let c14 = case("c14_empty_grid.txt").unwrap();
    let (_, rows) = solve(&c14, &[]);
    for r in &rows {
        // Counted up to the default limit 2: at least 2.
        assert_eq!(
            (r.status.as_str(), r.solutions.as_str()),
            ("multiple", ">=2")
        );
        assert_eq!(r.output, "multiple");
    }
    let (_, first) = solve(&c14, &["--first"]);
    for r in &first {
        assert_solves(&".".repeat(81), &r.output, "c14, --first");
    }
    let c15 = case("c15_no_candidates.txt").unwrap();
    let (_, rows) = solve(&c15, &[]);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r.status, "unsolvable", "{r:?}");
        assert_eq!(r.output, "unsolvable");
    }
}

#[test]
fn c19_c20_line_endings_comments_and_truncation() {
    let Some(c19) = case("c19_no_final_newline.txt") else {
        return;
    };
    let a = "652483917978162435314975628825736149791824563436519872269348751547291386183657294";
    let b = "256734198891265374347198652514683729728519436963427581135942867689371245472856913";
    let (code, rows) = solve(&c19, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        rows.iter().map(|r| r.output.as_str()).collect::<Vec<_>>(),
        [a, b]
    );
    let (code, rows) = solve(&case("c19_truncated_last_line.txt").unwrap(), &[]);
    assert_eq!(code, 1);
    assert_eq!(rows.len(), 3);
    assert_eq!((rows[0].output.as_str(), rows[1].output.as_str()), (a, b));
    assert_row(&rows[2], 3, "invalid");
    assert_eq!(rows[2].error, "57 characters, expected 81");

    let (code, rows) = solve(&case("c20_tdoku_comments.txt").unwrap(), &[]);
    assert_eq!(code, 0);
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [3, 6, 7]);
    assert_eq!(
        rows[2].output,
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    );
}

#[test]
fn c22_exchange_bank_reads_the_puzzle_field_not_the_hash() {
    let Some(file) = case("c22_exchange_bank_lines.txt") else {
        return;
    };
    let (code, rows) = solve(&file, &[]);
    assert_eq!(code, 0);
    let expect = [
        "183524697547869123629317458235698714471253869896741235354176982962485371718932546",
        "284359176315627894679841523857294631426713958931586742192478365568932417743165289",
        "593826147247915683618734952371482569469357821825169374154673298986241735732598416",
    ];
    assert_eq!(
        rows.iter().map(|r| r.output.as_str()).collect::<Vec<_>>(),
        expect
    );
}

#[test]
fn c23_c39_mixed_validity_keeps_order_and_isolation() {
    let Some(c23) = case("c23_mixed_validity.txt") else {
        return;
    };
    let (code, rows) = solve(&c23, &[]);
    assert_eq!(code, 1);
    let statuses: Vec<&str> = rows.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(
        statuses,
        ["invalid", "solved", "multiple", "unsolvable", "solved"]
    );
    assert_eq!(
        rows[0].error,
        "1 twice in col 5 (r4c5, r6c5); 1 twice in box 5 (r4c5, r6c5)"
    );
    assert_eq!(
        rows[4].output,
        "497258316186439725253716498629381547375964182841572639962145873718623954534897261"
    );

    let c39 = case("c39_order_and_bad_rows.txt").unwrap();
    let mut runs = Vec::new();
    for j in ["1", "2"] {
        let (code, rows) = solve(&c39, &["-j", j]);
        assert_eq!(code, 1);
        runs.push(
            rows.iter()
                .map(|r| (r.line, r.status.clone(), r.error.clone(), r.output.clone()))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(runs[0], runs[1], "1 thread and 2 threads agree");
    let got: Vec<(u64, &str)> = runs[0]
        .iter()
        .map(|(l, s, _, _)| (*l, s.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "solved"),
            (2, "invalid"),
            (3, "solved"),
            (4, "invalid"),
            (5, "invalid"),
            (6, "solved"),
            (7, "invalid"),
            (8, "solved"),
            (10, "unsolvable"),
            (11, "multiple"),
            (12, "solved")
        ]
    );
    let errors: Vec<&str> = runs[0]
        .iter()
        .filter(|r| r.1 == "invalid")
        .map(|r| r.2.as_str())
        .collect();
    assert_eq!(
        errors,
        [
            "80 characters, expected 81",
            "82 characters, expected 81",
            "1 twice in row 1 (r1c1, r1c2); 1 twice in box 1 (r1c1, r1c2)",
            "r5c5: invalid character 'x' (character 41)"
        ]
    );
    for (line, status, _, out) in &runs[0] {
        match status.as_str() {
            "solved" => assert_solves(&puzzle_at(&c39, *line), out, &format!("c39 line {line}")),
            "multiple" => assert_eq!(out, "multiple", "c39 line {line}"),
            _ => {}
        }
    }
}

#[test]
fn c26_c27_c28_adversarial_puzzles() {
    let Some(c26) = case("c26_norvig_hard1.txt") else {
        return;
    };
    let (_, rows) = solve(&c26, &[]);
    assert_eq!(rows[0].status, "multiple");
    assert_eq!(rows[0].output, "multiple");
    let (_, first) = solve(&c26, &["--first"]);
    assert_solves(&puzzle_at(&c26, 1), &first[0].output, "c26, --first");
    let c27 = case("c27_anti_backtracking.txt").unwrap();
    let (_, rows) = solve(&c27, &[]);
    assert_eq!(
        rows[0].output,
        "987654321246173985351928746128537694634892157795461832519286473472319568863745219"
    );
    assert_eq!(rows[1].status, "multiple");
    assert_eq!(rows[1].output, "multiple");
    let (_, first) = solve(&c27, &["--first"]);
    assert_solves(&puzzle_at(&c27, 2), &first[1].output, "c27 line 2, --first");
    let c28 = case("c28_many_solutions.txt").unwrap();
    let (_, rows) = solve(&c28, &["--limit", "100"]);
    assert_eq!(
        (rows[0].status.as_str(), rows[0].solutions.as_str()),
        ("multiple", ">=100"),
        "stops at the limit: a lower bound"
    );
    assert_eq!(rows[0].output, "multiple");
    let (_, first) = solve(&c28, &["--first"]);
    assert_solves(&puzzle_at(&c28, 1), &first[0].output, "c28, --first");
}

#[test]
fn c31_grid_blocks_are_rejected_line_by_line_from_line_1() {
    let Some(file) = case("c31_grid_blocks.txt") else {
        return;
    };
    let (code, rows) = solve(&file, &[]);
    assert_eq!(code, 1);
    assert!(
        rows.iter().all(|r| r.status == "invalid"),
        "no puzzle glued from grid lines"
    );
    assert_eq!(rows[0].line, 1);
    // The error says what the file seems to be and what to do about it.
    assert_eq!(
        rows[0].error,
        "9 characters, expected 81 (a line of a 9-line grid? puzzles are read one to a \
         line: put each grid's 81 cells on one line)"
    );
    // Every line of the five layouts (cells spaced, ruled with `|`, the rule lines) says so.
    assert!(
        rows.iter().all(|r| r.error.ends_with("on one line)")),
        "{:?}",
        rows.iter().find(|r| !r.error.ends_with("on one line)"))
    );
}

#[test]
fn csv_cases_bom_spreadsheet_damage_ragged_rows_and_hrm_layout() {
    let Some(c34) = case("c34_kaggle_bom_crlf.csv") else {
        return;
    };
    let (code, rows) = solve(&c34, &[]);
    assert_eq!(code, 0);
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3, 4]);

    let (_, rows) = solve(&case("c36_kaggle_leading_zeros_lost.csv").unwrap(), &[]);
    let got: Vec<(u64, &str)> = rows.iter().map(|r| (r.line, r.status.as_str())).collect();
    assert_eq!(
        got,
        [
            (2, "solved"),
            (3, "invalid"),
            (4, "solved"),
            (5, "invalid"),
            (6, "invalid")
        ]
    );
    assert!(rows[1]
        .error
        .starts_with("80 characters, expected 81 (all digits: leading zeros lost?"));
    assert!(rows[3].error.contains("scientific notation"));
    assert!(rows[4].error.starts_with("79 characters, expected 81"));

    let (_, rows) = solve(&case("c41_radcliffe_ragged_rows.csv").unwrap(), &[]);
    let got: Vec<(u64, &str, &str)> = rows
        .iter()
        .map(|r| (r.line, r.status.as_str(), r.error.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (2, "solved", ""),
            (3, "invalid", "4 fields, expected 5"),
            (4, "invalid", "6 fields, expected 5"),
            (5, "solved", ""),
            (6, "solved", "")
        ]
    );

    let (code, rows) = solve(&case("c42_hrm_format_duplicates.csv").unwrap(), &[]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), 6);
}

#[test]
fn c37_empty_inputs_are_clean_zero_record_runs() {
    let Some(empty) = case("c37_empty.txt") else {
        return;
    };
    for file in [empty, case("c37_header_only.csv").unwrap()] {
        let (code, rows) = solve(&file, &[]);
        assert_eq!(code, 0);
        assert!(rows.is_empty());
    }
}

#[test]
fn c40_progress_is_silent_when_stderr_is_not_a_terminal() {
    let Some(file) = case("c40_progress_seed.txt") else {
        return;
    };
    let a = bin().args(["solve"]).arg(&file).assert().code(0);
    let out = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert_eq!(out.lines().count(), 23);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(!err.contains('\x1b') && !err.contains('\r'), "{err:?}");
    // The summary: records, wall time, the solver's own time, latency; and on a busy
    // machine the load warning.
    let summary = err
        .lines()
        .filter(|l| !l.contains("warning: the load average at the start"))
        .count();
    assert!(summary <= 4, "only the summary: {err}");
}
