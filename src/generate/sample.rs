//! Random solution grids: three independent boxes, then randomized backtracking.
//!
//! The boxes of the main diagonal (top-left, centre, bottom-right) share no unit, so each
//! gets a permutation of the digits drawn from the stream, with no search. The fill then
//! takes the empty cell with the fewest candidates (the first such cell in row-major
//! order), tries its candidates in an order drawn from the stream, and backtracks on a cell
//! left without candidates.
//!
//! # How far from uniform
//! Every valid grid can be drawn (its diagonal boxes are three permutations, and each of its
//! other digits is a candidate where it is placed), but not with equal probability: without
//! backtracking a grid's probability is (1/9!)³ times the product, over the other 54
//! placements, of 1 / (candidates of the chosen cell), and that product differs between
//! grids (the fewer the choices left on a grid's fill path, the likelier it is).
//! A uniform sampler over the 6.67·10²¹ grids would weigh each partial fill by its number
//! of completions instead; that is not done. The fill does not depend on our solver, so a
//! change to the solver's search never changes the grids a seed gives.

use super::draw::Draw;
use crate::grid::{Grid, CELLS, PEERS, UNITS};

/// The bit a filled cell's mask holds, above the nine digits' (which placements in its
/// peers clear, never this one).
const FILLED: u16 = 0x200;

/// Candidates of a cell by its mask: the bits set of an empty cell's mask, 10 (more than
/// any empty cell has) for a filled one, so the search for the fewest never picks it. A
/// table, because the portable build has no population-count instruction and the fill
/// counts every cell at each placement.
const COUNT: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut m = 0;
    while m < 1024 {
        t[m] = if m & FILLED as usize != 0 {
            10
        } else {
            (m as u16).count_ones() as u8
        };
        m += 1;
    }
    t
};

/// A grid being filled: digits and, per cell, its candidates (bit `d - 1`; [`FILLED`] set
/// once it holds a digit). Kept per cell, not per unit, because the fill reads every
/// cell's count at each placement and writes only the 20 peers of one.
struct Fill {
    cells: [u8; CELLS],
    cand: [u16; CELLS],
}

impl Fill {
    fn place(&mut self, cell: usize, d: u8) {
        self.cells[cell] = d;
        self.cand[cell] = FILLED | 0x1ff;
        let bit = !(1u16 << (d - 1));
        for &p in &PEERS[cell] {
            self.cand[usize::from(p)] &= bit;
        }
    }

    /// Fills every empty cell; false when some cell runs out of candidates on every path.
    fn complete(&mut self, draw: &mut Draw) -> bool {
        let mut best = None;
        let mut fewest = 10;
        for (cell, &mask) in self.cand.iter().enumerate() {
            let n = COUNT[usize::from(mask)];
            if n < fewest {
                fewest = n;
                best = Some(cell);
                if n <= 1 {
                    break;
                }
            }
        }
        let Some(cell) = best else { return true };
        let free = self.cand[cell] & 0x1ff;
        let mut digits = [0u8; 9];
        let mut n = 0;
        for d in 1..=9u8 {
            if free & (1 << (d - 1)) != 0 {
                digits[n] = d;
                n += 1;
            }
        }
        draw.shuffle(&mut digits[..n]);
        let saved = self.cand;
        for &d in &digits[..n] {
            self.place(cell, d);
            if self.complete(draw) {
                return true;
            }
            self.cand = saved;
            self.cells[cell] = 0;
        }
        false
    }
}

/// A random complete valid grid drawn from `draw` (see the module docs for how).
pub fn random_solution(draw: &mut Draw) -> Grid {
    let mut fill = Fill {
        cells: [0; CELLS],
        cand: [0x1ff; CELLS],
    };
    for b in [0, 4, 8] {
        let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        draw.shuffle(&mut digits);
        for (cell, d) in UNITS[18 + b].into_iter().zip(digits) {
            fill.place(cell, d);
        }
    }
    let done = fill.complete(draw);
    debug_assert!(done, "three diagonal boxes always complete");
    Grid(fill.cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_are_complete_valid_and_differ() {
        let grids: Vec<Grid> = (0..200)
            .map(|s| random_solution(&mut Draw::new(s)))
            .collect();
        assert!(grids.iter().all(Grid::is_complete_valid));
        let mut distinct = grids.clone();
        distinct.sort_by_key(|g| g.0);
        distinct.dedup();
        assert_eq!(distinct.len(), grids.len());
        // Every digit appears in the first cell across 200 draws (no fixed first digit).
        let mut firsts = [false; 10];
        grids
            .iter()
            .for_each(|g| firsts[usize::from(g.0[0])] = true);
        assert!(firsts[1..].iter().all(|&f| f), "{firsts:?}");
    }
}
