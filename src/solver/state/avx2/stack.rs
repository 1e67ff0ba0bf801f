//! The stack logic ([`super::super::stack_filter_portable`]) and the placement of the givens
//! on the AVX2 kernel's registers, the AVX-512 kernel's formulation: the same results
//! (tested), without storing the boards, running the portable loops and loading the boards
//! back (a 32-byte load right after narrower stores waits for them to reach the cache).
//!
//! Both need, in each board's lane, the same digit's boards of the other two bands: the
//! 27 lanes rotated by 9 and by 18 ([`next_band`], [`next_band2`]). Each register of the
//! result takes its lanes from two registers of the source, so a rotation is two lane
//! permutes and a blend per register.

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi32, _mm256_or_si256,
    _mm256_permutevar8x32_epi32, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_slli_epi32,
    _mm256_srli_epi32, _mm256_testz_si256,
};

use super::super::bits::band_givens;
use super::super::{Contradiction, State, BAND, BOARDS};
use super::boards::{columns, place_lanes, splat, Boards};

/// Lane `l` of `p` permuted by `idx`, or of `q` where bit `l` of `M` is set.
#[target_feature(enable = "avx2")]
#[inline]
fn two<const M: i32>(p: __m256i, q: __m256i, idx: __m256i) -> __m256i {
    _mm256_blend_epi32::<M>(
        _mm256_permutevar8x32_epi32(p, idx),
        _mm256_permutevar8x32_epi32(q, idx),
    )
}

/// Lanes 0..3 of `x`, the five above cleared (the padding lanes of the last register).
#[target_feature(enable = "avx2")]
#[inline]
fn first_three(x: __m256i) -> __m256i {
    _mm256_blend_epi32::<0xF8>(x, _mm256_setzero_si256())
}

/// Lane `i` (< 27) holds board `(i + 9) % 27` of `b`: the same digit one band further.
/// Lanes from 27 are 0.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn next_band(b: Boards) -> Boards {
    let [r0, r1, r2, r3] = b.0;
    let up1 = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0);
    Boards([
        // Boards 9..16: lanes 1..8 of register 1, then lane 0 of register 2.
        two::<0x80>(r1, r2, up1),
        // Boards 17..24.
        two::<0x80>(r2, r3, up1),
        // Boards 25, 26, 0..5.
        two::<0xFC>(r3, r0, _mm256_setr_epi32(1, 2, 0, 1, 2, 3, 4, 5)),
        // Boards 6, 7, 8.
        first_three(two::<0x04>(
            r0,
            r1,
            _mm256_setr_epi32(6, 7, 0, 0, 0, 0, 0, 0),
        )),
    ])
}

/// Lane `i` (< 27) holds board `(i + 18) % 27` of `b`: the same digit two bands further.
/// Lanes from 27 are 0.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn next_band2(b: Boards) -> Boards {
    let [r0, r1, r2, r3] = b.0;
    let down1 = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
    Boards([
        // Boards 18..23 (register 2, lanes 2..8), 24, 25 (register 3).
        two::<0xC0>(r2, r3, _mm256_setr_epi32(2, 3, 4, 5, 6, 7, 0, 1)),
        // Boards 26, 0..6.
        two::<0xFE>(r3, r0, _mm256_setr_epi32(2, 0, 1, 2, 3, 4, 5, 6)),
        // Boards 7..14.
        two::<0xFE>(r0, r1, down1),
        // Boards 15, 16, 17.
        first_three(two::<0x06>(r1, r2, down1)),
    ])
}

/// Per lane: a nine-bit column mask widened to those columns in all three rows of the band.
#[target_feature(enable = "avx2")]
#[inline]
fn in_all_rows(y: __m256i) -> __m256i {
    _mm256_or_si256(
        _mm256_or_si256(y, _mm256_slli_epi32::<9>(y)),
        _mm256_slli_epi32::<18>(y),
    )
}

/// `super::super::rot1` per lane.
#[target_feature(enable = "avx2")]
#[inline]
fn rot1(y: __m256i) -> __m256i {
    _mm256_or_si256(
        _mm256_and_si256(_mm256_srli_epi32::<1>(y), splat(0o333)),
        _mm256_and_si256(_mm256_slli_epi32::<2>(y), splat(0o444)),
    )
}

/// `super::super::rot2` per lane.
#[target_feature(enable = "avx2")]
#[inline]
fn rot2(y: __m256i) -> __m256i {
    _mm256_or_si256(
        _mm256_and_si256(_mm256_slli_epi32::<1>(y), splat(0o666)),
        _mm256_and_si256(_mm256_srli_epi32::<2>(y), splat(0o111)),
    )
}

