//! JSON Lines in and out (issue 13): what the tool writes as `.jsonl` it reads back, every
//! row kept, bad rows as one invalid record each; and the `.npz` arrays hold the rows.

use crate::common;

use common::{
    assert_one_column_refused, assert_round_trip, assert_solved_again, assert_solves,
    assert_statuses, bin, cells, mixed_input, P, S,
};

/// Runs `sudoku-batch ARGS -q`; returns the exit code.
fn run(args: &[&str]) -> Option<i32> {
    let o = bin().args(args).arg("-q").output().unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.status.code()
}

#[test]
fn csv_to_jsonl_to_csv_keeps_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let table = assert_round_trip(dir.path(), "jsonl");
    let p = |name: &str| dir.path().join(name);
    let s = |name: &str| p(name).to_str().unwrap().to_string();
    // `solve` reads its own JSON Lines: every row again, in order, same outcome, with the
    // JSON Lines' columns copied before the new solution and status.
    run(&["solve", &table, "-o", &s("again.csv")]);
    let mut rdr = csv::Reader::from_path(p("again.csv")).unwrap();
    assert_eq!(
        rdr.headers().unwrap(),
        vec![
            "record",
            "input",
            "line",
            "puzzle",
            "solution",
            "status",
            "solution_2",
            "status_2"
        ]
    );
    let rows = assert_solved_again(&p("again.csv"), "the JSON Lines");
    assert_eq!(&rows[0][6], S);
    assert_solves(P, &rows[0][6], "record 0 read from JSON Lines");
    assert_eq!(cells(&rows[0][3]), cells(P));
}

#[test]
fn jsonl_columns_lines_shards_and_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let p0 = P.replace('.', "0");
    // Keys chosen by name, a grid as an array of numbers, a blank line, a broken line and a
    // null puzzle: `line` is the physical line, every record is counted.
    let grid: Vec<String> = cells(P).iter().map(u8::to_string).collect();
    let text = format!(
        "{{\"id\":1,\"q\":\"{p0}\",\"a\":\"{S}\"}}\n\n{{\"id\":2,\"q\":[{}]}}\n{{\"id\":3,\n\
         {{\"id\":4,\"q\":null}}\n{{\"id\":5,\"a\":null,\"q\":\"{p0}\"}}\n",
        grid.join(",")
    );
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, text).unwrap();
    let input = input.to_str().unwrap();
    let stats = dir.path().join("stats.csv");
    let code = run(&[
        "solve",
        input,
        "--puzzle-column",
        "q",
        "-o",
        "-",
        "--stats",
        stats.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "two invalid records");
    let mut rdr = csv::Reader::from_path(&stats).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let got: Vec<(&str, &str, &str)> = rows.iter().map(|r| (&r[0], &r[2], &r[3])).collect();
    assert_eq!(
        got,
        [
            ("0", "1", "solved"),
            ("1", "3", "solved"),
            ("2", "4", "invalid"),
            ("3", "5", "invalid"),
            ("4", "6", "solved"),
        ]
    );
    // The broken line is named by its line in the file (4) and its reason, with
    // the column in the line; serde's own "at line 1" (its line within the record) is gone.
    let broken = "not a JSON object: EOF while parsing a value (column 8)";
    assert_eq!(&rows[2][8], broken);
    let o = bin()
        .args([
            "solve",
            input,
            "--puzzle-column",
            "q",
            "-o",
            "/dev/null",
            "-q",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("in.jsonl:4: row: {broken}")), "{err}");
    assert!(!err.contains(" at line "), "{err}");
    // A broken first data line stops the run (its keys would name the columns): the
    // message names its line in the file too.
    let first = dir.path().join("first.jsonl");
    std::fs::write(&first, format!("# ids\n\n{{id: 1}}\n{{\"q\":\"{p0}\"}}\n")).unwrap();
    let o = bin()
        .args(["solve", "--input-format", "jsonl", "-o", "-"])
        .arg(&first)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("first.jsonl: line 3: not a JSON object: key must be a string (column 2)"),
        "{err}"
    );
    assert!(!err.contains(" at line "), "{err}");
    // `--input-format` is obeyed: this is no Parquet file.
    let o = bin()
        .args(["solve", input, "--input-format", "parquet", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a Parquet file"));
    // Shards of a JSON Lines file, joined, are the whole run.
    let whole = bin()
        .args(["solve", input, "--puzzle-column", "q", "-o", "-", "-q"])
        .output()
        .unwrap()
        .stdout;
    let mut joined = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let o = bin()
            .args(["solve", input, "--puzzle-column", "q", "-o", "-", "-q"])
            .args(["--shard", &shard])
            .output()
            .unwrap();
        let out = o.stdout;
        // Each shard writes the header.
        let body = if k == 1 {
            &out[..]
        } else {
            &out[out.iter().position(|&b| b == b'\n').unwrap() + 1..]
        };
        joined.extend_from_slice(body);
    }
    assert_eq!(
        String::from_utf8(joined).unwrap(),
        String::from_utf8(whole).unwrap()
    );
}

