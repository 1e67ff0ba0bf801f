//! The AVX2 kernel, for x86-64 CPUs without AVX-512: [`State::propagate`] with the 27
//! candidate boards held in four 256-bit registers for the whole call (`avx2/boards.rs`),
//! as the AVX-512 kernel holds them in two, compiled for AVX2, BMI1, BMI2, POPCNT and
//! LZCNT.
//!
//! Each round of updates reads the boards as the round found them (one copy stored at the
//! round's start, from which each update's 4-byte load takes its value) and their
//! deductions are applied together, where the portable code applies each before the next:
//! the rules are the portable code's and monotone, so both reach the same fixpoint and
//! make the same guesses (tested node by node), though the states between differ. An
//! update's deductions go into an accumulator in the registers at once, one lane permute
//! per register (`boards.rs`), so that nothing is stored in narrow pieces and loaded back
//! wide (such a load waits for the stores to reach the cache). The accumulator collects
//! what the updates remove, so that the lanes an update leaves alone read the zeros above
//! the three masks. The boards that changed in a round are the next round's (a board that
//! only its own update changed is looked at again, which costs less than telling it
//! apart).
//!
//! Naked singles are counted and placed, the triad rules applied (`triads.rs`) and the
//! split chosen (`split.rs`) on the registers for all boards at once; for the counts over
//! a band's digits the boards are permuted two digits to a register with the bands in
//! lanes, where those counts run down the registers (`boards.rs`, `by_digit`). The stack
//! logic and the placement of the givens run on the registers too (`stack.rs`), with the
//! same digit's other bands brought to each board's lane by two lane permutes and a blend
//! per register.
//!
//! The band logic's table is looked up by the transpose of a board's minirow pattern
//! ([`minirow_keys`]), which takes a few shifts on the registers, where the pattern takes
//! three table lookups, or BMI2 `pext`, which is slow on AMD CPUs before Zen 3 (common
//! AVX2 machines without AVX-512). Each round's keys are stored with its boards, so that
//! an update's lookup waits for one load, not for the shifts as well: the rounds of a
//! settle wait on each other (an update reads what the last round left), and an update's
//! path from its board to its deductions is what a round takes.

mod boards;
mod split;
mod stack;
mod triads;

use boards::{and, and_not, band_counts, effects, minirow_keys, place, Boards};

use super::super::tables::COMPLEX_T;
use super::bits::lone_cells;
use super::triads::MINIROW_LOW;
use super::{column_mask, Branch, Contradiction, Logic, State, BAND, OTHER, POINTING};

/// [`POINTING`] inverted: the cells the digit's other bands lose.
static NOT_POINTING: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut k = 0;
    while k < 512 {
        t[k] = !POINTING[k];
        k += 1;
    }
    t
};

impl State {
    /// [`State::propagate`] on the registers (see the module doc): the same result and
    /// state.
    ///
    /// # Safety
    /// The CPU must have AVX2, BMI1, BMI2, POPCNT and LZCNT
    /// (`Kernel::Avx2.available()`).
    #[inline]
    pub(crate) unsafe fn propagate_avx2(
        &mut self,
        max_pairs: u32,
        logic: Logic,
    ) -> Result<Option<Branch>, Contradiction> {
        // Two copies, as in the other kernels: the triad rules and the split's choice stay
        // out of the one the search runs most.
        // SAFETY: the caller's CPU features.
        unsafe {
            if logic == Logic::Triads {
                self.propagate_avx2_as::<true>(max_pairs, true)
            } else {
                self.propagate_avx2_as::<false>(max_pairs, logic == Logic::Stacks)
            }
        }
    }

