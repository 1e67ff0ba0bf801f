//! Triads: the minirows and minicolumns of a band, each three cells of one row (column)
//! and one box, and the two rules that tie a triad's digits to its three cells.
//!
//! ```text
//!  minirow (r, k) of a band: row r (0..3) of the band, box k (0..3); its cells are band
//!  bits 9r + 3k .. 9r + 3k + 3, and it is "spread" bit 9r + 3k of a minirow mask
//!  minicolumn c of a band: column c (0..9) inside the band; nine-bit column mask bit c
//! ```
//!
//! * **Naked triad**: a minirow (minicolumn) whose cells can take only three digits between
//!   them holds all three, so each of them leaves the rest of its row and box (column and
//!   box; for a minicolumn, also the same column in the other two bands).
//! * **Hidden triad**: a digit that must use a minirow (its only minirow in its row, or in
//!   its box) is *locked* there; three digits locked to one minirow fill it, and every other
//!   digit leaves it. Minicolumns the same way (a digit's only column in its box, or the
//!   only band where it can stand in that column).
//!
//! These are the deductions tdoku's band configurations make beyond the band and stack
//! logic (with the configuration branch they bring forum_hardest's guesses to
//! tdoku's). Both rules read one snapshot of the boards and their removals are applied
//! together, so a call is a function of the boards alone: the portable search and the
//! AVX-512 one reach the same fixpoint.

use super::{column_mask, rot1, rot2, BOARDS};
use crate::solver::tables::COLUMN0;

/// The first bit of each of a band's nine minirows (spread form: minirow `(r, k)` at bit
/// `9r + 3k`).
pub(super) const MINIROW_LOW: u32 = 0o111_111_111;

/// Spread minirow mask: for each set minirow, the other two minirows of its row.
#[inline(always)]
fn row_others(t: u32) -> u32 {
    ((t >> 3) & 0o011_011_011)
        | ((t << 6) & 0o100_100_100)
        | ((t >> 6) & 0o001_001_001)
        | ((t << 3) & 0o110_110_110)
}

/// Spread minirow mask: for each set minirow, the other two minirows of its box.
#[inline(always)]
fn box_others(t: u32) -> u32 {
    (t >> 9 | t >> 18 | t << 9 | t << 18) & MINIROW_LOW
}

/// Nine-bit column mask: for each set column, the other two columns of its box.
#[inline(always)]
fn stack_others(c: u32) -> u32 {
    (rot1(c) | rot2(c)) & 0x1FF
}

/// Per bit, over the nine digits of one band: at least three and at least four set.
#[inline(always)]
fn three_four(v: &[u32]) -> (u32, u32) {
    let (mut c1, mut c2, mut c3, mut c4) = (0, 0, 0, 0);
    for &x in v {
        c4 |= c3 & x;
        c3 |= c2 & x;
        c2 |= c1 & x;
        c1 |= x;
    }
    (c3, c4)
}