#[test]
fn npz_arrays_have_the_rows_shapes_and_types() {
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_input(dir.path());
    let npz = dir.path().join("s.npz");
    run(&["solve", &input, "-o", npz.to_str().unwrap()]);
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&npz).unwrap()).unwrap();
    let mut array = |name: &str| {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut zip.by_name(name).unwrap(), &mut bytes).unwrap();
        npyz::NpyFile::new(std::io::Cursor::new(bytes)).unwrap()
    };
    let puzzles = array("puzzles.npy");
    assert_eq!(puzzles.shape(), [5, 81]);
    assert_eq!(puzzles.dtype().descr(), "'|u1'");
    let puzzles: Vec<u8> = puzzles.into_vec().unwrap();
    assert_eq!(puzzles[..81], cells(P)[..], "0 = blank");
    assert!(
        puzzles[162..243].iter().all(|&d| d == 0),
        "malformed: all blank"
    );
    assert!(puzzles[243..324].iter().all(|&d| d == 0), "the empty grid");
    let solutions: Vec<u8> = array("solutions.npy").into_vec().unwrap();
    assert_eq!(solutions.len(), 5 * 81);
    assert_eq!(solutions[..81], cells(S)[..]);
    let record = array("record.npy");
    assert_eq!(record.shape(), [5]);
    assert_eq!(record.into_vec::<i64>().unwrap(), [0, 1, 2, 3, 4]);
    let line: Vec<i64> = array("line.npy").into_vec().unwrap();
    assert_eq!(
        line,
        [2, 3, 4, 6, 7],
        "1-based lines, comment and blank skipped"
    );
    let status = array("status.npy");
    assert_eq!(status.shape(), [5]);
    let bytes: Vec<Vec<u8>> = status.into_vec().unwrap();
    let words: Vec<String> = bytes
        .iter()
        .map(|b| {
            String::from_utf8_lossy(b)
                .trim_end_matches('\0')
                .to_string()
        })
        .collect();
    assert_statuses(&words);
}

#[test]
fn canon_writes_tables_through_the_shared_writers() {
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_input(dir.path());
    let s = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    run(&["canon", &input, "-o", &s("forms.txt")]);
    let forms = std::fs::read_to_string(s("forms.txt")).unwrap();
    let forms: Vec<&str> = forms.lines().collect();
    assert_eq!(forms.len(), 5);
    // .jsonl by the extension: record,input,line,puzzle,minlex,automorphisms,status.
    run(&["canon", &input, "-o", &s("c.jsonl")]);
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(s("c.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    for (i, (r, form)) in rows.iter().zip(&forms).enumerate() {
        assert_eq!(r["record"], i as u64);
        assert_eq!(r["input"], input.as_str(), "row {i}");
        if *form == "invalid" {
            assert_eq!(r["status"], "invalid", "row {i}");
            assert!(r["minlex"].is_null() && r["automorphisms"].is_null());
        } else {
            assert_eq!(r["status"], "ok", "row {i}");
            assert_eq!(cells(r["minlex"].as_str().unwrap()), cells(form), "row {i}");
            assert!(r["automorphisms"].as_u64().unwrap() >= 1);
        }
    }
    assert_eq!(cells(rows[0]["puzzle"].as_str().unwrap()), cells(P));
    // --output-format wins over the extension; .npz names the grid arrays in the plural.
    run(&["canon", &input, "-o", &s("c.out"), "--output-format", "npz"]);
    let mut zip = zip::ZipArchive::new(std::fs::File::open(s("c.out")).unwrap()).unwrap();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name("minlexes.npy").unwrap(), &mut bytes).unwrap();
    let a = npyz::NpyFile::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(a.shape(), [5, 81]);
    let grids: Vec<u8> = a.into_vec().unwrap();
    assert_eq!(grids[..81], cells(forms[0])[..]);
}

/// One key cannot be both the puzzle and the solution column, in JSON Lines as in CSV: named
/// so by the user, a fatal error (exit 2, one line naming the file and the flag); found so by
/// its name (`--puzzle-column answer`), the input has no stored solution, so the puzzle is
/// solved rather than checked against itself.
#[test]
fn jsonl_puzzle_key_is_never_the_solution_key() {
    let dir = tempfile::tempdir().unwrap();
    let p0 = P.replace('.', "0");
    let input = dir.path().join("pairs.jsonl");
    std::fs::write(
        &input,
        format!("{{\"id\":7,\"grid\":\"{S}\",\"answer\":\"{p0}\"}}\n"),
    )
    .unwrap();
    let input = input.to_str().unwrap();
    for (puzzle, solution) in [("grid", "grid"), ("grid", "2"), ("answer", "answer")] {
        assert_one_column_refused(input, puzzle, solution);
    }
    // `answer` is a known solution key; chosen as the puzzle, it stores no solution: the
    // puzzle is solved, not rejected as its own (blank-holding) solution.
    let rejects = dir.path().join("rejects.csv");
    let o = bin()
        .args([
            "verify",
            input,
            "--puzzle-column",
            "answer",
            "-q",
            "--rejects",
        ])
        .arg(&rejects)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let rejected = std::fs::read_to_string(&rejects).unwrap();
    assert_eq!(rejected.lines().count(), 1, "header only: {rejected}");
}
