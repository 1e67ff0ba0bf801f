//! Where a search splits (`split.rs`'s `pick`), with every digit's configuration
//! count in every band and stack taken on the registers at once, where the portable code
//! gathers 54 patterns one by one.
//!
//! A configuration is one of the six orders of three ([`ORDERS_OF_THREE`]): in a band,
//! row `r` gives the digit box `order[r]`; a digit has it left when the three minirows
//! still hold a candidate. Lane `9b + d` counts digit `d`'s configurations in band `b`
//! (from its spread minirow mask) and in stack `b` (from its columns in bands `b`, `b + 1`
//! and `b + 2`, the rows of the stack's pattern in that rotated order, which does not
//! change the count).

use std::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_cmpeq_epi32_mask, _mm512_cmpge_epu32_mask,
    _mm512_mask_add_epi32, _mm512_slli_epi32, _mm512_srli_epi32, _mm512_ternarylogic_epi32,
    _mm512_testn_epi32_mask,
};

use super::singles::{ROTATE1, ROTATE2, ROTATE4, ROTATE8};
use super::stack::{NEXT_BAND, NEXT_BAND2};
use super::{columns, permute, splat, vector, Boards};
use crate::grid::ORDERS_OF_THREE;
use crate::solver::state::split::{SplitAt, LOOSE_UNIT};

/// For each order: the spread minirow mask of its three minirows (row `r`, box
/// `order[r]` at bit `9r + 3 * order[r]`).
const BAND_ORDERS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut k = 0;
    while k < 6 {
        let o = ORDERS_OF_THREE[k];
        t[k] = 1 << (3 * o[0]) | 1 << (9 + 3 * o[1]) | 1 << (18 + 3 * o[2]);
        k += 1;
    }
    t
};

/// For each order, per lane (low register's 16 lanes, high register's): the order's three
/// columns of stack `b` (the lane's band) in the lane's rotated column word (bands `b`,
/// `b + 1`, `b + 2` at bits 0, 9, 18).
const STACK_ORDERS: [[[i32; 16]; 2]; 6] = {
    let mut t = [[[0i32; 16]; 2]; 6];
    let mut k = 0;
    while k < 6 {
        let o = ORDERS_OF_THREE[k];
        let mut i = 0;
        while i < 32 {
            let s = if i < 27 { i / 9 } else { 0 };
            t[k][i / 16][i % 16] =
                1 << (3 * s + o[0]) | 1 << (9 + 3 * s + o[1]) | 1 << (18 + 3 * s + o[2]);
            i += 1;
        }
        k += 1;
    }
    t
};

/// `vpternlogd` truth table over `(a, b, c)`: `!(a | b | c)`.
const NOR3: i32 = 0x01;