/// Applies both triad rules, in minirows and minicolumns, to the 27 boards (`cand[9b + d]`,
/// the module doc of `state.rs`; board 27 is padding and stays 0), all removals read from
/// the boards as they came in. A board left without a place for its digit is found by the
/// next `State::update`.
pub(super) fn triads(cand: &mut [u32; BOARDS]) {
    // Per board: minirows holding a candidate (`m`) and those the digit is locked to
    // (`l`); columns holding one (`c`, the 27 twice so that the same digit's other bands
    // are at `i + 9` and `i + 18`) and those it is locked to (`lc`).
    let mut m = [0u32; 27];
    let mut l = [0u32; 27];
    let mut c = [0u32; 54];
    let mut lc = [0u32; 27];
    for i in 0..27 {
        let a = cand[i];
        let mm = (a | a >> 1 | a >> 2) & MINIROW_LOW;
        m[i] = mm;
        l[i] = mm & !(row_others(mm) & box_others(mm));
        c[i] = column_mask(a);
    }
    c.copy_within(0..27, 27);
    for i in 0..27 {
        let elsewhere = c[i + 9] | c[i + 18];
        lc[i] = c[i] & !(stack_others(c[i]) & elsewhere);
    }
    // Per band: naked triads (exactly three digits can use the triad) and hidden ones
    // (three digits are locked to it).
    let mut naked_rows = [0u32; 3];
    let mut hidden_rows = [0u32; 3];
    let mut naked_cols = [0u32; 3];
    let mut hidden_cols = [0u32; 3];
    for b in 0..3 {
        let band = 9 * b..9 * b + 9;
        let (three, four) = three_four(&m[band.clone()]);
        naked_rows[b] = three & !four;
        hidden_rows[b] = three_four(&l[band.clone()]).0;
        let (three, four) = three_four(&c[band.clone()]);
        naked_cols[b] = three & !four;
        hidden_cols[b] = three_four(&lc[band]).0;
    }
    // A digit of a naked minicolumn leaves that column in the other two bands.
    let mut held = [0u32; 54];
    for i in 0..27 {
        held[i] = c[i] & naked_cols[i / 9];
    }
    held.copy_within(0..27, 27);
    for i in 0..27 {
        let b = i / 9;
        let own = m[i] & naked_rows[b];
        let rows = (row_others(own) | box_others(own)) & !own;
        let rows = rows | (hidden_rows[b] & !l[i]);
        let cols = stack_others(held[i]) & !held[i];
        let cols = cols | (hidden_cols[b] & !lc[i]) | held[i + 9] | held[i + 18];
        cand[i] &= !((rows * 7) | (cols * COLUMN0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board of one digit in one band with only the given cells (row, column) set.
    fn board(cells: &[(u32, u32)]) -> u32 {
        cells.iter().map(|&(r, c)| 1 << (9 * r + c)).sum()
    }

    #[test]
    fn masks_name_the_other_minirows_and_columns() {
        // Minirow (1, 2) = spread bit 15: its row's others (1, 0), (1, 1); its box's
        // others (0, 2), (2, 2).
        assert_eq!(row_others(1 << 15), 1 << 9 | 1 << 12);
        assert_eq!(box_others(1 << 15), 1 << 6 | 1 << 24);
        assert_eq!(stack_others(1 << 4), 1 << 3 | 1 << 5);
    }

    /// Band 0: digits 1, 2 and 3 (boards 0..3) are the only ones with a cell in minirow
    /// (0, 0); they leave the rest of row 0 and of box 0, and nothing else changes.
    #[test]
    fn a_naked_minirow_keeps_its_three_digits() {
        let mut cand = [super::super::super::tables::BAND; BOARDS];
        cand[27] = 0;
        for board_d in &mut cand[3..9] {
            *board_d &= !board(&[(0, 0), (0, 1), (0, 2)]);
        }
        let before = cand;
        triads(&mut cand);
        let row0_rest = board(&[(0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (0, 8)]);
        let box0_rest = board(&[(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]);
        for d in 0..3 {
            assert_eq!(
                cand[d],
                before[d] & !row0_rest & !box0_rest,
                "digit {}",
                d + 1
            );
        }
        assert_eq!(cand[3..], before[3..]);
    }

    /// Band 0: digits 1, 2 and 3 can stand in row 0 only in box 0, so they are locked to
    /// minirow (0, 0), which the other six digits leave.
    #[test]
    fn three_locked_digits_fill_their_minirow() {
        let mut cand = [super::super::super::tables::BAND; BOARDS];
        cand[27] = 0;
        let row0_rest = board(&[(0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (0, 8)]);
        for board_d in &mut cand[..3] {
            *board_d &= !row0_rest;
        }
        let before = cand;
        triads(&mut cand);
        let minirow = board(&[(0, 0), (0, 1), (0, 2)]);
        assert_eq!(cand[..3], before[..3]);
        for d in 3..9 {
            assert_eq!(cand[d], before[d] & !minirow, "digit {}", d + 1);
        }
        assert_eq!(cand[9..], before[9..]);
    }

    /// Column 4: in band 1 only digits 5, 6 and 7 can use it (a naked minicolumn), so they
    /// leave column 4 in bands 0 and 2 and columns 3 and 5 of band 1's box.
    #[test]
    fn a_naked_minicolumn_clears_its_column_and_box() {
        let mut cand = [super::super::super::tables::BAND; BOARDS];
        cand[27] = 0;
        let col = |c: u32| COLUMN0 << c;
        for d in (0..4).chain(7..9) {
            cand[9 + d] &= !col(4);
        }
        let before = cand;
        triads(&mut cand);
        for d in 4..7 {
            assert_eq!(cand[9 + d], before[9 + d] & !col(3) & !col(5));
            assert_eq!(cand[d], before[d] & !col(4));
            assert_eq!(cand[18 + d], before[18 + d] & !col(4));
        }
        for d in (0..4).chain(7..9) {
            assert_eq!(cand[d], before[d]);
            assert_eq!(cand[9 + d], before[9 + d]);
            assert_eq!(cand[18 + d], before[18 + d]);
        }
    }

    /// Column 0: digits 1, 2 and 3 can stand in it only in band 2, so they are locked to
    /// band 2's minicolumn 0, which the other six digits leave.
    #[test]
    fn three_locked_digits_fill_their_minicolumn() {
        let mut cand = [super::super::super::tables::BAND; BOARDS];
        cand[27] = 0;
        let col0 = COLUMN0;
        for d in 0..3 {
            cand[d] &= !col0;
            cand[9 + d] &= !col0;
        }
        let before = cand;
        triads(&mut cand);
        for d in 3..9 {
            assert_eq!(cand[18 + d], before[18 + d] & !col0, "digit {}", d + 1);
        }
        for i in 0..21 {
            assert_eq!(cand[i], before[i], "board {i}");
        }
    }

    /// On an untouched grid no triad is naked or full: nothing changes.
    #[test]
    fn the_empty_grid_is_left_alone() {
        let mut cand = [super::super::super::tables::BAND; BOARDS];
        cand[27] = 0;
        let before = cand;
        triads(&mut cand);
        assert_eq!(cand, before);
    }
}
