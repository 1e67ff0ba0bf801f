//! A line longer than the longest record read (4 MiB) in a memory-mapped file (issue 33,
//! item 6): the same outcome as streamed or read from standard input (which row is invalid,
//! with what reason, the rows after it, the exit code), and memory bounded as a stream's.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use common::{assert_solves, bin, P};

/// Bytes of the long line: over the 4 MiB limit, small enough to write quickly.
const LONG: usize = 5 << 20;

/// The ways a file is read.
const WAYS: [&str; 3] = ["mapped", "--no-mmap", "stdin"];

/// What a run gave ([`solve`]).
struct Outcome {
    /// The exit code.
    code: Option<i32>,
    /// `out.csv`, its header first, without its input column.
    out: Vec<Vec<String>>,
    /// `stats.csv` without its input column, and without its times.
    stats: Vec<Vec<String>>,
    /// The lines of stderr, the input's name written `IN`.
    err: Vec<String>,
}

/// Runs `solve -q -j 2 -o out.csv --stats stats.csv` on `file` read `way` (one of
/// [`WAYS`]).
fn solve(file: &Path, way: &str) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let (out, stats) = (dir.path().join("out.csv"), dir.path().join("stats.csv"));
    let mut cmd = bin();
    cmd.args(["solve", "-q", "-j", "2", "-o", out.to_str().unwrap()])
        .args(["--stats", stats.to_str().unwrap()]);
    let name = match way {
        "stdin" => {
            cmd.arg("-").pipe_stdin(file).unwrap();
            "-".to_string()
        }
        "--no-mmap" => {
            cmd.arg("--no-mmap").arg(file);
            file.display().to_string()
        }
        _ => {
            cmd.arg(file);
            file.display().to_string()
        }
    };
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{way}: {err}");
    let err = err
        .lines()
        .map(|l| l.replace(&format!(" {name}:"), " IN:"))
        .collect();
    let mut stats = common::stats_rows(&fs::read_to_string(&stats).unwrap());
    for row in &mut stats {
        row[6].clear(); // solve_ns: a time, not an outcome
    }
    Outcome {
        code: o.status.code(),
        out: table(&out),
        stats,
        err,
    }
}

/// The rows of the CSV at `path`, its header first, without an `input` column (the input's
/// name, `-` for standard input).
fn table(path: &Path) -> Vec<Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    let rows: Vec<Vec<String>> = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let input = rows[0].iter().position(|c| c == "input");
    rows.into_iter()
        .map(|mut r| {
            if let Some(i) = input {
                r.remove(i);
            }
            r
        })
        .collect()
}

/// A long line among good rows, as a lines file, a plain CSV row, a CSV row whose quote
/// opens and is never closed on it (the `csv` crate read such a row on over the rows after
/// it, which were lost), and a JSON Lines record: mapped, streamed and from standard input,
/// the long line is one invalid record on its line, and the rows around it are solved in
/// order.
#[test]
fn a_long_line_gives_the_same_outcome_mapped_and_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let long = "1".repeat(LONG);
    let files = [
        ("lines.txt", format!("{P}\n{long}\n{P}\n{P}\n"), 2),
        (
            "plain.csv",
            format!("puzzle,x\n{P},1\n{P},{long}\n{P},2\n{P},3\n"),
            3,
        ),
        (
            "quoted.csv",
            format!("puzzle,x\n{P},1\n{P},\"{long}\n{P},2\n{P},\"a\"\n{P},3\n"),
            3,
        ),
        (
            "records.jsonl",
            format!("{{\"puzzle\":\"{P}\"}}\n{{\"puzzle\":\"{long}\n{{\"puzzle\":\"{P}\"}}\n"),
            2,
        ),
    ];
    for (name, text, at) in files {
        let file = dir.path().join(name);
        fs::write(&file, &text).unwrap();
        let lines = text.lines().count();
        let data_lines = lines - usize::from(name.ends_with(".csv")); // the CSV header
        let first = solve(&file, "mapped");
        for way in WAYS {
            let Outcome {
                code,
                out,
                stats,
                err,
            } = solve(&file, way);
            let what = format!("{name} {way}");
            assert_eq!(code, Some(1), "{what}: {err:?}");
            assert_eq!(stats.len(), data_lines, "{what}: a record per data line");
            for (i, row) in stats.iter().enumerate() {
                // record,line,status,...
                assert_eq!(row[0], i.to_string(), "{what}");
                let line = i + lines + 1 - data_lines;
                assert_eq!(row[1], line.to_string(), "{what}: row {i}");
                let want = if line == at { "invalid" } else { "solved" };
                assert_eq!(row[2], want, "{what}: line {line}");
            }
            let reason = format!("IN:{at}: ");
            let said: Vec<&String> = err.iter().filter(|l| l.contains(&reason)).collect();
            assert_eq!(said.len(), 1, "{what}: {err:?}");
            assert!(
                said[0].contains("a line of more than 4194304 bytes"),
                "{what}: {said:?}"
            );
            // Every row as wide as the header (`table` reads the CSV strictly).
            assert_eq!(out.len(), 1 + data_lines, "{what}: header and every row");
            for row in &out[1..] {
                let (solution, status) = (&row[row.len() - 2], &row[row.len() - 1]);
                if status == "solved" {
                    assert_solves(P, solution, &what);
                }
            }
            assert_eq!(
                (&code, &out, &stats),
                (&first.code, &first.out, &first.stats),
                "{what}"
            );
            let errors = |e: &[String]| -> Vec<String> {
                e.iter().filter(|l| l.contains(" IN:")).cloned().collect()
            };
            assert_eq!(errors(&err), errors(&first.err), "{what}");
        }
    }
}

