//! The configuration branch: where a hard search guesses instead of on a cell.
//!
//! A digit's *configuration* in a band is which box each of the band's three rows gives
//! it (six orders at most, fewer as candidates go); in a stack, which column each band
//! gives it. A band (stack) whose nine digits have few configurations left between them
//! is nearly decided, and a digit there with two configurations splits the search in two
//! children that between them keep every solution and share none. This is tdoku's
//! branching rule (read from its description and source, no code copied): the unit with
//! the fewest configurations over its nine digits (among those not yet decided), then its
//! lowest digit with two, else three, else four or more (then the split is on one
//! minirow, see [`State::split_at`]). With the triad rules it takes forum_hardest's
//! guesses to tdoku's (`docs/notes/solver-history.md`).

use super::{band_pattern, column_mask, State, BAND};
use crate::grid::ORDERS_OF_THREE;
use crate::solver::tables::{COLUMN0, FITS, PERM_MINIROWS};

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

/// Column pattern of stack `s` from `x`, one digit's columns in bands 0, 1, 2 at bits
/// 0, 9, 18: bit `3b + c` set when band `b` can hold the digit in the stack's column `c`.
#[inline(always)]
fn stack_pattern(x: u32, s: usize) -> usize {
    let y = x >> (3 * s);
    (y & 7 | (y >> 6) & 0o70 | (y >> 12) & 0o700) as usize
}

/// Where to split: a unit (bands 0..3, then stacks 3..6) and a digit (0-based) there
/// with two or more configurations, as [`State::choose_split`] picks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SplitAt {
    pub(crate) unit: u8,
    pub(crate) digit: u8,
}

/// A stall whose tightest unit still has this many configurations over its nine digits
/// (9 when every digit is decided there, 54 at most) and which has a bivalue cell
/// guesses on a cell instead of splitting (the busiest bivalue cell, as the cell
/// branch picks it). On forum_hardest it takes the guesses per puzzle a little below
/// tdoku's in both modes, on two sets of isomorphs and on the file as published; 24 and 26
/// each did worse than 25 (`docs/notes/solver-history.md`).
pub(crate) const LOOSE_UNIT: u32 = 25;

/// The unit and digit to split on, from each digit's configuration count per unit
/// (`counts[d][u]`) and the stall's bivalue cells (`pairs`, 0..=81): the first unit with
/// the fewest configurations over its digits among those with at least 10 (nine means
/// every digit is decided there), then its lowest digit with two, else three, else four
/// or more. `None` when every unit is decided, or when that unit has [`LOOSE_UNIT`]
/// configurations or more and `pairs > 0` (then the search guesses on a cell).
#[inline(always)]
pub(crate) fn pick(counts: &[[u32; 6]; 9], pairs: u32) -> Option<SplitAt> {
    let mut totals = [0u32; 6];
    for digit in counts {
        for (total, n) in totals.iter_mut().zip(digit) {
            *total += n;
        }
    }
    let mut best: Option<(u32, usize)> = None;
    for (u, &total) in totals.iter().enumerate() {
        if total >= 10 && best.is_none_or(|(t, _)| total < t) {
            best = Some((total, u));
        }
    }
    let (total, unit) = best?;
    if pairs > 0 && total >= LOOSE_UNIT {
        return None;
    }
    let digit = [2, 3]
        .iter()
        .find_map(|&n| (0..9).find(|&d| counts[d][unit] == n))
        .or_else(|| (0..9).find(|&d| counts[d][unit] >= 4))?;
    Some(SplitAt {
        unit: unit as u8,
        digit: digit as u8,
    })
}

/// The configurations digit `d` has left in unit `u` of `cand` (bit `k`:
/// `ORDERS_OF_THREE[k]`).
#[inline(always)]
fn unit_fits(cand: &[u32], u: usize, d: usize) -> u8 {
    let boards = [cand[d], cand[9 + d], cand[18 + d]];
    if u < 3 {
        FITS[band_pattern(boards[u])]
    } else {
        let x = column_mask(boards[0]) | column_mask(boards[1]) << 9 | column_mask(boards[2]) << 18;
        FITS[stack_pattern(x, u - 3)]
    }
}

