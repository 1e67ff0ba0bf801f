//! The Shah et al. (arXiv 2409.10502) layout: 325 integers a puzzle, `[n_given, 81 x (row,
//! col, value, strategy)]`.
//!
//! - `n_given`: the puzzle's givens (0..=81).
//! - Then the givens, row-major, as `(row, col, value, 0)`: row and col 0-based (0..=8),
//!   value 1..=9, strategy 0 (`given`).
//! - Then the placements of a solved trace in the solver's order, `(row, col, value,
//!   strategy)` with strategy the [`Technique`] code (1..=4 for the singles, 17 for a
//!   guess that stood): only placements that stand in the solution, so steps undone by a
//!   backtrack and eliminations are left out. Givens and placements fill all 81 quadruples.
//! - Padding: a puzzle that is not solved (no solution, clashing givens) has its givens
//!   only; the remaining quadruples are `(0, 0, 0, 0)` (value 0 marks them, a real entry
//!   never has value 0). A record that is no puzzle is all zeros.
//!
//! Every value fits a byte, so the rows are stored as `uint8`.

use super::board::{each_cell, filled_cells};
use super::{Technique, Trace};
use crate::grid::{Grid, CELLS};

/// Integers a row: 1 + 81 × 4.
pub const WIDTH: usize = 1 + CELLS * 4;

/// Each cell's (row, col), 0-based, as the low two bytes of an entry.
const ROW_COL: [u32; CELLS] = {
    let mut t = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = (c / 9) as u32 | ((c % 9) as u32) << 8;
        c += 1;
    }
    t
};

/// The Shah row of `puzzle`'s trace `t` (see the module doc).
pub fn encode(puzzle: &Grid, t: &Trace) -> [u8; WIDTH] {
    // Each entry as one little-endian word (row, col, value, strategy), so that an entry is
    // one store; at most 81, as each cell is given or placed once (an 82nd is a bug, and
    // panics as the byte row's index did).
    let mut entries = [0u32; CELLS];
    let mut n = 0;
    let mut put = |c: usize, d: u8, code: u8| {
        entries[n] = ROW_COL[c] | u32::from(d) << 16 | u32::from(code) << 24;
        n += 1;
    };
    let givens = filled_cells(puzzle);
    each_cell(givens, |c| put(c, puzzle.0[c], Technique::Given.code()));
    if t.outcome == Some(super::Outcome::Solved) {
        for (_, s) in t.kept_steps(true) {
            put(usize::from(s.cell), s.digit, s.technique.code());
        }
    }
    let mut row = [0u8; WIDTH];
    row[0] = givens.count_ones() as u8;
    for (out, e) in row[1..].chunks_exact_mut(4).zip(&entries) {
        out.copy_from_slice(&e.to_le_bytes());
    }
    row
}

/// A Shah row read back by [`decode`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The puzzle: the first `n_given` entries.
    pub puzzle: Grid,
    /// Every entry's digit in its cell (the solution, for a solved row), 0 = no entry.
    pub grid: Grid,
    /// The entries in order: (cell 0..81, digit 1..=9, technique).
    pub entries: Vec<(usize, u8, Technique)>,
}

/// A Shah row read back.
///
/// # Errors
/// A message naming the entry that is out of range (row or col over 8, value over 9, an
/// unknown strategy, a cell given twice).
pub fn decode(row: &[u8; WIDTH]) -> Result<Decoded, String> {
    let (mut puzzle, mut grid) = (Grid::EMPTY, Grid::EMPTY);
    let mut entries = Vec::new();
    for (i, q) in row[1..].chunks_exact(4).enumerate() {
        if q[2] == 0 {
            continue;
        }
        let (r, c, d) = (usize::from(q[0]), usize::from(q[1]), q[2]);
        let tech = Technique::from_code(q[3]);
        let (Some(tech), true, true) = (tech, r < 9 && c < 9, d <= 9) else {
            return Err(format!("entry {i}: {q:?} out of range"));
        };
        let cell = r * 9 + c;
        if grid.0[cell] != 0 {
            return Err(format!("entry {i}: cell {cell} given twice"));
        }
        grid.0[cell] = d;
        if i < usize::from(row[0]) {
            puzzle.0[cell] = d;
        }
        entries.push((cell, d, tech));
    }
    Ok(Decoded {
        puzzle,
        grid,
        entries,
    })
}
