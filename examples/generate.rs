//! Seeded generator of unique-solution puzzles, used by `scripts/gen-sample-data.sh` to
//! make the sample in `data/`.
//!
//! Each puzzle starts from a random complete grid (random diagonal boxes completed by the
//! reference solver, then a random isomorph of that), and givens are removed in a random
//! order while the solution count, checked with our own solver, stays exactly 1. The
//! result is a minimal puzzle: removing any further given makes it non-unique.
//!
//! usage: generate SEED COUNT LINES_OUT CSV_OUT

use std::io::{BufWriter, Write};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoku_batch::grid::Grid;
use sudoku_batch::solver::{reference, solve};

/// A random isomorph of `g`: digit relabelling, rows within bands, bands, columns within
/// stacks, stacks, and an optional transpose. Each keeps a valid grid valid.
fn isomorph(g: &Grid, rng: &mut ChaCha8Rng) -> Grid {
    let mut digits: Vec<u8> = (1..=9).collect();
    digits.shuffle(rng);
    let perm = |rng: &mut ChaCha8Rng| -> Vec<usize> {
        let mut bands = [0, 1, 2];
        bands.shuffle(rng);
        let mut order = Vec::new();
        for b in bands {
            let mut inner = [0, 1, 2];
            inner.shuffle(rng);
            order.extend(inner.iter().map(|i| b * 3 + i));
        }
        order
    };
    let rows = perm(rng);
    let cols = perm(rng);
    let transpose = rng.random_bool(0.5);
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            let d = g.0[sr * 9 + sc];
            out[r * 9 + c] = if d == 0 { 0 } else { digits[d as usize - 1] };
        }
    }
    Grid(out)
}

/// A random complete grid: the three boxes on the diagonal share no unit, so each gets an
/// independent random permutation of 1-9; the reference solver (fixed search order, so
/// the result depends on the seed alone, not on our fast solver's choices) completes it.
fn random_grid(rng: &mut ChaCha8Rng) -> Grid {
    let mut g = Grid::EMPTY;
    for b in 0..3 {
        let mut digits: Vec<u8> = (1..=9).collect();
        digits.shuffle(rng);
        for (k, d) in digits.into_iter().enumerate() {
            g.0[(b * 3 + k / 3) * 9 + b * 3 + k % 3] = d;
        }
    }
    let (_, first) = reference::count_solutions(&g, 1);
    let full = first.expect("three filled diagonal boxes always complete");
    assert!(full.is_complete_valid());
    full
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: generate SEED COUNT LINES_OUT CSV_OUT");
        std::process::exit(2);
    }
    let seed: u64 = args[1].parse().expect("SEED is a number");
    let count: usize = args[2].parse().expect("COUNT is a number");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);

    let mut lines = BufWriter::new(std::fs::File::create(&args[3]).expect("create LINES_OUT"));
    let mut csv = BufWriter::new(std::fs::File::create(&args[4]).expect("create CSV_OUT"));
    writeln!(csv, "quizzes,solutions").expect("write");
    for _ in 0..count {
        let solution = isomorph(&random_grid(&mut rng), &mut rng);
        let mut puzzle = solution;
        let mut cells: Vec<usize> = (0..81).collect();
        cells.shuffle(&mut rng);
        for c in cells {
            let keep = puzzle.0[c];
            puzzle.0[c] = 0;
            if solve(&puzzle, 2).count != 1 {
                puzzle.0[c] = keep;
            }
        }
        let mut digits = [0u8; 81];
        solution.write_digits(&mut digits);
        let sol = String::from_utf8_lossy(&digits).into_owned();
        writeln!(lines, "{puzzle}").expect("write");
        writeln!(csv, "{},{sol}", puzzle.to_string().replace('.', "0")).expect("write");
    }
}
