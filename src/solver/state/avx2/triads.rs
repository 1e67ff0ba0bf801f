//! The triad rules (`super::super::triads`) on the AVX2 kernel's registers: the same
//! removals (tested), all 27 boards at once, in the AVX-512 copy's formulation.
//!
//! The boards are brought two digits to a register, the bands in lanes
//! ([`super::boards::by_digit`]), where a band's counts over its nine digits run down the
//! five registers and join the two halves, and the same digit's other bands are a shuffle
//! of the three band lanes inside a half. Two quantities share each count: minirows with
//! a candidate (spread bits `9r + 3k`) and minirows the digit is locked to (the next bit
//! up); then columns with a candidate (bits 0..9) and columns the digit is locked to (bits
//! 9..18). What each board loses is brought back to the board lanes
//! ([`super::boards::from_digits`]).

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_or_si256, _mm256_permute2x128_si256,
    _mm256_shuffle_epi32, _mm256_slli_epi32, _mm256_srli_epi32,
};

use super::boards::{by_digit, from_digits, splat, Boards};
use super::MINIROW_LOW;

/// Five registers of boards by digit.
type Digits = [__m256i; 5];

#[target_feature(enable = "avx2")]
#[inline]
fn each(x: Digits, f: impl Fn(__m256i) -> __m256i) -> Digits {
    x.map(f)
}

#[target_feature(enable = "avx2")]
#[inline]
fn zip(a: Digits, b: Digits, f: impl Fn(__m256i, __m256i) -> __m256i) -> Digits {
    [
        f(a[0], b[0]),
        f(a[1], b[1]),
        f(a[2], b[2]),
        f(a[3], b[3]),
        f(a[4], b[4]),
    ]
}

#[target_feature(enable = "avx2")]
#[inline]
fn and(a: Digits, b: Digits) -> Digits {
    zip(a, b, |a, b| _mm256_and_si256(a, b))
}

#[target_feature(enable = "avx2")]
#[inline]
fn or(a: Digits, b: Digits) -> Digits {
    zip(a, b, |a, b| _mm256_or_si256(a, b))
}

/// `a & !b`, lane by lane.
#[target_feature(enable = "avx2")]
#[inline]
fn but(a: Digits, b: Digits) -> Digits {
    zip(a, b, |a, b| _mm256_andnot_si256(b, a))
}

#[target_feature(enable = "avx2")]
#[inline]
fn mask(a: Digits, m: u32) -> Digits {
    each(a, |a| _mm256_and_si256(a, splat(m)))
}

/// Shifts each lane left by `L`, then right by `R` bits.
#[target_feature(enable = "avx2")]
#[inline]
fn shift<const L: i32, const R: i32>(x: Digits) -> Digits {
    each(x, |x| _mm256_srli_epi32::<R>(_mm256_slli_epi32::<L>(x)))
}

/// The same digit's boards one band further (lane `b` takes lane `b + 1 mod 3`), and two.
#[target_feature(enable = "avx2")]
#[inline]
fn other_bands(x: Digits) -> (Digits, Digits) {
    (
        each(x, |v| _mm256_shuffle_epi32::<0b11_00_10_01>(v)),
        each(x, |v| _mm256_shuffle_epi32::<0b11_01_00_10>(v)),
    )
}

/// Per lane, for the lane's band: the bits set in at least three and at least four of its
/// nine digits' boards (the same in both halves).
#[target_feature(enable = "avx2")]
#[inline]
fn three_four(v: Digits) -> (__m256i, __m256i) {
    let zero = splat(0);
    let (mut c1, mut c2, mut c3, mut c4) = (zero, zero, zero, zero);
    for x in v {
        c4 = _mm256_or_si256(c4, _mm256_and_si256(c3, x));
        c3 = _mm256_or_si256(c3, _mm256_and_si256(c2, x));
        c2 = _mm256_or_si256(c2, _mm256_and_si256(c1, x));
        c1 = _mm256_or_si256(c1, x);
    }
    // Join the other half's counts (disjoint digits).
    let swap = |x: __m256i| _mm256_permute2x128_si256::<1>(x, x);
    let (d1, d2, d3) = (swap(c1), swap(c2), swap(c3));
    let d4 = swap(c4);
    let or = |a, b| _mm256_or_si256(a, b);
    let and = |a, b| _mm256_and_si256(a, b);
    let three = or(or(c3, d3), or(and(c2, d1), and(c1, d2)));
    let four = or(or(c4, d4), or(and(c3, d1), or(and(c2, d2), and(c1, d3))));
    (three, four)
}

