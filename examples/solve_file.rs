//! Times the solver over a puzzle file, single thread.
//!
//! Usage: `cargo run --release --example solve_file -- FILE [LIMIT] [--check] [--parse-only]`
//!
//! FILE holds one puzzle a line, or is a CSV whose first column is the puzzle. Lines that
//! start with `#` or whose first field is shorter than 81 bytes (headers) are skipped; the
//! first 81 bytes of the field are parsed with `parse_cells`. Prints puzzles/s,
//! guesses/puzzle and % solved without a guess. With `--check`, verifies every solution is
//! a complete valid grid that keeps the givens and prints the histogram of solution counts.
use std::time::Instant;

use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::solver::solve;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: solve_file FILE [LIMIT] [--check]");
    let limit: u32 = args
        .get(2)
        .filter(|a| !a.starts_with("--"))
        .map_or(1, |a| a.parse().expect("LIMIT is a number"));
    let check = args.iter().any(|a| a == "--check");
    // Only read and parse: the process's own overhead, for CPU-time comparisons.
    let parse_only = args.iter().any(|a| a == "--parse-only");
    let text = std::fs::read(path).expect("read FILE");
    let puzzles: Vec<Grid> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.starts_with(b"#"))
        .filter_map(|l| {
            let field = l.split(|&b| b == b',').next().unwrap_or(l);
            (field.len() >= 81).then(|| parse_cells(&field[..81]).expect("puzzle"))
        })
        .collect();
    if parse_only {
        println!("{path}: {} puzzles parsed", puzzles.len());
        return;
    }

    let start = Instant::now();
    let mut guesses = 0u64;
    let mut no_guess = 0usize;
    let mut counts = [0usize; 4];
    let mut bad = 0usize;
    for p in &puzzles {
        let s = solve(p, limit);
        guesses += u64::from(s.guesses);
        no_guess += usize::from(s.guesses == 0);
        counts[(s.count as usize).min(3)] += 1;
        if check {
            if let Some(g) = s.grid {
                bad += usize::from(!(g.is_complete_valid() && g.keeps_givens(p)));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = puzzles.len();
    println!(
        "{path}: {n} puzzles, limit {limit}, {secs:.3} s, {:.0} puzzles/s, {:.2} guesses/puzzle, {:.1}% no guess",
        n as f64 / secs,
        guesses as f64 / n as f64,
        100.0 * no_guess as f64 / n as f64
    );
    if check {
        println!(
            "  solutions: 0: {}, 1: {}, 2: {}, 3+: {}; invalid grids: {bad}",
            counts[0], counts[1], counts[2], counts[3]
        );
    }
}
