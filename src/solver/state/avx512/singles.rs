//! Naked singles on the boards held in AVX-512 registers: each band's candidate counts
//! per cell over its nine digit boards, and the placement of every single, for all 27
//! boards at once, where the portable code stores the boards, counts band by band and
//! walks the digits one by one.
//!
//! A band's nine boards are lanes `9b..9b + 9` ([`Boards`]). Rotating those lanes inside
//! their band (a two-register permute) and combining each lane with the rotated copy
//! doubles the span of digits each lane has counted: after spans 2, 4 and 8, and the ninth
//! board, every lane holds its band's counts over all nine digits.

use std::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512, _mm512_or_si512,
    _mm512_srli_epi32, _mm512_sub_epi32, _mm512_ternarylogic_epi32, _mm512_test_epi32_mask,
};

use super::super::Contradiction;
use super::{
    columns, in_all_rows, permute, splat, zip, Boards, MINIROW_LOW, OR3, ROW_LOW8, ROW_TOP,
};

/// The permute indices (low register's 16 lanes, high register's) that bring to lane `i`
/// (< 27) the board of the same band `k` digits further (mod 9); lanes from 27 read
/// themselves (they are 0).
const fn band_rotation(k: usize) -> [[i32; 16]; 2] {
    let mut t = [[0i32; 16]; 2];
    let mut i = 0;
    while i < 32 {
        t[i / 16][i % 16] = if i < 27 {
            (9 * (i / 9) + (i % 9 + k) % 9) as i32
        } else {
            i as i32
        };
        i += 1;
    }
    t
}

pub(super) const ROTATE1: [[i32; 16]; 2] = band_rotation(1);
pub(super) const ROTATE2: [[i32; 16]; 2] = band_rotation(2);
pub(super) const ROTATE4: [[i32; 16]; 2] = band_rotation(4);
pub(super) const ROTATE8: [[i32; 16]; 2] = band_rotation(8);

/// `vpternlogd` truth table over `(a, b, c)`: at least two of the three.
const MAJORITY: i32 = 0xE8;

/// Counts over a span of digits, per cell: at least one, two and three candidates.
#[derive(Clone, Copy)]
struct Counts(Boards, Boards, Boards);

/// The counts over two disjoint spans of digits, `x`'s and `y`'s.
#[target_feature(enable = "avx512f")]
#[inline]
fn join(x: Counts, y: Counts) -> Counts {
    let two = |a: Boards, b: Boards| zip(a, b, |a, b| _mm512_and_si512(a, b));
    let or = |a: Boards, b: Boards| zip(a, b, |a, b| _mm512_or_si512(a, b));
    let at_least3 = or(or(x.2, y.2), or(two(x.1, y.0), two(x.0, y.1)));
    let at_least2 = or(or(x.1, y.1), two(x.0, y.0));
    Counts(or(x.0, y.0), at_least2, at_least3)
}

/// The counts of `c` joined with those of the span `idx` digits further.
#[target_feature(enable = "avx512f")]
#[inline]
fn join_rotated(c: Counts, idx: &[[i32; 16]; 2]) -> Counts {
    let r = Counts(permute(c.0, idx), permute(c.1, idx), permute(c.2, idx));
    join(c, r)
}

/// Per lane, for the lane's band: the cells with at least one, two and three candidates
/// over its nine boards (`super::super::candidate_counts` of the band, in each of its nine
/// lanes; lanes from 27 hold nothing meaningful).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn band_counts(cand: Boards) -> [Boards; 3] {
    let zero = Boards(splat(0), splat(0));
    let one = Counts(cand, zero, zero);
    let two = join(one, Counts(permute(cand, &ROTATE1), zero, zero));
    let four = join_rotated(two, &ROTATE2);
    let eight = join_rotated(four, &ROTATE4);
    let nine = join(eight, Counts(permute(cand, &ROTATE8), zero, zero));
    [nine.0, nine.1, nine.2]
}

