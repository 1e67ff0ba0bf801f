//! The triad rules (`super::super::triads`) on the boards held in AVX-512 registers: the
//! same removals (tested), all 27 boards at once.
//!
//! A band's counts over its nine digits are taken as in `singles.rs`, by rotating the
//! band's lanes and joining spans of 1, 2, 4, 8 and 9 digits, here up to "at least four".
//! Two quantities share each count: minirows with a candidate (spread bits `9r + 3k`) and
//! minirows the digit is locked to (the next bit up); then columns with a candidate (bits
//! 0..9) and columns the digit is locked to (bits 9..18).

use std::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_andnot_si512, _mm512_or_si512, _mm512_slli_epi32,
    _mm512_srli_epi32, _mm512_ternarylogic_epi32,
};

use super::singles::{ROTATE1, ROTATE2, ROTATE4, ROTATE8};
use super::stack::{NEXT_BAND, NEXT_BAND2};
use super::{columns, in_all_rows, permute, splat, zip, Boards, MINIROW_LOW, OR3};

/// Lane by lane, `f` of the two registers.
#[target_feature(enable = "avx512f")]
#[inline]
fn each(x: Boards, f: impl Fn(__m512i) -> __m512i) -> Boards {
    Boards(f(x.0), f(x.1))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn and(a: Boards, b: Boards) -> Boards {
    zip(a, b, |a, b| _mm512_and_si512(a, b))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn or(a: Boards, b: Boards) -> Boards {
    zip(a, b, |a, b| _mm512_or_si512(a, b))
}

/// `a & !b`, lane by lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn but(a: Boards, b: Boards) -> Boards {
    zip(a, b, |a, b| _mm512_andnot_si512(b, a))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn mask(a: Boards, m: u32) -> Boards {
    each(a, |a| _mm512_and_si512(a, splat(m)))
}

/// Per bit, over a span of digits: at least one, two, three and four set.
#[derive(Clone, Copy)]
struct Counts([Boards; 4]);

/// The counts over two disjoint spans, `x`'s and `y`'s.
#[target_feature(enable = "avx512f")]
#[inline]
fn join(x: Counts, y: Counts) -> Counts {
    let [x1, x2, x3, x4] = x.0;
    let [y1, y2, y3, y4] = y.0;
    Counts([
        or(x1, y1),
        or(or(x2, y2), and(x1, y1)),
        or(or(x3, y3), or(and(x2, y1), and(x1, y2))),
        or(or(x4, y4), or(and(x3, y1), or(and(x2, y2), and(x1, y3)))),
    ])
}

/// The counts of `c` joined with those of the span `idx` digits further.
#[target_feature(enable = "avx512f")]
#[inline]
fn join_rotated(c: Counts, idx: &[[i32; 16]; 2]) -> Counts {
    join(c, Counts(c.0.map(|x| permute(x, idx))))
}

/// Per lane, for the lane's band: the bits set in at least three and at least four of its
/// nine lanes.
#[target_feature(enable = "avx512f")]
#[inline]
fn three_four(v: Boards) -> (Boards, Boards) {
    let zero = Boards(splat(0), splat(0));
    let one = |x: Boards| Counts([x, zero, zero, zero]);
    let two = join(one(v), one(permute(v, &ROTATE1)));
    let four = join_rotated(two, &ROTATE2);
    let eight = join_rotated(four, &ROTATE4);
    let nine = join(eight, one(permute(v, &ROTATE8)));
    (nine.0[2], nine.0[3])
}

/// Shifts each lane left (`N > 0`) or right by `|N|` bits.
#[target_feature(enable = "avx512f")]
#[inline]
fn shift<const L: u32, const R: u32>(x: Boards) -> Boards {
    each(x, |x| _mm512_srli_epi32::<R>(_mm512_slli_epi32::<L>(x)))
}

/// `super::super::triads::row_others` per lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn row_others(t: Boards) -> Boards {
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
#[target_feature(enable = "avx512f")]
#[inline]
fn box_others(t: Boards) -> Boards {
    let down = each(t, |t| {
        _mm512_or_si512(_mm512_srli_epi32::<9>(t), _mm512_srli_epi32::<18>(t))
    });
    let up = each(t, |t| {
        _mm512_or_si512(_mm512_slli_epi32::<9>(t), _mm512_slli_epi32::<18>(t))
    });
    mask(or(down, up), MINIROW_LOW)
}

/// `super::super::triads::stack_others` per lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn stack_others(c: Boards) -> Boards {
    let r = or(
        or(mask(shift::<0, 1>(c), 0o333), mask(shift::<2, 0>(c), 0o444)),
        or(mask(shift::<1, 0>(c), 0o666), mask(shift::<0, 2>(c), 0o111)),
    );
    mask(r, 0x1FF)
}

/// `super::super::triads::triads` on all 27 boards (lanes 27..32 are 0 and stay 0).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn triads(cand: Boards) -> Boards {
    let m = each(cand, |a| {
        let t = _mm512_ternarylogic_epi32::<OR3>(
            a,
            _mm512_srli_epi32::<1>(a),
            _mm512_srli_epi32::<2>(a),
        );
        _mm512_and_si512(t, splat(MINIROW_LOW))
    });
    let l = but(m, and(row_others(m), box_others(m)));
    let c = each(cand, |a| columns(a));
    let elsewhere = or(permute(c, &NEXT_BAND), permute(c, &NEXT_BAND2));
    let lc = but(c, and(stack_others(c), elsewhere));
    let (r3, r4) = three_four(or(m, shift::<1, 0>(l)));
    let naked_rows = mask(but(r3, r4), MINIROW_LOW);
    let hidden_rows = mask(shift::<0, 1>(r3), MINIROW_LOW);
    let (c3, c4) = three_four(or(c, shift::<9, 0>(lc)));
    let naked_cols = mask(but(c3, c4), 0x1FF);
    let hidden_cols = mask(shift::<0, 9>(c3), 0x1FF);
    let own = and(m, naked_rows);
    let rows = or(
        but(or(row_others(own), box_others(own)), own),
        but(hidden_rows, l),
    );
    let held = and(c, naked_cols);
    let cols = or(
        or(but(stack_others(held), held), but(hidden_cols, lc)),
        or(permute(held, &NEXT_BAND), permute(held, &NEXT_BAND2)),
    );
    let gone = zip(rows, cols, |rows, cols| {
        let minirows = _mm512_ternarylogic_epi32::<OR3>(
            rows,
            _mm512_slli_epi32::<1>(rows),
            _mm512_slli_epi32::<2>(rows),
        );
        _mm512_or_si512(minirows, in_all_rows(cols))
    });
    but(cand, gone)
}

