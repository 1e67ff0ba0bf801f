//! The configuration branch: where a hard search guesses instead of on a cell.
//!
//! A digit's *configuration* in a band is which box each of the band's three rows gives
//! it (six orders at most, fewer as candidates go); in a stack, which column each band
//! gives it. A band (stack) whose nine digits have few configurations left between them
//! is nearly decided, and a digit there with two configurations splits the search in two
//! children that between them keep every solution and share none. This is tdoku's
//! branching rule (read from its description and source, no code copied): the unit with
//! the fewest configurations over its nine digits (among those not yet decided), then its
//! lowest digit with two, else three. With the triad rules it takes forum_hardest's
//! guesses to tdoku's (issue 14, BENCHMARKS.md).

use super::triads::MINIROW_LOW;
use super::{State, BAND};
use crate::grid::ORDERS_OF_THREE;
use crate::solver::tables::{COLUMN0, FITS, PERM_MINIROWS, SHRINK};

/// A split on one digit's configurations in one band or stack: the masks each child
/// keeps on the digit's three boards (bands 0, 1, 2). Child 0 takes the digit's first
/// configuration (in [`ORDERS_OF_THREE`] order), child 1 the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// The digit, 0-based (digit `d + 1`).
    d: usize,
    /// `keep[child][b]`: the cells of band `b` the digit keeps in that child.
    keep: [[u32; 3]; 2],
}

/// Minirow pattern of a band board: bit `3r + k` set when row `r` can hold the digit in
/// box `k`.
#[inline(always)]
fn band_pattern(a: u32) -> usize {
    usize::from(SHRINK[(a & 0x1FF) as usize])
        | usize::from(SHRINK[((a >> 9) & 0x1FF) as usize]) << 3
        | usize::from(SHRINK[(a >> 18) as usize & 0x1FF]) << 6
}

/// Columns of a band board holding a candidate (nine bits).
#[inline(always)]
fn columns(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 0x1FF
}

/// Column pattern of stack `s` from `x`, one digit's columns in bands 0, 1, 2 at bits
/// 0, 9, 18: bit `3b + c` set when band `b` can hold the digit in the stack's column `c`.
#[inline(always)]
fn stack_pattern(x: u32, s: usize) -> usize {
    let y = x >> (3 * s);
    (y & 7 | (y >> 6) & 0o70 | (y >> 12) & 0o700) as usize
}

impl State {
    /// The split the search takes at a stall, if any: `None` when the chosen unit has no
    /// digit with two or three configurations (the search then branches on a cell).
    ///
    /// Units are the three bands, then the three stacks; the first with the fewest
    /// configurations over its digits wins, among those with at least 10 (nine means
    /// every digit is decided there).
    pub(crate) fn config_split(&self) -> Option<Split> {
        #[cfg(target_arch = "x86_64")]
        if super::avx512_usable() {
            // SAFETY: the CPU has BMI2 and POPCNT (`avx512_usable` checks them).
            return unsafe { self.config_split_bmi2() };
        }
        self.config_split_with(band_pattern, stack_pattern)
    }