/// Peak memory of a mapped file holding one line of 50 MB with no line end, as lines and as
/// a CSV row with a quote left open on it: at most three times a run on a one-puzzle file,
/// plus the file (its pages are mapped, and counted in the peak resident set as a mapped
/// input's are; they are the page cache's, not the process's heap), plus 16 MiB.
///
/// The peak is the child's `ru_maxrss` from `wait4`. The child is started by `fork` (a
/// `pre_exec` hook keeps std from `posix_spawn`'s `vfork`, whose child would carry this
/// process's own peak over `exec`): it then starts from this process's resident size at the
/// fork, which the baseline run shares.
#[cfg(target_os = "linux")]
#[test]
fn a_long_line_in_a_mapped_file_keeps_memory_bounded() {
    use std::os::unix::process::CommandExt;

    /// `solve` on `file` as a forked child; its exit code and peak resident set, bytes.
    fn peak(file: &Path, out: &Path) -> (i32, u64) {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"));
        cmd.args(["solve", "-q", "-j", "2", "-o"])
            .arg(out)
            .arg(file)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: the hook does nothing; it only makes std fork rather than vfork.
        unsafe { cmd.pre_exec(|| Ok(())) };
        let child = cmd.spawn().unwrap();
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: a zeroed rusage is valid; `pid` is our child, not waited for elsewhere.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(waited, pid, "wait4");
        drop(child);
        assert!(libc::WIFEXITED(status), "{file:?}: status {status}");
        // Linux gives ru_maxrss in KiB.
        (libc::WEXITSTATUS(status), usage.ru_maxrss as u64 * 1024)
    }

    const SIZE: usize = 50_000_000;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let small = dir.path().join("small.txt");
    fs::write(&small, format!("{P}\n")).unwrap();
    for (name, head) in [
        ("long.txt", String::new()),
        ("long.csv", format!("puzzle,x\n{P},\"")),
    ] {
        let file = dir.path().join(name);
        let mut w = std::io::BufWriter::new(fs::File::create(&file).unwrap());
        w.write_all(head.as_bytes()).unwrap();
        let block = vec![b'1'; 1 << 20];
        let mut left = SIZE - head.len();
        while left > 0 {
            let n = left.min(block.len());
            w.write_all(&block[..n]).unwrap();
            left -= n;
        }
        w.into_inner().unwrap().sync_all().unwrap();
        let (code, baseline) = peak(&small, &out);
        assert_eq!(code, 0, "the one-puzzle file");
        let (code, mapped) = peak(&file, &out);
        assert_eq!(code, 1, "{name}: the long line is invalid");
        let bound = 3 * baseline + SIZE as u64 + (16 << 20);
        assert!(
            mapped <= bound,
            "{name}: peak {} MB mapped, over {} MB (baseline {} MB)",
            mapped >> 20,
            bound >> 20,
            baseline >> 20
        );
    }
}
