//! Side-by-side speed of the solver's kernels in one process, for A/B work on a shared
//! machine: the puzzles of each file are solved by every kernel this CPU runs in turn, a
//! slice of the file at a time with the order rotated per slice, and each kernel's time is
//! its thread's CPU time (`CLOCK_THREAD_CPUTIME_ID` on Linux, wall time elsewhere), so
//! that time spent descheduled counts for none. Checks that every kernel gives the
//! portable kernel's result for each puzzle.
//!
//! `cargo run --release --example kernels -- [--unique] [--passes N] FILE...` (81-character
//! lines, `.` or `0` for blanks; other lines skipped). Prints puzzles per CPU second per
//! kernel and the ratios to the portable kernel.

use std::time::Instant;

use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::solver::{solve_with, Kernel};

/// Seconds of CPU time this thread has used (wall time where that clock is missing).
fn cpu_seconds(start: Instant) -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid clock id and a valid out-pointer.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    start.elapsed().as_secs_f64()
}

fn main() {
    let mut limit = 1;
    let mut passes = 3;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--unique" => limit = 2,
            "--passes" => {
                passes = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--passes takes a number")
            }
            _ => files.push(a),
        }
    }
    let kernels = Kernel::available_kernels();
    let start = Instant::now();
    for file in files {
        let text = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let puzzles: Vec<Grid> = text
            .split(|&b| b == b'\n')
            .filter(|l| l.len() >= 81)
            .filter_map(|l| parse_cells(&l[..81]).ok())
            .collect();
        let mut secs = vec![0.0f64; kernels.len()];
        let mut guesses = 0u64;
        for pass in 0..passes {
            for (s, slice) in puzzles.chunks(500).enumerate() {
                let want: Vec<_> = slice
                    .iter()
                    .map(|p| solve_with(p, limit, Kernel::Portable).expect("portable"))
                    .collect();
                for j in 0..kernels.len() {
                    let k = (j + s + pass) % kernels.len();
                    let t0 = cpu_seconds(start);
                    for (p, w) in slice.iter().zip(&want) {
                        let got = solve_with(p, limit, kernels[k]).expect("available");
                        assert_eq!(&got, w, "{:?}: {p}", kernels[k]);
                    }
                    secs[k] += cpu_seconds(start) - t0;
                }
                if pass == 0 {
                    guesses += want.iter().map(|w| u64::from(w.guesses)).sum::<u64>();
                }
            }
        }
        let n = (puzzles.len() * passes) as f64;
        let mode = if limit == 1 { "first" } else { "unique" };
        print!("{file} ({} puzzles, {mode}", puzzles.len());
        println!(
            ", {:.2} guesses/puzzle):",
            guesses as f64 / puzzles.len() as f64
        );
        for (k, s) in kernels.iter().zip(&secs) {
            println!(
                "  {:9} {:>10.0} puzzles/CPU s  {:.3}x portable",
                k.name(),
                n / s,
                secs[0] / s
            );
        }
    }
}