impl State {
    /// Where the search splits at a stall with `pairs` bivalue cells ([`pick`] over the
    /// boards), counted one digit and unit at a time; the AVX-512 propagation counts all
    /// at once (`avx512/split.rs`, `avx2/split.rs`).
    pub(super) fn choose_split(&self, pairs: u32) -> Option<SplitAt> {
        let mut counts = [[0u32; 6]; 9];
        for (d, units) in counts.iter_mut().enumerate() {
            for (u, n) in units.iter_mut().enumerate() {
                *n = unit_fits(&self.cand, u, d).count_ones();
            }
        }
        pick(&counts, pairs)
    }

    /// The split at `at`: child 0 takes the digit's first configuration there (in
    /// [`ORDERS_OF_THREE`] order), child 1 the others. With four or more configurations the
    /// others may cover the first one's cells, so the split is on the first one's minirow
    /// (minicolumn) in row (band) 0 instead: the digit takes it, or it does not. Either
    /// way the children share no solution and lose none.
    pub(crate) fn split_at(&self, at: SplitAt) -> Split {
        let (u, d) = (usize::from(at.unit), usize::from(at.digit));
        let fits = unit_fits(&self.cand, u, d);
        let first = fits.trailing_zeros() as usize;
        if fits.count_ones() >= 4 {
            return Self::first_place_split(u, d, ORDERS_OF_THREE[first][0]);
        }
        let rest = fits & (fits - 1);
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
        Split { d, keep }
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
            let i = 9 * b + split.d;
            self.set_board(i, self.cand[i] & split.keep[child][b]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_boards, xorshift};
    use super::*;

    /// Random states from dense to sparse: every split found parts one unit's
    /// configurations of its digit between the two children (none lost, none in both).
    #[test]
    fn splits_part_a_units_configurations() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut found = 0;
        for round in 0..4000 {
            let cand = random_boards(&mut next, round % 4);
            let state = State {
                cand,
                dirty: 0,
                unsolved: [BAND; 3],
            };
            let Some(at) = state.choose_split(0) else {
                continue;
            };
            let split = state.split_at(at);
            let (u, d) = (usize::from(at.unit), usize::from(at.digit));
            assert_eq!(split.d, d);
            let children = [0, 1].map(|child| {
                let mut s = state;
                s.take(&split, child);
                s.cand
            });
            let [a, b] = children.map(|c| unit_fits(&c, u, d));
            let all = unit_fits(&cand, u, d);
            assert!(
                a != 0 && b != 0 && a & b == 0 && a | b == all,
                "{at:?}: {all:#b} into {a:#b} and {b:#b}"
            );
            found += 1;
        }
        assert!(found >= 1000, "only {found} splits");
    }

    /// The pick: the unit with the fewest configurations (ties: the first), its lowest
    /// digit with two.
    #[test]
    fn picks_the_tightest_unit_and_a_digit_with_two() {
        let mut counts = [[6u32; 6]; 9];
        counts[4][4] = 1;
        counts[5][4] = 2;
        counts[7][4] = 2;
        counts[3][1] = 3;
        assert_eq!(pick(&counts, 0), Some(SplitAt { unit: 4, digit: 5 }));
        let decided = [[1u32; 6]; 9];
        assert_eq!(pick(&decided, 0), None);
    }

    /// With a bivalue cell at the stall, a unit with [`LOOSE_UNIT`] configurations or more
    /// leaves the guess to the cell; one with fewer is still split.
    #[test]
    fn a_loose_unit_leaves_the_guess_to_a_bivalue_cell() {
        let mut counts = [[6u32; 6]; 9];
        for (d, digit) in counts.iter_mut().enumerate() {
            digit[2] = if d < 7 { 1 } else { 3 };
        }
        // Unit 2: 7 + 6 = 13 configurations, under the bound.
        const { assert!(13 < LOOSE_UNIT) };
        assert_eq!(pick(&counts, 5), Some(SplitAt { unit: 2, digit: 7 }));
        for digit in &mut counts {
            digit[2] = 6;
        }
        counts[0][1] = 2;
        counts[1][1] = 1;
        counts[2][1] = 1;
        // Unit 1: 2 + 1 + 1 + 6 * 6 = 40, the tightest, and loose.
        const { assert!(40 >= LOOSE_UNIT) };
        assert_eq!(pick(&counts, 0), Some(SplitAt { unit: 1, digit: 0 }));
        assert_eq!(pick(&counts, 1), None);
    }
}
