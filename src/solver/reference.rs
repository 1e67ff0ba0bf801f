//! A slow, obviously correct solver used only to check the fast one (tests and fuzzing).
//!
//! Plain backtracking: compute each empty cell's legal digits straight from the grid, fill
//! the cell with the fewest, try each digit in turn. No propagation, no bit tricks.

use crate::grid::{Grid, CELLS, UNITS};

/// Counts the solutions of `puzzle` up to `limit`; returns the count and the first solution
/// found. Givens that conflict give 0 solutions.
pub fn count_solutions(puzzle: &Grid, limit: u32) -> (u32, Option<Grid>) {
    if puzzle.conflicts().is_some() {
        return (0, None);
    }
    let mut g = *puzzle;
    let mut count = 0;
    let mut first = None;
    backtrack(&mut g, limit.max(1), &mut count, &mut first);
    (count, first)
}

fn legal_digits(g: &Grid, cell: usize) -> Vec<u8> {
    (1..=9u8)
        .filter(|&d| {
            UNITS
                .iter()
                .filter(|u| u.contains(&cell))
                .all(|u| u.iter().all(|&c| g.0[c] != d))
        })
        .collect()
}

fn backtrack(g: &mut Grid, limit: u32, count: &mut u32, first: &mut Option<Grid>) -> bool {
    let best = (0..CELLS)
        .filter(|&c| g.0[c] == 0)
        .map(|c| (c, legal_digits(g, c)))
        .min_by_key(|(_, ds)| ds.len());
    let Some((cell, digits)) = best else {
        *count += 1;
        first.get_or_insert(*g);
        return *count >= limit;
    };
    for d in digits {
        g.0[cell] = d;
        if backtrack(g, limit, count, first) {
            return true;
        }
    }
    g.0[cell] = 0;
    false
}
