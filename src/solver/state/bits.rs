//! Bit tricks on band boards (27 bits: three nine-bit rows, the layout of `state.rs`) that
//! the SIMD kernels share: they replace table lookups that vector code cannot make.

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
