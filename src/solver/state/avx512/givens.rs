//! [`State::from_givens_k`] on the AVX-512 registers: each digit's givens of a band as one
//! byte compare, then every board's row, box and column clearing, and the check for two
//! equal givens in one unit, lane by lane for all 27 boards at once, where the portable
//! code walks the givens one by one.

use std::arch::x86_64::{
    _mm512_and_si512, _mm512_andnot_si512, _mm512_maskz_mov_epi32, _mm512_or_si512,
    _mm512_ternarylogic_epi32, _mm512_test_epi32_mask,
};

use super::super::bits::band_givens;
use super::super::{Contradiction, State, BAND, BOARDS};
use super::singles::place_lanes;
use super::stack::{NEXT_BAND, NEXT_BAND2};
use super::{columns, in_all_rows, permute, splat, Boards, OR3, VALID_HIGH};

impl State {
    /// [`State::from_givens_k`], compiled for AVX-512F: the same state, and a
    /// [`Contradiction`] for the same puzzles (tested).
    ///
    /// # Safety
    /// The CPU must have AVX-512F (`is_x86_feature_detected!`).
    #[target_feature(enable = "avx512f,avx2")]
    pub(crate) unsafe fn from_givens_avx512(puzzle: &[u8; 81]) -> Result<State, Contradiction> {
        // SAFETY: the caller's CPU has AVX2 (this function's own requirement).
        let (placed, unsolved) = unsafe { band_givens(puzzle) };
        let g = Boards::load(&placed);
        // Each given clears its row and box in its band's board (two givens of a digit in
        // one row or box clash), and its column in the digit's other two bands (two in one
        // column clash).
        let (lo, clash_lo) = place_lanes(splat(BAND), g.0);
        let (hi, clash_hi) = place_lanes(splat(BAND), g.1);
        let cols = Boards(columns(g.0), columns(g.1));
        let (a, c) = (permute(cols, &NEXT_BAND), permute(cols, &NEXT_BAND2));
        let open = Boards::per_band(unsolved);
        let board = |x, g, a, c, open| {
            let taken = in_all_rows(_mm512_or_si512(a, c));
            _mm512_or_si512(_mm512_and_si512(_mm512_andnot_si512(taken, x), open), g)
        };
        let clash = _mm512_ternarylogic_epi32::<OR3>(
            clash_lo,
            clash_hi,
            // Each band against the next covers all three pairs of bands.
            _mm512_or_si512(_mm512_and_si512(cols.0, a.0), _mm512_and_si512(cols.1, a.1)),
        );
        if _mm512_test_epi32_mask(clash, clash) != 0 {
            return Err(Contradiction);
        }
        let cand = Boards(
            board(lo, g.0, a.0, c.0, open.0),
            // The padding lanes stay 0.
            _mm512_maskz_mov_epi32(VALID_HIGH, board(hi, g.1, a.1, c.1, open.1)),
        );
        let mut s = State {
            cand: [0; BOARDS],
            // The boards that are not 0.
            dirty: u32::from(_mm512_test_epi32_mask(cand.0, cand.0))
                | u32::from(_mm512_test_epi32_mask(cand.1, cand.1)) << 16,
            unsolved,
        };
        cand.store(&mut s.cand);
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testable;
    use super::*;

    /// The same state, or a contradiction for the same puzzles, as the portable copy.
    #[test]
    fn givens_match_the_portable_copy() {
        if !testable() {
            return;
        }
        // SAFETY: the CPU has AVX-512F (checked above).
        super::super::super::tests::givens_match_the_portable_copy(|p| unsafe {
            State::from_givens_avx512(p)
        });
    }
}
