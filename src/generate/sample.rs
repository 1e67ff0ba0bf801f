//! Random solution grids: randomized backtracking over an empty grid.
//!
//! The fill takes the empty cell with the fewest candidates (the first such cell in
//! row-major order), tries its candidates in an order drawn from the stream, and backtracks
//! on a cell left without candidates. On an empty grid it almost never backtracks, so the
//! cost is one pass of 81 placements.
//!
//! # How far from uniform
//! Every valid grid can be drawn (each of its digits is a candidate where it is placed), but
//! not with equal probability: without backtracking a grid's probability is the product,
//! over the 81 placements, of 1 / (candidates of the chosen cell), and that product differs
//! between grids (the fewer the choices left on a grid's fill path, the likelier it is).
//! A uniform sampler over the 6.67·10²¹ grids would weigh each partial fill by its number
//! of completions instead; that is not done. The fill does not depend on our solver, so a
//! change to the solver's search never changes the grids a seed gives.

use super::draw::Draw;
use crate::grid::{Grid, CELLS};

/// Row, column and box of each cell.
const fn unit_of(cell: usize) -> (usize, usize, usize) {
    let (r, c) = (cell / 9, cell % 9);
    (r, c, r / 3 * 3 + c / 3)
}

/// A grid being filled: digits and, per unit, a bit mask of the digits used (bit `d - 1`).
struct Fill {
    cells: [u8; CELLS],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Fill {
    fn used(&self, cell: usize) -> u16 {
        let (r, c, b) = unit_of(cell);
        self.rows[r] | self.cols[c] | self.boxes[b]
    }

    fn set(&mut self, cell: usize, d: u8) {
        let (r, c, b) = unit_of(cell);
        let bit = 1 << (d - 1);
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[b] ^= bit;
        self.cells[cell] = if self.cells[cell] == 0 { d } else { 0 };
    }

    /// Fills every empty cell; false when some cell runs out of candidates on every path.
    fn complete(&mut self, draw: &mut Draw) -> bool {
        let mut best = None;
        let mut fewest = 10;
        for cell in 0..CELLS {
            if self.cells[cell] != 0 {
                continue;
            }
            let n = 9 - self.used(cell).count_ones();
            if n < fewest {
                fewest = n;
                best = Some(cell);
                if n <= 1 {
                    break;
                }
            }
        }
        let Some(cell) = best else { return true };
        let free = !self.used(cell) & 0x1ff;
        let mut digits = [0u8; 9];
        let mut n = 0;
        for d in 1..=9u8 {
            if free & (1 << (d - 1)) != 0 {
                digits[n] = d;
                n += 1;
            }
        }
        draw.shuffle(&mut digits[..n]);
        for &d in &digits[..n] {
            self.set(cell, d);
            if self.complete(draw) {
                return true;
            }
            self.set(cell, d);
        }
        false
    }
}

/// A random complete valid grid drawn from `draw` (see the module docs for how).
pub fn random_solution(draw: &mut Draw) -> Grid {
    let mut fill = Fill {
        cells: [0; CELLS],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
    };
    let done = fill.complete(draw);
    debug_assert!(done, "an empty grid always completes");
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
