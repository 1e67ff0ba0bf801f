//! Where a search splits (`split.rs`'s `pick`), with every digit's configuration count in
//! every band and stack taken on registers at once, where the portable code gathers 54
//! patterns one by one (most of the AVX2 kernel's time on forum_hardest went there).
//!
//! The boards are brought two digits to a register, the bands in lanes
//! ([`super::boards::by_digit`]): lane `4h + b` of register `p` is digit `2p + h`'s board
//! of band `b`. Each lane counts its digit's configurations in band `b` (from its minirows)
//! and in stack `b` (from its columns in bands `b`, `b + 1`, `b + 2`, the other two
//! brought to the lane by rotating the three band lanes; the rows of the stack's
//! pattern come in that rotated order, which does not change the count), as the AVX-512
//! copy does.

use std::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_cmpeq_epi32, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_shuffle_epi32, _mm256_slli_epi32,
    _mm256_srli_epi32, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_xor_si256,
};

use super::boards::{by_digit, columns, splat, Boards};
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

/// For each order, per lane: the order's three columns of stack `b` (the lane's band) in
/// the lane's rotated column word (bands `b`, `b + 1`, `b + 2` at bits 0, 9, 18). The
/// padding lanes (3 and 7) ask for bit 31, which a column word never has.
static STACK_ORDERS: [[i32; 8]; 6] = {
    let mut t = [[0i32; 8]; 6];
    let mut k = 0;
    while k < 6 {
        let o = ORDERS_OF_THREE[k];
        let mut l = 0;
        while l < 8 {
            let s = l % 4;
            t[k][l] = if s == 3 {
                i32::MIN
            } else {
                1 << (3 * s + o[0]) | 1 << (9 + 3 * s + o[1]) | 1 << (18 + 3 * s + o[2])
            };
            l += 1;
        }
        k += 1;
    }
    t
};

/// Each lane's band count (low half-word) and stack count (high half-word) of one
/// register of boards by digit.
#[target_feature(enable = "avx2")]
#[inline]
fn counts(a: __m256i) -> __m256i {
    let ones = splat(u32::MAX);
    // The minirows without a candidate, at their lowest bit (and every other bit set).
    let present = _mm256_or_si256(
        _mm256_or_si256(a, _mm256_srli_epi32::<1>(a)),
        _mm256_srli_epi32::<2>(a),
    );
    let missing_rows = _mm256_xor_si256(present, ones);
    // The column word of bands b, b + 1, b + 2 (lane 3 of each half stays in place).
    let c = columns(a);
    let c1 = _mm256_shuffle_epi32::<0b11_00_10_01>(c);
    let c2 = _mm256_shuffle_epi32::<0b11_01_00_10>(c);
    let word = _mm256_or_si256(
        _mm256_or_si256(c, _mm256_slli_epi32::<9>(c1)),
        _mm256_slli_epi32::<18>(c2),
    );
    let missing_word = _mm256_xor_si256(word, ones);
    let zero = splat(0);
    let mut n = zero;
    for k in 0..6 {
        // A fit is -1 in its lane: subtract it to count one.
        let band = _mm256_and_si256(missing_rows, splat(BAND_ORDERS[k]));
        n = _mm256_sub_epi32(n, _mm256_cmpeq_epi32(band, zero));
        // SAFETY: a 32-byte load of one row of the table.
        let orders = unsafe { _mm256_loadu_si256(STACK_ORDERS[k].as_ptr().cast()) };
        let stack = _mm256_and_si256(missing_word, orders);
        let fit = _mm256_cmpeq_epi32(stack, zero);
        n = _mm256_add_epi32(n, _mm256_and_si256(fit, splat(1 << 16)));
    }
    n
}

/// The split `pick` chooses for the boards `cand` at a stall with `pairs` bivalue cells
/// (the same as the portable `State::choose_split`, tested).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn choose(cand: Boards, pairs: u32) -> Option<SplitAt> {
    let regs = by_digit(cand);
    let n = regs.map(|r| counts(r));
    // Unit totals: the registers summed, then the two halves (the digits of each pair).
    let sum = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_add_epi32(n[0], n[1]), _mm256_add_epi32(n[2], n[3])),
        n[4],
    );
    let sum = _mm256_add_epi32(sum, _mm256_permute2x128_si256::<1>(sum, sum));
    let mut all = [[0u32; 8]; 6];
    for (out, x) in all.iter_mut().zip(n.iter().chain([&sum])) {
        // SAFETY: a 32-byte store into the eight words of `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), *x) };
    }
    // Lanes 0..3 of the sum: bands 0..3 (low half-word) and stacks 0..3 (high).
    let mut best: Option<(u32, usize)> = None;
    for u in 0..6 {
        let total = all[5][u % 3] >> (16 * (u / 3)) & 0xFFFF;
        if total >= 10 && best.is_none_or(|(t, _)| total < t) {
            best = Some((total, u));
        }
    }
    let (total, unit) = best?;
    if pairs > 0 && total >= LOOSE_UNIT {
        return None;
    }
    // Digit `d`'s count in the unit: lane `4 * (d % 2) + unit % 3` of register `d / 2`.
    let count = |d: usize| all[d / 2][4 * (d % 2) + unit % 3] >> (16 * (unit / 3)) & 0xFFFF;
    let digit = [2, 3]
        .iter()
        .find_map(|&k| (0..9).find(|&d| count(d) == k))
        .or_else(|| (0..9).find(|&d| count(d) >= 4))?;
    Some(SplitAt {
        unit: unit as u8,
        digit: digit as u8,
    })
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::{random_boards, xorshift};
    use super::super::super::State;
    use super::*;
    use crate::solver::Kernel;

    /// The register copy picks what the portable count picks, on random boards from dense
    /// to sparse, with and without bivalue cells at the stall.
    #[test]
    fn choose_matches_the_portable_count() {
        if !Kernel::Avx2.available() {
            eprintln!("skipped: this CPU lacks AVX2");
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
            let pairs = (round % 3) as u32;
            let want = state.choose_split(pairs);
            // SAFETY: the CPU has AVX2 (checked above).
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
