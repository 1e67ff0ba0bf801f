//! A memory-mapped input that another process truncates mid-run (issue 10, item 4): the run
//! stops with one line (exit 2), commits no output and leaves no temporary behind, instead of
//! dying with SIGBUS (exit 135).

#![cfg(target_os = "linux")]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Puzzles that take the solver tens of microseconds each (from the "hardest" lists), so
/// that 200 MB of them keep two threads busy for many seconds: far longer than the test
/// needs to see the run start and truncate the file under it.
const HARD: [&str; 3] = [
    "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
    "12..4......5.69.1...9...5.........7.7...52.9..3......2.9.6...5.4..9..8.1..3...9.4",
];

/// Writes about `bytes` bytes of [`HARD`] puzzles, one a line, to `path`.
fn write_puzzles(path: &Path, bytes: usize) {
    let block: String = HARD
        .iter()
        .flat_map(|p| [*p, "\n"])
        .collect::<String>()
        .repeat(4096);
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for _ in 0..bytes.div_ceil(block.len()) {
        out.write_all(block.as_bytes()).unwrap();
    }
    out.flush().unwrap();
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Whether a temporary output in `dir` holds results yet: the run has read records from
/// the map and is solving.
fn results_written(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().any(|e| {
        let e = e.unwrap();
        e.file_name()
            .to_string_lossy()
            .starts_with(".sudoku-batch-")
            && e.metadata().is_ok_and(|m| m.len() > 0)
    })
}

#[test]
fn issue10_a_mapped_input_truncated_mid_run_stops_with_one_line_and_commits_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.txt");
    write_puzzles(&input, 200_000_000);
    let before = std::fs::metadata(&input).unwrap().len();
    let d = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["solve", "-j", "2", "--quiet", &d("big.txt")])
        .args(["-o", &d("out.txt"), "--stats", &d("stats.csv")])
        .args(["--report", &d("report.json")])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the run has demonstrably started (results in a temporary output); it
    // cannot end first, as the whole input takes many seconds. Should it end anyway, the
    // test fails below rather than waiting.
    while !results_written(dir.path()) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // Another process (here, us) truncates the file under the map.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&input)
        .unwrap()
        .set_len(100)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    let line = lines[0];
    assert!(line.contains(&d("big.txt")), "names the file: {line}");
    assert!(
        line.contains(&format!("it shrank from {before} to 100 bytes")),
        "says what happened: {line}"
    );
    assert!(line.contains("memory-mapped"), "{line}");
    assert!(line.contains("--no-mmap"), "names the way out: {line}");
    // No output committed, no temporary left behind: only the input is there.
    assert_eq!(names(dir.path()), ["big.txt"]);
}