    /// Writes back the boards and the unfixed cells; no board is dirty (the propagation
    /// has reached its fixpoint).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn put_avx2(&mut self, cand: Boards, unsolved: [u32; 4]) {
        cand.store(&mut self.cand);
        self.dirty = 0;
        self.unsolved = [unsolved[0], unsolved[1], unsolved[2]];
    }

    /// [`State::propagate_avx2`] with the triad rules and the split's choice (`TRIADS`) or
    /// without them, with the stack logic when `stacks`.
    ///
    /// # Safety
    /// As [`State::propagate_avx2`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn propagate_avx2_as<const TRIADS: bool>(
        &mut self,
        max_pairs: u32,
        stacks: bool,
    ) -> Result<Option<Branch>, Contradiction> {
        let mut cand = Boards::load(&self.cand);
        // The boards to update: at first the dirty ones, then those a round changed.
        let mut m = self.dirty;
        // A fourth word so that `unsolved[b & 3]` needs no bounds check; always 0.
        let [u0, u1, u2] = self.unsolved;
        let mut unsolved = [u0, u1, u2, 0];
        // The cells each band's updates found alone in a row of their board, taken from
        // `unsolved` once the boards settle rather than after every round: a load of these
        // words right after a round's 4-byte stores to them waits for the stores to reach
        // the cache.
        let mut solved = [0u32; 4];
        loop {
            // Settle: `update` on every changed board, each round's updates reading the
            // boards as the round found them, their deductions applied together.
            // Each update reads its board from here (see the module doc), stored as each
            // round ends, straight from the registers.
            let mut seen = cand.lanes();
            // Each board's index into `COMPLEX_T`, stored beside it.
            let mut keys = cand.map(|x| minirow_keys(x)).lanes();
            while m != 0 {
                let start = cand;
                // What the round's updates take from each board.
                let mut gone = Boards::zeros();
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let a = seen[i & 31] & COMPLEX_T[keys[i & 31] as usize & 0x1FF];
                    if a == 0 {
                        return Err(Contradiction);
                    }
                    let not_keep = NOT_POINTING[column_mask(a) as usize];
                    let b = usize::from(OTHER[i % 27][2]);
                    // Every lone cell leaves the band's other boards, whether or not an
                    // earlier update fixed it (then they lack it already), so that no
                    // update waits on the last one's `unsolved`. Two boards that both
                    // claim a cell take it from each other, and the next round finds the
                    // row left empty: the contradiction the portable code finds when the
                    // second claim meets the first's placement.
                    let new = lone_cells(a);
                    solved[b & 3] |= new;
                    gone = gone.apply(i, effects(a, not_keep, new));
                }
                cand = cand.zip(gone, |c, g| and_not(g, c));
                m = cand.differ(start) & BAND;
                cand.store_lanes(&mut seen);
                cand.map(|x| minirow_keys(x)).store_lanes(&mut keys);
            }
            for (u, s) in unsolved.iter_mut().zip(solved) {
                *u &= !s;
            }
            // Each word alone (one 8-byte load over two fresh 4-byte stores would wait).
            if unsolved[0] | unsolved[1] | unsolved[2] == 0 {
                self.put_avx2(cand, unsolved);
                return Ok(None);
            }
            // Naked singles, counted for all bands at once, placed on the registers for
            // all boards at once.
            let counts = band_counts(cand);
            if counts.iter().any(|c| c[0] != BAND) {
                return Err(Contradiction);
            }
            let open = Boards::per_band([unsolved[0], unsolved[1], unsolved[2]]);
            let two = Boards::per_band([counts[0][1], counts[1][1], counts[2][1]]);
            let hits = cand
                .zip(two, |c, t| and_not(t, c))
                .zip(open, |h, o| and(h, o));
            if !hits.is_zero() {
                let before = cand;
                // SAFETY: this function's CPU features.
                cand = unsafe { place(cand, hits)? };
                m = cand.differ(before) & BAND;
                continue;
            }
            if stacks {
                let after = stack::stack_filter(cand);
                // After settling, any difference is new.
                m = after.differ(cand) & BAND;
                if m != 0 {
                    cand = after;
                    continue;
                }
            }
            if TRIADS {
                let after = triads::triads(cand);
                m = after.differ(cand) & BAND;
                if m != 0 {
                    cand = after;
                    continue;
                }
            }
            self.put_avx2(cand, unsolved);
            let pairs = counts.map(|[_, r2, r3]| r2 & !r3);
            let choose = |bivalue| {
                if TRIADS {
                    split::choose(cand, bivalue)
                } else {
                    None
                }
            };
            return Ok(Some(self.stall_branch(pairs, max_pairs, choose)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tables::COMPLEX;
    use super::super::tests::{givens_match_the_portable_copy, kernel_matches_the_portable_one};
    use super::super::{band_pattern, BOARDS};
    use super::*;
    use crate::solver::Kernel;

    /// The transposed table, looked up by the shifted flags, gives what the portable
    /// table gives from the pattern, for every minirow pattern (each minirow of a board
    /// full or empty, and with one cell of three).
    #[test]
    fn minirow_keys_find_the_portable_table_entry() {
        if !testable() {
            return;
        }
        for pattern in 0..512u32 {
            for cell in [0o7, 0o1, 0o4] {
                let mut a = 0u32;
                for j in 0..9 {
                    if pattern >> j & 1 == 1 {
                        a |= cell << (3 * j);
                    }
                }
                // SAFETY: the CPU has AVX2 (checked above).
                let keys = unsafe { Boards::load(&[a; BOARDS]).map(|x| minirow_keys(x)).lanes() };
                for &key in &keys[..BOARDS] {
                    assert_eq!(COMPLEX_T[key as usize], COMPLEX[band_pattern(a)], "{a:#o}");
                }
            }
        }
    }

    /// `false`, saying why on standard error, when this CPU cannot run the AVX2 kernel
    /// (there is then nothing to compare).
    fn testable() -> bool {
        let usable = Kernel::Avx2.available();
        if !usable {
            eprintln!("skipped: this CPU lacks AVX2, BMI1, BMI2, POPCNT or LZCNT");
        }
        usable
    }

    /// The AVX2 propagation leaves exactly the state the portable one does and returns the
    /// same branch or contradiction, at every node of the search trees of the hard puzzles
    /// (`state/tests.rs`).
    #[test]
    fn avx2_propagation_matches_the_portable_one() {
        if !testable() {
            return;
        }
        // SAFETY: the CPU has the kernel's features (checked above).
        kernel_matches_the_portable_one(|s, max_pairs, logic| unsafe {
            s.propagate_avx2(max_pairs, logic)
        });
    }

    /// The same state, or a contradiction for the same puzzles, as the portable copy.
    #[test]
    fn avx2_givens_match_the_portable_copy() {
        if !testable() {
            return;
        }
        // SAFETY: the CPU has the kernel's features (checked above).
        givens_match_the_portable_copy(|p| unsafe { State::from_givens_avx2(p) });
    }
}
