//! The candidates board the logic techniques read and change: 81 cells (row-major, 0 =
//! empty) and, for each empty cell, its candidates as a 9-bit mask (bit `d - 1` = digit
//! `d`). Cells are `u8` indices 0..81; sets of cells are [`Cells`] bitsets.

use crate::grid::{Grid, CELLS, UNITS};

/// All nine digits as a candidate mask.
pub const ALL: u16 = 0x1FF;

/// A set of cells: bit `i` = cell `i` (0..81, row-major).
pub type Cells = u128;

/// Unit `u`'s cells as `u8` indices (rows 0-8, columns 9-17, boxes 18-26, as
/// [`crate::grid::UNITS`]).
pub const UNIT_CELLS: [[u8; 9]; 27] = {
    let mut out = [[0u8; 9]; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            out[u][k] = UNITS[u][k] as u8;
            k += 1;
        }
        u += 1;
    }
    out
};

/// Unit `u`'s cells as a set.
pub const UNIT_SET: [Cells; 27] = {
    let mut out = [0 as Cells; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            out[u] |= 1 << UNITS[u][k];
            k += 1;
        }
        u += 1;
    }
    out
};

/// The 20 peers of each cell (the other cells of its row, column and box) as a set.
pub const PEER_SET: [Cells; CELLS] = {
    let mut out = [0 as Cells; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (r, col) = (c / 9, c % 9);
        let b = r / 3 * 3 + col / 3;
        out[c] = (UNIT_SET[r] | UNIT_SET[9 + col] | UNIT_SET[18 + b]) & !(1 << c);
        c += 1;
    }
    out
};

/// The box (0..9) of cell `c`.
pub const fn box_of(c: usize) -> usize {
    c / 27 * 3 + c % 9 / 3
}

/// The cells of `set`, lowest first.
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// The digits (1..=9) of candidate mask `mask`, lowest first.
pub fn digits_of(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            d
        })
    })
}

/// The candidate bit of digit `d` (1..=9).
pub const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// A grid in solving: placed digits and the candidates of the empty cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Cells, row-major, 0 = empty, 1..=9 = placed (given or solved).
    pub cells: [u8; CELLS],
    /// Candidates of each empty cell (bit `d - 1` = digit `d`); 0 for a filled cell.
    pub cand: [u16; CELLS],
    /// The empty cells.
    pub empty: Cells,
}

impl Board {
    /// The board of `grid`'s givens, every empty cell with the digits no peer holds; `None`
    /// when two givens share a unit and a digit.
    pub fn new(grid: &Grid) -> Option<Board> {
        let mut b = Board {
            cells: [0; CELLS],
            cand: [ALL; CELLS],
            empty: (1 << CELLS) - 1,
        };
        for (c, &d) in grid.0.iter().enumerate() {
            if d != 0 {
                if b.cand[c] & bit(d) == 0 {
                    return None;
                }
                b.place(c, d);
            }
        }
        Some(b)
    }

    /// Puts `d` in empty cell `c` and removes it from the candidates of `c`'s peers.
    pub fn place(&mut self, c: usize, d: u8) {
        self.cells[c] = d;
        self.cand[c] = 0;
        self.empty &= !(1 << c);
        let m = !bit(d);
        for p in cells_of(PEER_SET[c] & self.empty) {
            self.cand[p] &= m;
        }
    }

    /// The positions (bit `k` = the unit's `k`-th cell) of candidate `d` in unit `u`.
    pub fn positions(&self, u: usize, d: u8) -> u16 {
        let m = bit(d);
        let mut out = 0;
        for (k, &c) in UNIT_CELLS[u].iter().enumerate() {
            out |= u16::from(self.cand[usize::from(c)] & m != 0) << k;
        }
        out
    }

    /// The empty cells of `set` that have candidate `d`.
    pub fn with_digit(&self, set: Cells, d: u8) -> Cells {
        let m = bit(d);
        let mut out = 0;
        for c in cells_of(set & self.empty) {
            if self.cand[c] & m != 0 {
                out |= 1 << c;
            }
        }
        out
    }

    /// The grid of placed digits.
    pub fn grid(&self) -> Grid {
        Grid(self.cells)
    }
}
