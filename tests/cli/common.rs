//! Helpers shared by the integration tests: the binary, an independent solution checker,
//! and the location of `../shared` (present on developer machines and CI).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A unique puzzle (25 givens, `.` blanks) and its solution.
pub const P: &str =
    ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
/// The one solution of [`P`].
pub const S: &str =
    "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

/// Sends SIGINT (what Ctrl-C sends) to process `pid` with `kill -INT`, asserting that
/// `kill` delivered it.
pub fn send_sigint(pid: u32) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -INT {pid}");
}

/// The `sudoku-batch` binary built by cargo.
pub fn bin() -> Command {
    Command::cargo_bin("sudoku-batch").expect("the binary is built")
}

/// Asserts that a finished run exited 0, showing its stderr when it did not.
pub fn assert_exit_ok(o: &std::process::Output) {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Asserts that `verify INPUT --puzzle-column PUZZLE --solution-column SOLUTION` is refused
/// because both name one column: exit 2, one line naming the file and the flag.
pub fn assert_one_column_refused(input: &str, puzzle: &str, solution: &str) {
    let o = bin()
        .args(["verify", input, "--puzzle-column", puzzle])
        .args(["--solution-column", solution])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{solution}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(input), "names the file: {err}");
    let reason = format!("--solution-column \"{solution}\" is the puzzle column (\"{puzzle}\")");
    assert!(err.contains(&reason), "{err}");
}

/// `../shared/<sub>` beside the repo, or `None` with a clear note that the tests using it
/// are skipped.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: {} is not present; the tests that read it did not run",
            dir.display()
        );
        None
    }
}

/// Digits of an 81-character puzzle or grid string, `0` for any blank (`.`, `0`, `_`).
pub fn cells(s: &str) -> Vec<u8> {
    s.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

/// Panics unless `solution` is a complete valid grid that keeps every given of `puzzle`.
/// Written independently of the library: each row, column and box must hold 1..=9 once.
pub fn assert_solves(puzzle: &str, solution: &str, context: &str) {
    let s = cells(solution);
    assert_eq!(
        s.len(),
        81,
        "{context}: solution {solution:?} is not 81 cells"
    );
    assert!(
        s.iter().all(|&d| (1..=9).contains(&d)),
        "{context}: blank in {solution}"
    );
    for k in 0..9 {
        let row: Vec<u8> = (0..9).map(|i| s[k * 9 + i]).collect();
        let col: Vec<u8> = (0..9).map(|i| s[i * 9 + k]).collect();
        let bx: Vec<u8> = (0..9)
            .map(|i| s[(k / 3 * 3 + i / 3) * 9 + k % 3 * 3 + i % 3])
            .collect();
        for unit in [row, col, bx] {
            let mut seen = [false; 10];
            for d in unit {
                assert!(
                    !seen[d as usize],
                    "{context}: {d} repeats in a unit of {solution}"
                );
                seen[d as usize] = true;
            }
        }
    }
    let p = cells(puzzle);
    for (i, (&g, &d)) in p.iter().zip(&s).enumerate() {
        assert!(
            g == 0 || g == d,
            "{context}: cell {i} given {g} but solution has {d}"
        );
    }
}

/// The data lines of a lines file: not blank, not `#` comments, trailing blanks removed.
pub fn data_lines(text: &str) -> Vec<(usize, String)> {
    text.trim_start_matches('\u{feff}')
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end().to_string()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Parses a `--stats` CSV into rows of fields (header removed, checked), without the `input`
/// column (checked not empty), so the other columns keep their indices: `record,line,status,
/// solutions,clues,guesses,solve_ns,error`.
pub fn stats_rows(text: &str) -> Vec<Vec<String>> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "record",
            "input",
            "line",
            "status",
            "solutions",
            "clues",
            "guesses",
            "solve_ns",
            "error"
        ]
    );
    rows_without_input(rdr)
}

/// The rows of a CSV of the tool's per-record outputs (`record,input,...`), each without
/// its `input` column (checked not empty), so the other columns keep their indices.
pub fn rows_without_input<R: std::io::Read>(mut rdr: csv::Reader<R>) -> Vec<Vec<String>> {
    rdr.records()
        .map(|r| {
            let mut row: Vec<String> = r.unwrap().iter().map(String::from).collect();
            let input = row.remove(1);
            assert!(!input.is_empty(), "{row:?}");
            row
        })
        .collect()
}

/// Valid, multiple-solution, malformed and clashing records, none isomorphic to another.
pub fn mixed_input(dir: &std::path::Path) -> String {
    let fewer = format!(".{}", &P[1..]).replacen(|c: char| c.is_ascii_digit(), ".", 1);
    let clash = format!("55{}", &P[2..]);
    let text = format!(
        "# a comment\n{P}\n{fewer}\nnot a puzzle\n\n{}\n{clash}\n",
        ".".repeat(81)
    );
    let path = dir.join("in.txt");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The statuses of [`mixed_input`]'s records (the second, a given fewer, may have one
/// solution or several).
pub fn assert_statuses<S: AsRef<str>>(status: &[S]) {
    let status: Vec<&str> = status.iter().map(AsRef::as_ref).collect();
    assert_eq!(status.len(), 5, "{status:?}");
    assert!(matches!(status[1], "solved" | "multiple"), "{status:?}");
    assert_eq!(
        [status[0], status[2], status[3], status[4]],
        ["solved", "invalid", "multiple", "invalid"]
    );
}

/// Writes [`mixed_input`] through `solve` as `t.EXT`, converts it back to CSV with `dedup`
/// (which copies every column of its input) and checks that the CSV equals `solve`'s own
/// CSV of the input, byte for byte: every row kept, bad rows included. Returns `t.EXT`.
pub fn assert_round_trip(dir: &Path, ext: &str) -> String {
    let input = mixed_input(dir);
    let s = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let table = s(&format!("t.{ext}"));
    for args in [
        vec![
            "solve",
            &input,
            "--output-format",
            "csv",
            "-o",
            &s("direct.csv"),
        ],
        vec!["solve", &input, "-o", &table],
        vec!["dedup", &table, "-o", &s("back.csv")],
    ] {
        let o = bin().args(&args).arg("-q").output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: invalid records");
    }
    let direct = std::fs::read_to_string(s("direct.csv")).unwrap();
    assert_eq!(direct.lines().count(), 1 + 5, "header and five records");
    assert_eq!(std::fs::read_to_string(s("back.csv")).unwrap(), direct);
    table
}

/// Reads `path`: the CSV of `solve` run again on the table that [`assert_round_trip`] wrote
/// (`record,input,line,puzzle,solution,status`, then the added solution and status). Checks
/// that every row came back in order with its record number and its input (`in.txt`, as
/// [`mixed_input`] names it), the statuses of [`mixed_input`],
/// and the same status and solution as the first run (`from`: the table's format, for
/// messages). Returns the rows.
pub fn assert_solved_again(path: &Path, from: &str) -> Vec<csv::StringRecord> {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let status: Vec<&str> = rows.iter().map(|r| &r[7]).collect();
    assert_statuses(&status);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[0], i.to_string(), "record numbers kept");
        assert!(r[1].ends_with("in.txt"), "row {i}: input {:?}", &r[1]);
        assert_eq!(&r[5], &r[7], "row {i}: the same status from {from}");
        assert_eq!(&r[4], &r[6], "row {i}: the same solution from {from}");
    }
    rows
}
