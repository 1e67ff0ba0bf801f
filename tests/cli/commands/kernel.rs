//! `SUDOKU_BATCH_KERNEL`: every kernel this CPU runs gives the same solve output and is
//! named in bench's export and in solve's report; an unknown kernel, or one the CPU lacks,
//! stops the binary with one line and exit status 2.

use crate::common;

use common::bin;
use sudoku_batch::solver::Kernel;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt");

/// `solve` on the sample with `kernel` forced: its exit status, stdout and stderr.
fn solve_with(kernel: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    bin()
        .env("SUDOKU_BATCH_KERNEL", kernel)
        .current_dir(dir.path())
        .args(["solve", "-q", "-j", "1", SAMPLE, "-o", "-"])
        .output()
        .unwrap()
}

#[test]
fn every_available_kernel_writes_the_same_solutions() {
    let want = solve_with("portable");
    assert!(
        want.status.success(),
        "{}",
        String::from_utf8_lossy(&want.stderr)
    );
    let lines = want
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert!(lines >= 100, "only {lines} output lines");
    for k in Kernel::available_kernels() {
        let got = solve_with(k.name());
        assert!(
            got.status.success(),
            "{}",
            String::from_utf8_lossy(&got.stderr)
        );
        assert_eq!(got.stdout, want.stdout, "{k:?}");
    }
}

/// The JSON that `args` (with `kernel` forced) writes to the file `out` it names last.
fn json_written(kernel: &str, args: &[&str], out: &std::path::Path) -> serde_json::Value {
    let run = bin()
        .env("SUDOKU_BATCH_KERNEL", kernel)
        .args(args)
        .arg(out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_slice(&std::fs::read(out).unwrap()).unwrap()
}

#[test]
fn bench_and_the_report_name_the_forced_kernel() {
    for k in Kernel::available_kernels() {
        let dir = tempfile::tempdir().unwrap();
        let bench = [
            "bench",
            "-q",
            "-j",
            "1",
            "--min-time",
            "0.001",
            "--warmup",
            "0",
            SAMPLE,
            "--export-json",
        ];
        let v = json_written(k.name(), &bench, &dir.path().join("b.json"));
        assert_eq!(v["provenance"]["solver_kernel"], k.name());
        let solve = ["solve", "-q", SAMPLE, "-o", "-", "--report"];
        let v = json_written(k.name(), &solve, &dir.path().join("r.json"));
        assert_eq!(v["solver_kernel"], k.name());
    }
}

#[test]
fn an_unknown_or_missing_kernel_is_refused_with_one_line() {
    let mut refused = vec!["sse9".to_string(), "AVX2".to_string()];
    refused.extend(
        Kernel::ALL
            .iter()
            .filter(|k| !k.available())
            .map(|k| k.name().to_string()),
    );
    for name in &refused {
        let out = solve_with(name);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.starts_with("sudoku-batch: error: SUDOKU_BATCH_KERNEL=")
                && !err.contains("panicked"),
            "{name}: {err}"
        );
        assert!(out.stdout.is_empty(), "{name}");
    }
    for name in ["auto", ""] {
        assert!(solve_with(name).status.success(), "{name:?}");
    }
}