/// The stack logic for all 27 boards at once, as `stack_filter_portable` does it: per
/// register, boards `x`, their columns `o`, and the columns of the same digit's boards one
/// band (`a`) and two bands (`c`) further.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn stack_filter(cand: Boards) -> Boards {
    let occ = Boards(cand.0.map(|x| columns(x)));
    let (a, c) = (next_band(occ), next_band2(occ));
    let filter = |j: usize| {
        let (o, a, c) = (occ.0[j], a.0[j], c.0[j]);
        let one = _mm256_and_si256(rot1(a), rot2(c));
        let other = _mm256_and_si256(rot2(a), rot1(c));
        let keep = _mm256_and_si256(o, _mm256_or_si256(one, other));
        _mm256_and_si256(cand.0[j], in_all_rows(keep))
    };
    Boards([filter(0), filter(1), filter(2), filter(3)])
}

impl State {
    /// [`State::from_givens_k`] on the AVX2 registers, as the AVX-512 kernel's copy: each
    /// digit's givens of a band as one byte compare, then every board's row, box and column
    /// clearing, and the check for two equal givens in one unit, for all 27 boards at once.
    /// The same state, and a [`Contradiction`] for the same puzzles (tested).
    ///
    /// # Safety
    /// The CPU must have AVX2 (`Kernel::Avx2.available()`).
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) unsafe fn from_givens_avx2(puzzle: &[u8; 81]) -> Result<State, Contradiction> {
        // SAFETY: the caller's CPU has AVX2 (this function's own requirement).
        let (placed, unsolved) = unsafe { band_givens(puzzle) };
        let g = Boards::load(&placed);
        // Each given clears its row and box in its band's board (two givens of a digit in
        // one row or box clash), and its column in the digit's other two bands (two in one
        // column clash: each band against the next covers all three pairs).
        let cols = Boards(g.0.map(|x| columns(x)));
        let (a, c) = (next_band(cols), next_band2(cols));
        let open = Boards::per_band(unsolved);
        let mut clash = _mm256_setzero_si256();
        let mut cand = Boards::zeros();
        for j in 0..4 {
            let (x, hit) = place_lanes(splat(BAND), g.0[j]);
            let taken = in_all_rows(_mm256_or_si256(a.0[j], c.0[j]));
            let board = _mm256_and_si256(_mm256_andnot_si256(taken, x), open.0[j]);
            cand.0[j] = _mm256_or_si256(board, g.0[j]);
            clash = _mm256_or_si256(clash, hit);
            clash = _mm256_or_si256(clash, _mm256_and_si256(cols.0[j], a.0[j]));
        }
        if _mm256_testz_si256(clash, clash) == 0 {
            return Err(Contradiction);
        }
        // The padding lanes stay 0.
        cand.0[3] = first_three(cand.0[3]);
        let mut s = State {
            cand: [0; BOARDS],
            dirty: cand.differ(Boards::zeros()),
            unsolved,
        };
        cand.store(&mut s.cand);
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::stack_filter_portable;
    use super::super::super::tests::{random_boards, xorshift};
    use super::*;
    use crate::solver::Kernel;

    /// The rotations bring each lane the board of the same digit one and two bands
    /// further, and leave the padding lanes 0.
    #[test]
    fn the_rotations_bring_the_other_bands() {
        if !Kernel::Avx2.available() {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        let mut boards = [0u32; BOARDS];
        for (i, x) in boards.iter_mut().enumerate().take(27) {
            *x = 100 + i as u32;
        }
        // SAFETY: the CPU has AVX2 (checked above).
        let (one, two) = unsafe {
            let b = Boards::load(&boards);
            (next_band(b).lanes(), next_band2(b).lanes())
        };
        for i in 0..32 {
            let want = |k: usize| if i < 27 { boards[(i + 9 * k) % 27] } else { 0 };
            assert_eq!(one[i], want(1), "lane {i}");
            assert_eq!(two[i], want(2), "lane {i}");
        }
    }

    /// The register stack logic equals the portable loops on random boards from dense to
    /// sparse.
    #[test]
    fn stack_filter_matches_the_portable_loops() {
        if !Kernel::Avx2.available() {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut changed = 0;
        for round in 0..3000 {
            let cand = random_boards(&mut next, round % 5);
            let mut want = cand;
            stack_filter_portable(&mut want);
            let mut got = [0u32; BOARDS];
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { stack_filter(Boards::load(&cand)).store(&mut got) };
            assert_eq!(got, want, "{cand:?}");
            changed += usize::from(want != cand);
        }
        assert!(changed > 300, "only {changed} rounds changed anything");
    }
}
