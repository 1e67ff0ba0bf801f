//! [`State::from_givens_k`] on the AVX-512 registers: each digit's givens of a band as one
//! byte compare, then every board's row, box and column clearing, and the check for two
//! equal givens in one unit, lane by lane for all 27 boards at once, where the portable
//! code walks the givens one by one.

use std::arch::x86_64::{
    __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
    _mm512_and_si512, _mm512_andnot_si512, _mm512_maskz_mov_epi32, _mm512_or_si512,
    _mm512_ternarylogic_epi32, _mm512_test_epi32_mask,
};

use super::super::{given_cells, Contradiction, State, BAND, BOARDS};
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
        // `placed[9 * b + d]`: the givens of digit `d + 1` in band `b`, a byte compare
        // each. Band 2's 32 bytes end at the puzzle's end, five bytes before the band.
        let mut placed = [0u32; BOARDS];
        let mut unsolved = [0u32; 3];
        for b in 0..3 {
            let (from, skip) = if b < 2 { (27 * b, 0) } else { (81 - 32, 5) };
            // SAFETY: 32 bytes from `from`, which is at most 81 - 32.
            let bytes = unsafe { _mm256_loadu_si256(puzzle.as_ptr().add(from).cast::<__m256i>()) };
            for d in 0..9 {
                let eq = _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(d as i8 + 1));
                placed[9 * b + d] = (_mm256_movemask_epi8(eq) as u32 >> skip) & BAND;
            }
            unsolved[b] = BAND & !given_cells(&puzzle[27 * b..27 * b + 27]);
        }
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
            prev: [0; BOARDS],
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
