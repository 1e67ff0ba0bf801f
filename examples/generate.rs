//! Seeded generator of unique-solution puzzles, used by `scripts/gen-sample-data.sh` to
//! make the sample in `data/`.
//!
//! Each puzzle starts from a random complete grid (a random isomorph, with relabelled
//! digits, of the textbook pattern grid), and givens are removed in a random
//! order while the solution count, checked with our own solver, stays exactly 1. The
//! result is a minimal puzzle: removing any further given makes it non-unique.
//!
//! usage: generate SEED COUNT LINES_OUT CSV_OUT

use std::io::{BufWriter, Write};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoku_batch::grid::Grid;
use sudoku_batch::solver::solve;

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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: generate SEED COUNT LINES_OUT CSV_OUT");
        std::process::exit(2);
    }
    let seed: u64 = args[1].parse().expect("SEED is a number");
    let count: usize = args[2].parse().expect("COUNT is a number");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The textbook pattern grid: row r is 1..9 shifted by 3r + r/3. Fixed, so the output
    // depends only on the seed, not on which solution our solver happens to find first.
    let mut base = Grid::EMPTY;
    for (i, d) in base.0.iter_mut().enumerate() {
        let (r, c) = (i / 9, i % 9);
        *d = ((r * 3 + r / 3 + c) % 9 + 1) as u8;
    }
    assert!(base.is_complete_valid());
    let mut lines = BufWriter::new(std::fs::File::create(&args[3]).expect("create LINES_OUT"));
    let mut csv = BufWriter::new(std::fs::File::create(&args[4]).expect("create CSV_OUT"));
    writeln!(csv, "quizzes,solutions").expect("write");
    for _ in 0..count {
        let solution = isomorph(&base, &mut rng);
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
