//! Times the solver over a puzzle file, single thread.
//!
//! Usage: `cargo run --release --example solve_file -- FILE [LIMIT] [--check] [--parse-only]`
//!
//! FILE is any input the command line reads (one puzzle a line, CSV, JSON Lines, compressed
//! or not), read by the library's own reader ([`Dataset`]); records that are not puzzles
//! are counted and left out. Prints puzzles/s, guesses/puzzle and % solved without a guess.
//! With `--check`, verifies every solution is a complete valid grid that keeps the givens
//! and prints the histogram of solution counts.
use std::time::Instant;

use sudoku_batch::{solve, Dataset, Grid, ReadOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .ok_or("usage: solve_file FILE [LIMIT] [--check] [--parse-only]")?;
    let limit: u32 = match args.get(2).filter(|a| !a.starts_with("--")) {
        Some(a) => a.parse().map_err(|_| "LIMIT is a number")?,
        None => 1,
    };
    let check = args.iter().any(|a| a == "--check");
    // Only read and parse: the process's own overhead, for CPU-time comparisons.
    let parse_only = args.iter().any(|a| a == "--parse-only");
    let (puzzles, not_puzzles) = read(path)?;
    if parse_only {
        println!("{path}: {} puzzles parsed", puzzles.len());
        return Ok(());
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
    if not_puzzles > 0 {
        println!("  {not_puzzles} records that are not puzzles were left out");
    }
    if check {
        println!(
            "  solutions: 0: {}, 1: {}, 2: {}, 3+: {}; invalid grids: {bad}",
            counts[0], counts[1], counts[2], counts[3]
        );
    }
    Ok(())
}

/// The puzzles of `path` in input order, and how many records are not puzzles.
fn read(path: &str) -> Result<(Vec<Grid>, usize), sudoku_batch::InputError> {
    let opts = ReadOptions {
        mmap: true,
        ..ReadOptions::default()
    };
    let mut data = Dataset::open(path, &opts)?;
    let (mut puzzles, mut not_puzzles, mut records) = (Vec::new(), 0, Vec::new());
    loop {
        data.fill(&mut records, 4096)?;
        if records.is_empty() {
            break;
        }
        for r in &records {
            match &r.puzzle {
                Ok(p) => puzzles.push(*p),
                Err(_) => not_puzzles += 1,
            }
        }
    }
    data.finish()?;
    Ok((puzzles, not_puzzles))
}