/// `super::super::triads::row_others` per lane.
#[target_feature(enable = "avx2")]
#[inline]
fn row_others(t: Digits) -> Digits {
    or(
        or(
            mask(shift::<0, 3>(t), 0o011_011_011),
            mask(shift::<6, 0>(t), 0o100_100_100),
        ),
        or(
            mask(shift::<0, 6>(t), 0o001_001_001),
            mask(shift::<3, 0>(t), 0o110_110_110),
        ),
    )
}

/// `super::super::triads::box_others` per lane.
#[target_feature(enable = "avx2")]
#[inline]
fn box_others(t: Digits) -> Digits {
    let down = or(shift::<0, 9>(t), shift::<0, 18>(t));
    let up = or(shift::<9, 0>(t), shift::<18, 0>(t));
    mask(or(down, up), MINIROW_LOW)
}

/// `super::super::triads::stack_others` per lane.
#[target_feature(enable = "avx2")]
#[inline]
fn stack_others(c: Digits) -> Digits {
    let r = or(
        or(mask(shift::<0, 1>(c), 0o333), mask(shift::<2, 0>(c), 0o444)),
        or(mask(shift::<1, 0>(c), 0o666), mask(shift::<0, 2>(c), 0o111)),
    );
    mask(r, 0x1FF)
}

/// `super::super::triads::triads` on all 27 boards (the lanes from 27 are 0 and stay 0).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn triads(cand: Boards) -> Boards {
    let x = by_digit(cand);
    let m = mask(or(or(x, shift::<0, 1>(x)), shift::<0, 2>(x)), MINIROW_LOW);
    let l = but(m, and(row_others(m), box_others(m)));
    let c = mask(or(or(x, shift::<0, 9>(x)), shift::<0, 18>(x)), 0x1FF);
    let (c1, c2) = other_bands(c);
    let elsewhere = or(c1, c2);
    let lc = but(c, and(stack_others(c), elsewhere));
    let (r3, r4) = three_four(or(m, shift::<1, 0>(l)));
    let naked_rows = [_mm256_and_si256(_mm256_andnot_si256(r4, r3), splat(MINIROW_LOW)); 5];
    let hidden_rows = [_mm256_and_si256(_mm256_srli_epi32::<1>(r3), splat(MINIROW_LOW)); 5];
    let (c3, c4) = three_four(or(c, shift::<9, 0>(lc)));
    let naked_cols = [_mm256_and_si256(_mm256_andnot_si256(c4, c3), splat(0x1FF)); 5];
    let hidden_cols = [_mm256_and_si256(_mm256_srli_epi32::<9>(c3), splat(0x1FF)); 5];
    let own = and(m, naked_rows);
    let rows = or(
        but(or(row_others(own), box_others(own)), own),
        but(hidden_rows, l),
    );
    let held = and(c, naked_cols);
    let (held1, held2) = other_bands(held);
    let cols = or(
        or(but(stack_others(held), held), but(hidden_cols, lc)),
        or(held1, held2),
    );
    let gone = zip(rows, cols, |rows, cols| {
        let minirows = _mm256_or_si256(
            _mm256_or_si256(rows, _mm256_slli_epi32::<1>(rows)),
            _mm256_slli_epi32::<2>(rows),
        );
        let cols = _mm256_or_si256(
            _mm256_or_si256(cols, _mm256_slli_epi32::<9>(cols)),
            _mm256_slli_epi32::<18>(cols),
        );
        _mm256_or_si256(minirows, cols)
    });
    let gone = from_digits(gone);
    cand.zip(gone, |c, g| _mm256_andnot_si256(g, c))
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::{random_boards, xorshift};
    use super::super::super::triads::triads as triads_portable;
    use super::super::super::BOARDS;
    use super::*;
    use crate::solver::Kernel;

    /// The register copy removes exactly what the portable code removes, on random boards
    /// from dense to sparse, and on boards made sparse minirow by minirow and column by
    /// column so that triads are naked and locked often.
    #[test]
    fn triads_match_the_portable_code() {
        if !Kernel::Avx2.available() {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut changed = 0;
        for round in 0..6000 {
            let mut cand = random_boards(&mut next, round % 3);
            if round % 2 == 1 {
                for board in &mut cand[..27] {
                    let r = next();
                    *board &= !((r as u32 & 0o777_777_777 & 0o111_111_111) * 7);
                    *board &= !(((r >> 32) as u32 & 0x1FF & (r >> 41) as u32) * 0x0004_0201);
                }
            }
            let mut want = cand;
            triads_portable(&mut want);
            let mut got = [0u32; BOARDS];
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { triads(Boards::load(&cand)).store(&mut got) };
            assert_eq!(got, want, "{cand:?}");
            changed += usize::from(want != cand);
        }
        assert!(changed > 1000, "only {changed} of 6000 changed");
    }
}
