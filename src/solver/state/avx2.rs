//! The AVX2 kernel, for x86-64 CPUs without AVX-512: [`State::propagate`] with the 27
//! candidate boards held in four 256-bit registers (`avx2/boards.rs`), as the AVX-512
//! kernel holds them in two, compiled for AVX2, BMI1, BMI2, POPCNT and LZCNT.
//!
//! Each round of updates reads the boards as the round found them (one copy stored at the
//! round's start) and their deductions are applied together at the round's end, where
//! the portable code applies each before the next. An update's deductions are gathered in
//! scalar words, not in the registers (AVX2 has no masked lanes): the cells it placed in its
//! band (one word per band), and an and-mask per board (the digit's other two bands keep
//! `keep`, the board itself its new value). At the round's end each board loses its band's
//! placed cells, except those its own update placed (an update places cells no other
//! update of the round places: each takes them out of the band's unfixed cells). Naked
//! singles are placed on the registers for all boards at once; the stack logic and the
//! triad rules run the portable code compiled here on the boards stored back. The same
//! rules reach the same fixpoint, so the same guesses follow (tested node by node).
//!
//! Neither `pext` nor `pdep` is used: they are slow on the AMD CPUs before Zen 3.

mod boards;

use boards::{and, and_not, place, Boards};

use super::{
    band_pattern, candidate_counts, column_mask, stack_filter_portable, triads, Branch,
    Contradiction, Logic, State, BAND, COMPLEX, OTHER, POINTING, SOLO,
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

    /// Writes back the boards, their last-seen copies and the unfixed cells.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn put_avx2(&mut self, cand: Boards, prev: Boards, unsolved: [u32; 4]) {
        cand.store(&mut self.cand);
        prev.store(&mut self.prev);
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
        let mut prev = Boards::load(&self.prev);
        // A fourth word so that `unsolved[b & 3]` needs no bounds check; always 0.
        let [u0, u1, u2] = self.unsolved;
        let mut unsolved = [u0, u1, u2, 0];
        loop {
            // Settle, a round at a time (the module doc).
            loop {
                let mut m = cand.differ(prev) & BAND;
                if m == 0 {
                    break;
                }
                let updated = m;
                let seen = cand.lanes();
                // `keep[j]`: what board `j` keeps; `own[j]`: the cells board `j`'s update
                // placed; `placed[b]`: the cells all updates of band `b` placed; `after[j]`:
                // board `j` as its update left it.
                let mut keep = [u32::MAX; 32];
                let mut own = [0u32; 32];
                let mut after = [0u32; 32];
                let mut placed = [0u32; 4];
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let a = seen[i & 31];
                    let a = a & COMPLEX[band_pattern(a) & 0x1FF];
                    if a == 0 {
                        return Err(Contradiction);
                    }
                    let column = POINTING[column_mask(a) as usize];
                    let [o1, o2, b] = OTHER[i % 27].map(usize::from);
                    keep[o1 & 31] &= column;
                    keep[o2 & 31] &= column;
                    keep[i & 31] &= a;
                    let solved = u32::from(SOLO[(a & 0x1FF) as usize])
                        | u32::from(SOLO[((a >> 9) & 0x1FF) as usize]) << 9
                        | u32::from(SOLO[(a >> 18) as usize & 0x1FF]) << 18;
                    let new = solved & unsolved[b & 3];
                    unsolved[b & 3] &= !new;
                    placed[b & 3] |= new;
                    own[i & 31] = new;
                    after[i & 31] = a;
                }
                let load = |words: &[u32; 32]| {
                    let mut t = [0u32; super::BOARDS];
                    t.copy_from_slice(&words[..super::BOARDS]);
                    Boards::load(&t)
                };
                let band_placed = Boards::per_band([placed[0], placed[1], placed[2]]);
                // Each board loses its band's placed cells but its own.
                let lose = band_placed.zip(load(&own), |band, own| and_not(own, band));
                cand = cand
                    .zip(load(&keep), |c, k| and(c, k))
                    .zip(lose, |c, l| and_not(l, c));
                prev = prev.select(load(&after), updated);
            }
            if unsolved[0] | unsolved[1] | unsolved[2] == 0 {
                self.put_avx2(cand, prev, unsolved);
                return Ok(None);
            }
            // Naked singles, counted band by band from the stored boards, placed on the
            // registers for all bands at once.
            let seen = cand.lanes();
            let mut counts = [[0u32; 3]; 3];
            for (b, c) in counts.iter_mut().enumerate() {
                *c = candidate_counts(&seen[9 * b..9 * b + 9]);
                if c[0] != BAND {
                    return Err(Contradiction);
                }
            }
            let open = Boards::per_band([unsolved[0], unsolved[1], unsolved[2]]);
            let two = Boards::per_band([counts[0][1], counts[1][1], counts[2][1]]);
            let hits = cand
                .zip(two, |c, t| and_not(t, c))
                .zip(open, |h, o| and(h, o));
            if !hits.is_zero() {
                cand = place(cand, hits)?;
                continue;
            }
            if stacks || TRIADS {
                self.put_avx2(cand, prev, unsolved);
                if stacks {
                    stack_filter_portable(&mut self.cand);
                    let after = Boards::load(&self.cand);
                    // After settling, `prev` equals `cand`: any difference is new.
                    if after.differ(cand) != 0 {
                        cand = after;
                        continue;
                    }
                }
                if TRIADS {
                    triads::triads(&mut self.cand);
                    let after = Boards::load(&self.cand);
                    if after.differ(cand) != 0 {
                        cand = after;
                        continue;
                    }
                }
            }
            self.put_avx2(cand, prev, unsolved);
            let pairs = counts.map(|[_, r2, r3]| r2 & !r3);
            let bivalue = pairs.iter().map(|p| p.count_ones()).sum();
            if TRIADS {
                if let Some(at) = self.choose_split(bivalue) {
                    return Ok(Some(Branch::Split(at)));
                }
            }
            let cell = self.branch_cell(pairs, max_pairs);
            return Ok(Some(Branch::Cell {
                cell,
                digits: self.digits(cell),
                pairs: bivalue,
            }));
        }
    }

    /// [`State::from_givens_k`] compiled for the AVX2 kernel's features: the same state.
    ///
    /// # Safety
    /// As [`State::propagate_avx2`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) unsafe fn from_givens_avx2(puzzle: &[u8; 81]) -> Result<State, Contradiction> {
        State::from_givens_portable(puzzle)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{kernel_matches_the_portable_one, xorshift};
    use super::*;
    use crate::solver::Kernel;

    /// `false`, saying why on standard error, when this CPU cannot run the AVX2 kernel
    /// (there is then nothing to compare).
    fn testable() -> bool {
        let usable = Kernel::Avx2.available();
        if !usable {
            eprintln!("skipped: this CPU lacks AVX2, BMI1, BMI2, POPCNT or LZCNT");
        }
        usable
    }

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

    /// The same state, or a contradiction for the same puzzles, as the portable copy, on
    /// random puzzles of 0 to 40 givens (the denser, the more often two equal givens meet).
    #[test]
    fn avx2_givens_match_the_portable_copy() {
        if !testable() {
            return;
        }
        let mut next = xorshift(0x0123_4567_89AB_CDEF);
        let (mut fine, mut clash) = (0, 0);
        for round in 0..4000 {
            let mut p = [0u8; 81];
            for _ in 0..round % 41 {
                let r = next();
                p[(r % 81) as usize] = (r >> 8) as u8 % 9 + 1;
            }
            let want = State::from_givens_portable(&p);
            // SAFETY: the CPU has the kernel's features (checked above).
            let got = unsafe { State::from_givens_avx2(&p) };
            match (want, got) {
                (Ok(w), Ok(g)) => {
                    assert_eq!((g.cand, g.prev, g.unsolved), (w.cand, w.prev, w.unsolved));
                    fine += 1;
                }
                (Err(_), Err(_)) => clash += 1,
                (w, g) => panic!("{p:?}: portable {:?}, avx2 {:?}", w.is_ok(), g.is_ok()),
            }
        }
        assert!(fine > 500 && clash > 500, "{fine} fine, {clash} clashes");
    }
}
