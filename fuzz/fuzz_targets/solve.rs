//! Fuzz the solver against the reference oracle. The input picks a solved grid (made from
//! the empty grid's first solution, relabelled by the bytes) and which cells to blank;
//! at least 25 givens stay so the reference is fast. Solution counts (limit 2) must agree,
//! and every solution must be a valid grid that keeps the givens. Puzzles taken straight
//! from the bytes (any givens, conflicts included) must not panic either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::grid::Grid;
use sudoku_batch::solver::{reference::count_solutions, solve};

fuzz_target!(|data: &[u8]| {
    if data.len() < 81 {
        return;
    }
    // 1. Raw bytes as a puzzle: any givens, conflicts included; limit 1 so it stays fast.
    let mut raw = Grid::EMPTY;
    for (c, &b) in raw.0.iter_mut().zip(data) {
        *c = if b % 4 == 0 { b % 10 } else { 0 };
    }
    if raw.conflicts().is_none() {
        if let Some(g) = solve(&raw, 1).grid {
            assert!(g.is_complete_valid() && g.keeps_givens(&raw));
        }
    } else {
        assert_eq!(solve(&raw, 2).count, 0);
    }
    // 2. Differential: a relabelled solved grid with cells blanked, >= 25 givens.
    let base = solve(&Grid::EMPTY, 1).grid.expect("the empty grid has solutions");
    let mut digits: Vec<u8> = (1..=9).collect();
    for i in (1..9).rev() {
        digits.swap(i, usize::from(data[i]) % (i + 1));
    }
    let mut puzzle = Grid(base.0.map(|d| digits[usize::from(d) - 1]));
    let mut blanks = 0;
    for (c, &b) in data.iter().enumerate().skip(9).take(81) {
        if b & 1 == 1 && blanks < 56 {
            puzzle.0[(c - 9 + usize::from(b >> 1)) % 81] = 0;
            blanks += 1;
        }
    }
    let fast = solve(&puzzle, 2);
    let (count, _) = count_solutions(&puzzle, 2);
    assert_eq!(fast.count, count, "puzzle {puzzle}");
    let g = fast.grid.expect("made from a solved grid");
    assert!(g.is_complete_valid() && g.keeps_givens(&puzzle));
});