/// The split `pick` chooses for the boards `cand` at a stall with `pairs` bivalue cells
/// (the same as the portable `State::choose_split`, tested).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn choose(cand: Boards, pairs: u32) -> Option<SplitAt> {
    // Per lane, the complement of the band pattern (the minirows with a candidate, at
    // their lowest bit) and of the stack pattern (the rotated column word): an order fits
    // when none of its three bits is missing, one `vptestnmd` each.
    let missing_rows = |a: __m512i| {
        _mm512_ternarylogic_epi32::<NOR3>(a, _mm512_srli_epi32::<1>(a), _mm512_srli_epi32::<2>(a))
    };
    let c = Boards(columns(cand.0), columns(cand.1));
    let (c1, c2) = (permute(c, &NEXT_BAND), permute(c, &NEXT_BAND2));
    let missing_word = |c: __m512i, c1: __m512i, c2: __m512i| {
        _mm512_ternarylogic_epi32::<NOR3>(
            c,
            _mm512_slli_epi32::<9>(c1),
            _mm512_slli_epi32::<18>(c2),
        )
    };
    // Per lane: band count in the low half-word, stack count in the high one.
    let both = |a: __m512i, x: __m512i, h: usize| {
        let (rows, word) = (missing_rows(a), x);
        let mut n = splat(0);
        for k in 0..6 {
            let band = _mm512_testn_epi32_mask(rows, splat(BAND_ORDERS[k]));
            n = _mm512_mask_add_epi32(n, band, n, splat(1));
            let stack = _mm512_testn_epi32_mask(word, vector(&STACK_ORDERS[k][h]));
            n = _mm512_mask_add_epi32(n, stack, n, splat(1 << 16));
        }
        n
    };
    let counts = Boards(
        both(cand.0, missing_word(c.0, c1.0, c2.0), 0),
        both(cand.1, missing_word(c.1, c1.1, c2.1), 1),
    );
    // Each lane's unit totals over its band's nine lanes (spans 2, 4, 8, then the ninth):
    // lanes 0, 9 and 18 give bands 0..3 (low half-word) and stacks 0..3 (high).
    let add = |a: Boards, b: Boards| Boards(_mm512_add_epi32(a.0, b.0), _mm512_add_epi32(a.1, b.1));
    let two = add(counts, permute(counts, &ROTATE1));
    let four = add(two, permute(two, &ROTATE2));
    let eight = add(four, permute(four, &ROTATE4));
    let nine = add(eight, permute(counts, &ROTATE8)).lanes();
    let mut best: Option<(u32, usize)> = None;
    for u in 0..6 {
        let total = nine[9 * (u % 3)] >> (16 * (u / 3)) & 0xFFFF;
        if total >= 10 && best.is_none_or(|(t, _)| total < t) {
            best = Some((total, u));
        }
    }
    let (total, unit) = best?;
    if pairs > 0 && total >= LOOSE_UNIT {
        return None;
    }
    // The unit's counts per digit, from its band's lanes.
    let half = Boards(
        _mm512_srli_epi32::<16>(counts.0),
        _mm512_srli_epi32::<16>(counts.1),
    );
    let n = if unit < 3 { counts } else { half };
    let lanes_where = |f: fn(__m512i, __m512i) -> u16, k: u32| {
        let low = |x: __m512i| _mm512_and_si512(x, splat(0xFFFF));
        (u32::from(f(low(n.0), splat(k))) | u32::from(f(low(n.1), splat(k))) << 16)
            >> (9 * (unit % 3))
            & 0x1FF
    };
    let eq = |a, b| _mm512_cmpeq_epi32_mask(a, b);
    let ge = |a, b| _mm512_cmpge_epu32_mask(a, b);
    let digits = [lanes_where(eq, 2), lanes_where(eq, 3), lanes_where(ge, 4)];
    let d = digits.into_iter().find(|&m| m != 0)?;
    Some(SplitAt {
        unit: unit as u8,
        digit: d.trailing_zeros() as u8,
    })
}

#[cfg(test)]
mod tests {
    use super::super::super::State;
    use super::super::{random_boards, testable, xorshift};
    use super::*;

    /// The register copy picks what the portable count picks, on random boards from dense
    /// to sparse, with and without bivalue cells at the stall.
    #[test]
    fn choose_matches_the_portable_count() {
        if !testable() {
            return;
        }
        let mut next = xorshift(0x5DEE_CE66_D1CE_4E5B);
        let (mut picked, mut loose) = (0, 0);
        for round in 0..4000 {
            let cand = random_boards(&mut next, round % 5);
            let state = State {
                cand,
                dirty: 0,
                unsolved: [crate::solver::tables::BAND; 3],
            };
            // No bivalue cell, or some: the second may leave a loose unit to a cell.
            let pairs = (round % 3) as u32;
            let want = state.choose_split(pairs);
            // SAFETY: the CPU has AVX-512F (checked above).
            let got = unsafe { choose(Boards::load(&cand), pairs) };
            assert_eq!(got, want, "{cand:?}");
            picked += usize::from(want.is_some());
            loose += usize::from(want.is_none() && state.choose_split(0).is_some());
        }
        assert!(picked >= 1000, "only {picked} of 4000 picked a split");
        assert!(
            loose >= 100,
            "only {loose} of 4000 left a loose unit to a cell"
        );
    }
}
