//! The stack logic ([`super::super::stack_filter_portable`]) on the boards held in AVX-512
//! registers: the same result (tested), without storing the boards, calling the
//! portable loops and reading the boards back (a 64-byte load right after the loops'
//! narrower stores waits for them to reach the cache).
//!
//! Board `i` is lane `i % 16` of register `i / 16` ([`Boards`]); lanes 27..32 are 0. The
//! same digit's boards in the other two bands are brought to a board's lane by
//! two-register permutes.

use std::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_slli_epi32, _mm512_srli_epi32, _mm512_ternarylogic_epi32,
};

use super::{columns, in_all_rows, permute, splat, Boards, SELECT};

/// `vpternlogd` truth table over the operands `(a, b, c)`: `a & (b | c)`.
const A_AND_B_OR_C: i32 = 0xE0;

/// The permute indices (low register's 16 lanes, high register's) that bring to lane `i`
/// (< 27) the board of the same digit `shift` bands further (mod 3); lanes from 27 read
/// lane 27, which is 0.
const fn other_band(shift: usize) -> [[i32; 16]; 2] {
    let mut t = [[0i32; 16]; 2];
    let mut i = 0;
    while i < 32 {
        t[i / 16][i % 16] = if i < 27 {
            ((i + 9 * shift) % 27) as i32
        } else {
            27
        };
        i += 1;
    }
    t
}

pub(super) const NEXT_BAND: [[i32; 16]; 2] = other_band(1);
pub(super) const NEXT_BAND2: [[i32; 16]; 2] = other_band(2);

/// `super::super::rot1` per lane (bits above 8 are left over; the caller masks them).
#[target_feature(enable = "avx512f")]
#[inline]
fn rot1(y: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<SELECT>(
        _mm512_srli_epi32::<1>(y),
        _mm512_slli_epi32::<2>(y),
        splat(0o333),
    )
}

/// `super::super::rot2` per lane (as [`rot1`]).
#[target_feature(enable = "avx512f")]
#[inline]
fn rot2(y: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<SELECT>(
        _mm512_srli_epi32::<2>(y),
        _mm512_slli_epi32::<1>(y),
        splat(0o111),
    )
}

/// `stack_filter_portable` on one register: boards `x`, their columns `o`, and the columns
/// of the same digit's boards one band (`a`) and two bands (`c`) further.
#[target_feature(enable = "avx512f")]
#[inline]
fn filter(x: __m512i, o: __m512i, a: __m512i, c: __m512i) -> __m512i {
    let one = _mm512_and_si512(rot1(a), rot2(c));
    let other = _mm512_and_si512(rot2(a), rot1(c));
    let keep = _mm512_ternarylogic_epi32::<A_AND_B_OR_C>(o, one, other);
    _mm512_and_si512(x, in_all_rows(keep))
}

/// The stack logic for all 27 boards at once, as `stack_filter_portable` does it.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn stack_filter(cand: Boards) -> Boards {
    let occ = Boards(columns(cand.0), columns(cand.1));
    let (a, c) = (permute(occ, &NEXT_BAND), permute(occ, &NEXT_BAND2));
    Boards(
        filter(cand.0, occ.0, a.0, c.0),
        filter(cand.1, occ.1, a.1, c.1),
    )
}

#[cfg(test)]
mod tests {
    use super::super::super::stack_filter_portable;
    use super::super::{random_boards, testable, xorshift};
    use super::*;

    /// The register copy removes exactly what the portable loops remove, on random boards
    /// from dense to sparse (about two in three change).
    #[test]
    fn stack_filter_matches_the_portable_loops() {
        if !testable() {
            return;
        }
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut changed = 0;
        for round in 0..3000 {
            let cand = random_boards(&mut next, round % 4);
            let mut want = cand;
            stack_filter_portable(&mut want);
            // SAFETY: the CPU has AVX-512F (checked above).
            let got = unsafe {
                let mut got = cand;
                stack_filter(Boards::load(&cand)).store(&mut got);
                got
            };
            assert_eq!(got, want, "{cand:?}");
            changed += usize::from(want != cand);
        }
        assert!(changed > 1000, "only {changed} of 3000 board sets changed");
    }
}