/// One register of [`place`]: `x` with `hits` placed, and a nonzero lane where two hits
/// of one board share a row or a box.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn place_lanes(x: __m512i, hits: __m512i) -> (__m512i, __m512i) {
    // The rows holding a hit, widened to whole rows: bit 8 of a row set when it has any
    // cell (as in `lone_cells`), then `flag - (flag >> 8) | flag` fills the row.
    let low = _mm512_and_si512(hits, splat(ROW_LOW8));
    let any = _mm512_and_si512(
        _mm512_or_si512(_mm512_add_epi32(low, splat(ROW_LOW8)), hits),
        splat(ROW_TOP),
    );
    let rows = _mm512_or_si512(_mm512_sub_epi32(any, _mm512_srli_epi32::<8>(any)), any);
    // The boxes holding a hit: its columns, a flag per box, widened to the box's three
    // columns and then to its three rows.
    let cols = columns(hits);
    let flag = _mm512_and_si512(
        _mm512_or_si512(
            _mm512_add_epi32(_mm512_and_si512(cols, splat(0o333)), splat(0o333)),
            cols,
        ),
        splat(0o444),
    );
    let boxes = _mm512_or_si512(_mm512_sub_epi32(flag, _mm512_srli_epi32::<2>(flag)), flag);
    let boxes = in_all_rows(boxes);
    let peers = _mm512_or_si512(rows, boxes);
    let placed = _mm512_or_si512(_mm512_andnot_si512(peers, x), hits);
    // Two hits in one row: a row's bits minus its lowest cell still meet the row.
    let mut clash = splat(0);
    for k in 0..3 {
        let row = _mm512_and_si512(hits, splat(0x1FF << (9 * k)));
        let rest = _mm512_and_si512(row, _mm512_sub_epi32(row, splat(1 << (9 * k))));
        clash = _mm512_or_si512(clash, rest);
    }
    // Two hits in one box, in different rows: the box's minirow flagged in two rows.
    let minirows = _mm512_and_si512(
        _mm512_ternarylogic_epi32::<OR3>(
            hits,
            _mm512_srli_epi32::<1>(hits),
            _mm512_srli_epi32::<2>(hits),
        ),
        splat(MINIROW_LOW),
    );
    let shared = _mm512_ternarylogic_epi32::<MAJORITY>(
        minirows,
        _mm512_srli_epi32::<9>(minirows),
        _mm512_srli_epi32::<18>(minirows),
    );
    let clash = _mm512_ternarylogic_epi32::<0xF8>(clash, shared, splat(0o111));
    (placed, clash)
}

/// Places every hit: `hits` lane `i` holds the cells where digit `i % 9 + 1` is fixed in
/// band `i / 9` (a subset of the board); each clears the rest of its row and box in the
/// board, as `super::super::place` does hit by hit.
///
/// # Errors
/// [`Contradiction`] when two hits of one board share a row or a box (placing them one
/// after the other, the second would find its cell cleared).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn place(cand: Boards, hits: Boards) -> Result<Boards, Contradiction> {
    let (lo, clash_lo) = place_lanes(cand.0, hits.0);
    let (hi, clash_hi) = place_lanes(cand.1, hits.1);
    let clash = _mm512_or_si512(clash_lo, clash_hi);
    if _mm512_test_epi32_mask(clash, clash) != 0 {
        return Err(Contradiction);
    }
    Ok(Boards(lo, hi))
}

#[cfg(test)]
mod tests {
    use super::super::super::{candidate_counts, place as place_one, BAND, BOARDS};
    use super::super::{random_boards, testable, xorshift};
    use super::*;

    /// Every lane of a band holds the band's counts, as the portable accumulators give them.
    #[test]
    fn band_counts_match_the_portable_accumulators() {
        if !testable() {
            return;
        }
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut seen = [0usize; 3];
        for round in 0..3000 {
            let cand = random_boards(&mut next, round % 5);
            // SAFETY: the CPU has AVX-512F (checked above).
            let counts = unsafe { band_counts(Boards::load(&cand)).map(|c| c.lanes()) };
            for b in 0..3 {
                let want = candidate_counts(&cand[9 * b..9 * b + 9]);
                for (k, count) in counts.iter().enumerate() {
                    for (lane, &got) in count.iter().enumerate().skip(9 * b).take(9) {
                        assert_eq!(got, want[k], "{cand:?}: count {k}, lane {lane}");
                    }
                    seen[k] += usize::from(want[k] != 0 && want[k] != BAND);
                }
            }
        }
        // Every count is exercised neither empty nor full.
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    }

    /// Placing all hits at once gives the boards `place` gives hit by hit, and a
    /// contradiction exactly when one of those placements fails.
    #[test]
    fn placing_all_singles_matches_placing_one_by_one() {
        if !testable() {
            return;
        }
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let (mut placed, mut clashed) = (0, 0);
        for round in 0..3000 {
            let cand = random_boards(&mut next, round % 5);
            // Zero to three hits per board, taken from its cells.
            let mut hits = [0u32; BOARDS];
            for (h, &board) in hits.iter_mut().zip(&cand).take(27) {
                for _ in 0..next() % 4 {
                    let cell = next() % 27;
                    *h |= board & 1 << cell;
                }
            }
            let mut want = cand;
            let mut fails = false;
            for (w, &h) in want.iter_mut().zip(&hits) {
                let mut m = h;
                while m != 0 {
                    let bit = m.trailing_zeros();
                    m &= m - 1;
                    match place_one(*w, bit) {
                        Ok(x) => *w = x,
                        Err(_) => fails = true,
                    }
                }
            }
            // SAFETY: the CPU has AVX-512F (checked above).
            let got = unsafe { place(Boards::load(&cand), Boards::load(&hits)) };
            match got {
                Ok(b) => {
                    assert!(!fails, "{cand:?} {hits:?}");
                    let mut out = [0u32; BOARDS];
                    // SAFETY: as above.
                    unsafe { b.store(&mut out) };
                    assert_eq!(out, want, "{cand:?} {hits:?}");
                    placed += 1;
                }
                Err(_) => {
                    assert!(fails, "{cand:?} {hits:?}");
                    clashed += 1;
                }
            }
        }
        assert!(
            placed > 300 && clashed > 300,
            "{placed} placed, {clashed} clashed"
        );
    }
}
