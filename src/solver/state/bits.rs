//! Bit tricks on band boards (27 bits: three nine-bit rows, the layout of `state.rs`) that
//! the SIMD kernels share: they replace table lookups that vector code cannot make; and the
//! givens read into band boards, the first step of both kernels' placement of the givens.

use std::arch::x86_64::{
    __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
};

use super::{given_cells, BAND, BOARDS};

/// The low eight bits of each row of a band board (27 bits, three nine-bit rows).
pub(super) const ROW_LOW8: u32 = 0xFF | 0xFF << 9 | 0xFF << 18;
/// The top (ninth) bit of each row of a band board.
pub(super) const ROW_TOP: u32 = 1 << 8 | 1 << 17 | 1 << 26;
/// The lowest bit of each row of a band board.
pub(super) const ROW_LOW: u32 = 1 | 1 << 9 | 1 << 18;

/// The cells of `a` (a band board whose three rows are not empty) that are the only cell of
/// their row, as [`super::SOLO`] gives them row by row, with no table: `a & (a - ROW_LOW)` clears
/// each row's lowest cell (no row is empty, so nothing borrows across rows), leaving 0
/// exactly in the rows with one cell; adding 0xFF to each row's low eight bits carries into
/// its ninth when they are not 0, which flags the rows that are not 0, and one
/// multiplication widens each flag to its row.
#[inline(always)]
pub(super) fn lone_cells(a: u32) -> u32 {
    let rest = a & a.wrapping_sub(ROW_LOW);
    let nonzero = (((rest & ROW_LOW8) + ROW_LOW8) | rest) & ROW_TOP;
    a & !((nonzero >> 8) * 0x1FF)
}

/// The givens of `puzzle` (`[u8; 81]`, row-major, 0 = empty) as band boards: `placed[9 * b +
/// d]` holds the cells of band `b` given digit `d + 1`, a byte compare each; `unsolved[b]`
/// the band's empty cells. Band 2's 32 bytes end at the puzzle's end, five bytes before the
/// band.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn band_givens(puzzle: &[u8; 81]) -> ([u32; BOARDS], [u32; 3]) {
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
    (placed, unsolved)
}

#[cfg(test)]
mod tests {
    use super::super::SOLO;
    use super::*;

    /// `lone_cells` agrees with the `SOLO` table on every row pattern: each of the 511
    /// non-empty rows in each of the three rows, beside two other non-empty rows.
    #[test]
    fn lone_cells_match_the_solo_table() {
        let solo = |a: u32| {
            u32::from(SOLO[(a & 0x1FF) as usize])
                | u32::from(SOLO[((a >> 9) & 0x1FF) as usize]) << 9
                | u32::from(SOLO[(a >> 18) as usize & 0x1FF]) << 18
        };
        let mut lone_rows = 0;
        for row in 1u32..512 {
            for others in [0x1FF, 0x001, 0x100, 0x0A5] {
                for r in 0..3 {
                    let mut a = others | others << 9 | others << 18;
                    a &= !(0x1FF << (9 * r));
                    a |= row << (9 * r);
                    assert_eq!(lone_cells(a), solo(a), "{a:#x}");
                }
            }
            lone_rows += usize::from(row.count_ones() == 1);
        }
        assert_eq!(lone_rows, 9);
    }
}
