//! The `sudoku` crate's strategy solver on a line-per-puzzle file, with the techniques
//! sudoku-batch's `trace` has (no guessing: the crate's strategy solver has none).
//! Usage: peer-strategy FILE -> "N puzzles, S solved, T s, P puzzles/s" on stderr.
use std::time::Instant;
use sudoku::strategy::{Strategy, StrategySolver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("read input");
    let puzzles: Vec<&str> = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .map(|l| &l[..81])
        .collect();
    let strategies = [
        Strategy::NakedSingles,
        Strategy::HiddenSingles,
        Strategy::LockedCandidates,
        Strategy::NakedPairs,
        Strategy::XWing,
        Strategy::HiddenPairs,
        Strategy::NakedTriples,
        Strategy::Swordfish,
        Strategy::HiddenTriples,
        Strategy::XyWing,
        Strategy::XyzWing,
        Strategy::NakedQuads,
        Strategy::HiddenQuads,
    ];
    let start = Instant::now();
    let mut solved = 0usize;
    let mut deductions = 0usize;
    for p in &puzzles {
        let Ok(s) = sudoku::Sudoku::from_str_line(p) else { continue };
        match StrategySolver::from_sudoku(s).solve(&strategies) {
            Ok((_, d)) => {
                solved += 1;
                deductions += d.len();
            }
            Err((_, d)) => deductions += d.len(),
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} puzzles, {} solved, {} deductions, {:.3} s, {:.0} puzzles/s",
        puzzles.len(),
        solved,
        deductions,
        secs,
        puzzles.len() as f64 / secs
    );
}