    /// [`State::config_split`] with the patterns gathered by `pext`.
    ///
    /// # Safety
    /// The CPU must have BMI2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    unsafe fn config_split_bmi2(&self) -> Option<Split> {
        use std::arch::x86_64::_pext_u32;
        self.config_split_with(
            |a| _pext_u32(a | a >> 1 | a >> 2, MINIROW_LOW) as usize,
            |x, s| _pext_u32(x, (7 << (3 * s)) * COLUMN0) as usize,
        )
    }

    /// [`State::config_split`], the patterns read by `band` (from a board) and `stack`
    /// (from the digit's columns in the three bands at bits 0, 9, 18, and the stack).
    #[inline(always)]
    fn config_split_with(
        &self,
        band: impl Fn(u32) -> usize,
        stack: impl Fn(u32, usize) -> usize,
    ) -> Option<Split> {
        // fits[d][u]: the configurations digit d has left in unit u (bit k: ORDERS_OF_THREE[k]).
        let mut fits = [[0u8; 6]; 9];
        let mut totals = [0u32; 6];
        for (d, units) in fits.iter_mut().enumerate() {
            let boards = [self.cand[d], self.cand[9 + d], self.cand[18 + d]];
            let x = columns(boards[0]) | columns(boards[1]) << 9 | columns(boards[2]) << 18;
            for (b, &board) in boards.iter().enumerate() {
                units[b] = FITS[band(board) & 0x1FF];
                units[3 + b] = FITS[stack(x, b) & 0x1FF];
            }
            for (total, f) in totals.iter_mut().zip(units.iter()) {
                *total += f.count_ones();
            }
        }
        let mut best: Option<(u32, usize)> = None;
        for (u, &total) in totals.iter().enumerate() {
            if total >= 10 && best.is_none_or(|(t, _)| total < t) {
                best = Some((total, u));
            }
        }
        let (_, u) = best?;
        let configs = |d: usize| fits[d][u].count_ones();
        let d = [2, 3]
            .iter()
            .find_map(|&n| (0..9).find(|&d| configs(d) == n))
            .or_else(|| (0..9).find(|&d| configs(d) >= 4))?;
        let first = fits[d][u].trailing_zeros() as usize;
        if configs(d) >= 4 {
            // Four or more: the rest of the configurations may cover the first one's
            // minirows, so split on the first one's minirow (minicolumn) in band (row) 0
            // instead: the digit takes it, or it does not.
            return Some(Self::first_place_split(u, d, ORDERS_OF_THREE[first][0]));
        }
        let rest = fits[d][u] & (fits[d][u] - 1);
        let mut keep = [[BAND; 3]; 2];
        if u < 3 {
            keep[0][u] = PERM_MINIROWS[first];
            keep[1][u] = (0..6)
                .filter(|k| rest >> k & 1 == 1)
                .fold(0, |m, k| m | PERM_MINIROWS[k]);
        } else {
            let s = u - 3;
            let stack = (0o7 * COLUMN0) << (3 * s);
            let column = |b: usize, k: usize| COLUMN0 << (3 * s + ORDERS_OF_THREE[k][b]);
            for (b, kept) in keep[0].iter_mut().enumerate() {
                *kept = !stack & BAND | column(b, first);
            }
            for (b, kept) in keep[1].iter_mut().enumerate() {
                *kept = (0..6)
                    .filter(|k| rest >> k & 1 == 1)
                    .fold(!stack & BAND, |m, k| m | column(b, k));
            }
        }
        Some(Split { d, keep })
    }

    /// The split "digit `d` takes, in unit `u`, position `k` of its first row (band) or
    /// not": for a band, row 0's minirow in box `k`; for a stack, band 0's column `k` of
    /// the stack.
    fn first_place_split(u: usize, d: usize, k: usize) -> Split {
        let mut keep = [[BAND; 3]; 2];
        if u < 3 {
            let minirow = 0o7 << (3 * k);
            let other_rows = (0o7 * COLUMN0) << (3 * k) & !0x1FF;
            keep[0][u] = !(0x1FF & !minirow) & !other_rows & BAND;
            keep[1][u] = !minirow & BAND;
        } else {
            let column = COLUMN0 << (3 * (u - 3) + k);
            let stack = (0o7 * COLUMN0) << (3 * (u - 3));
            keep[0] = [!stack & BAND | column, !column & BAND, !column & BAND];
            keep[1][0] = !column & BAND;
        }
        Split { d, keep }
    }

    /// Narrows the state to child `child` (0 or 1) of `split`; propagation follows.
    pub(crate) fn take(&mut self, split: &Split, child: usize) {
        for b in 0..3 {
            self.cand[9 * b + split.d] &= split.keep[child][b];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::state::BOARDS;

    /// The configurations digit `d` has left in unit `u` (bands 0..3, stacks 3..6).
    fn unit_fits(cand: &[u32; BOARDS], u: usize, d: usize) -> u8 {
        let boards = [cand[d], cand[9 + d], cand[18 + d]];
        if u < 3 {
            FITS[band_pattern(boards[u])]
        } else {
            let x = columns(boards[0]) | columns(boards[1]) << 9 | columns(boards[2]) << 18;
            FITS[stack_pattern(x, u - 3)]
        }
    }

    /// Random states from dense to sparse: every split found parts one unit's
    /// configurations of its digit between the two children (none lost, none in both),
    /// and the `pext` copy chooses the same split as the portable one.
    #[test]
    fn splits_part_a_units_configurations() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let mut found = 0;
        for round in 0..4000 {
            let mut cand = [0u32; BOARDS];
            for board in &mut cand[..27] {
                *board = (0..round % 4).fold(next() & BAND, |b, _| b & next()) | next() & BAND;
            }
            let state = State {
                cand,
                prev: cand,
                unsolved: [BAND; 3],
            };
            let Some(split) = state.config_split_with(band_pattern, stack_pattern) else {
                continue;
            };
            #[cfg(target_arch = "x86_64")]
            if crate::solver::state::avx512_usable() {
                // SAFETY: the CPU has BMI2 and POPCNT.
                assert_eq!(unsafe { state.config_split_bmi2() }, Some(split));
            }
            let children = [0, 1].map(|child| {
                let mut s = state;
                s.take(&split, child);
                s.cand
            });
            let parted = (0..6).any(|u| {
                let [a, b] = children.map(|c| unit_fits(&c, u, split.d));
                let all = unit_fits(&cand, u, split.d);
                a != 0 && b != 0 && a & b == 0 && a | b == all
            });
            assert!(parted, "{split:?} of {cand:?}");
            found += 1;
        }
        assert!(found >= 1000, "only {found} splits");
    }
}