#[cfg(test)]
mod tests {
    use super::super::super::triads::triads as triads_portable;
    use super::super::{random_boards, testable, xorshift};
    use super::*;

    /// The register copy removes exactly what the portable code removes, on random boards
    /// from dense to sparse, and on boards made sparse row by row so that triads are
    /// naked and locked often.
    #[test]
    fn triads_match_the_portable_code() {
        if !testable() {
            return;
        }
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut changed = 0;
        for round in 0..6000 {
            let mut cand = random_boards(&mut next, round % 3);
            if round % 2 == 1 {
                // Clear whole minirows and columns, as propagation leaves them.
                for board in &mut cand[..27] {
                    let rows = (next() as u32 & next() as u32 & MINIROW_LOW) * 7;
                    let cols = next() as u32 & next() as u32 & 0x1FF;
                    *board &= !(rows | (cols * crate::solver::tables::COLUMN0));
                }
            }
            let mut want = cand;
            triads_portable(&mut want);
            // SAFETY: the CPU has AVX-512F (checked above).
            let got = unsafe {
                let mut got = cand;
                triads(Boards::load(&cand)).store(&mut got);
                got
            };
            assert_eq!(got, want, "{cand:?}");
            changed += usize::from(want != cand);
        }
        assert!(changed > 600, "only {changed} of 6000 board sets changed");
    }
}
