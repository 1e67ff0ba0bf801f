//! The fast solver: band-oriented bitboard propagation (box/line interactions and singles,
//! see `state.rs`), then depth-first guesses on a two-candidate cell, counting solutions up
//! to a limit.
//!
//! Everything lives on the stack: a [`state::State`] is `Copy` and each guess works on a
//! copy, so solving allocates nothing on the heap and is safe to run on any rayon worker.

pub mod reference;
mod state;
mod tables;

use crate::grid::Grid;
use state::State;

/// What the solver found for one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Solutions found, counted up to the limit passed to [`solve`] (so `0..=limit`).
    pub count: u32,
    /// The first solution found, if any: a complete grid that keeps every given.
    pub grid: Option<Grid>,
    /// Guesses made: tentative placements at branch points, not counting the last
    /// candidate of a cell (which is forced once the others failed).
    pub guesses: u32,
}

struct Search {
    limit: u32,
    count: u32,
    first: Option<Grid>,
    guesses: u32,
}

/// Solves `puzzle`, counting solutions up to `limit` (at least 1).
///
/// `limit = 1` stops at the first solution (fastest); `limit = 2` tells a unique puzzle
/// from a non-unique one. A puzzle whose givens conflict has 0 solutions; callers that want
/// to tell "invalid" from "unsolvable" check [`Grid::conflicts`] first.
pub fn solve(puzzle: &Grid, limit: u32) -> Solution {
    let mut search = Search {
        limit: limit.max(1),
        count: 0,
        first: None,
        guesses: 0,
    };
    if let Ok(state) = State::from_givens(&puzzle.0) {
        search.explore(state);
    }
    Solution {
        count: search.count,
        grid: search.first,
        guesses: search.guesses,
    }
}

impl Search {
    /// Propagates `state` and searches below it. Returns `true` once the limit is reached.
    fn explore(&mut self, mut state: State) -> bool {
        loop {
            let cell = match state.propagate() {
                Err(_) => return false,
                Ok(Some(cell)) => cell,
                Ok(None) => {
                    self.count += 1;
                    if self.first.is_none() {
                        self.first = Some(Grid(state.to_digits()));
                    }
                    return self.count >= self.limit;
                }
            };
            let mut digits = state.digits(cell);
            loop {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if digits == 0 {
                    // The last candidate is forced: go on with this state, no copy.
                    if state.assign(d, cell).is_err() {
                        return false;
                    }
                    break;
                }
                self.guesses += 1;
                let mut child = state;
                if child.assign(d, cell).is_ok() && self.explore(child) {
                    return true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_cells;

    fn grid(s: &str) -> Grid {
        parse_cells(s.as_bytes()).unwrap()
    }

    #[test]
    fn solves_a_unique_puzzle_and_keeps_givens() {
        let p = grid(
            ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4",
        );
        let s = solve(&p, 2);
        assert_eq!(s.count, 1);
        let g = s.grid.unwrap();
        assert!(g.is_complete_valid());
        assert!(g.keeps_givens(&p));
    }

    #[test]
    fn empty_grid_stops_at_the_limit() {
        for limit in [1, 2, 5] {
            let s = solve(&Grid::EMPTY, limit);
            assert_eq!(s.count, limit);
            assert!(s.grid.unwrap().is_complete_valid());
        }
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut g = Grid::EMPTY;
        g.0[0] = 1;
        g.0[1] = 1;
        assert_eq!(solve(&g, 2).count, 0);
    }
}
