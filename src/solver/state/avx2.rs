//! The AVX2 kernel: the portable propagation ([`State::propagate`]) and placement of the
//! givens compiled for AVX2, BMI1, BMI2, POPCNT and LZCNT, for x86-64 CPUs without
//! AVX-512. The same code, so the same states and guesses (tested node by node); the
//! compiler turns the stack logic's and the triad rules' loops over the boards into
//! 256-bit vector code, and counts bits and finds the lowest set bit in one instruction each.

use super::{Branch, Contradiction, Logic, State};

impl State {
    /// [`State::propagate`] compiled for the AVX2 kernel's features: the same result and
    /// state.
    ///
    /// # Safety
    /// The CPU must have AVX2, BMI1, BMI2, POPCNT and LZCNT
    /// (`Kernel::Avx2.available()`).
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) unsafe fn propagate_avx2(
        &mut self,
        max_pairs: u32,
        logic: Logic,
    ) -> Result<Option<Branch>, Contradiction> {
        self.propagate_logic(max_pairs, logic)
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
    use super::super::tests::{givens_match_the_portable_copy, kernel_matches_the_portable_one};
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
