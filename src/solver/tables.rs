//! Constant lookup tables for the band solver, built at compile time by `const fn`.
//!
//! A band is 27 bits: three rows of nine bits, row `r` (0..3 within the band) at bits
//! `9r..9r+9`, and inside a row the three boxes (minirows) at bits `0-2`, `3-5`, `6-8`.
//! See the diagram at the top of `state.rs`.

use crate::grid::ORDERS_OF_THREE;

/// The 27 bits of one band.
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// The three cells of each column inside a band: column 0 is bits 0, 9 and 18.
pub(crate) const COLUMN0: u32 = 1 | 1 << 9 | 1 << 18;

/// For a row of nine bits, which of its three minirows hold a bit: bit `x` set when any of
/// bits `3x..3x+3` is set.
pub(crate) const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut x = 0;
        while x < 3 {
            if (row >> (3 * x)) & 7 != 0 {
                t[row] |= 1 << x;
            }
            x += 1;
        }
        row += 1;
    }
    t
};

/// A nine-bit row itself when it has exactly one bit (the digit is placed there), else 0.
pub(crate) const SOLO: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut row = 0;
    while row < 512 {
        if row != 0 && row & (row - 1) == 0 {
            t[row] = row as u16;
        }
        row += 1;
    }
    t
};

/// Whether the 3x3 minirow pattern `pattern` (bit `3r + x`: row `r` of the band may hold the
/// digit in box `x`) contains the placement "row `r` uses box `perm[r]`".
const fn perm_fits(pattern: usize, perm: [usize; 3]) -> bool {
    let mut r = 0;
    while r < 3 {
        if pattern & (1 << (3 * r + perm[r])) == 0 {
            return false;
        }
        r += 1;
    }
    true
}

/// The six ways to give each of the three rows of a band its own box (row `r` takes box
/// `PERMS[k][r]`): the grid's orders of three.
const PERMS: [[usize; 3]; 6] = ORDERS_OF_THREE;

/// For a 3x3 pattern (bit `3r + x`, as [`perm_fits`] reads it), which of the six
/// [`PERMS`] fit it: bit `k` for `PERMS[k]`. Its popcount is the number of a digit's
/// *configurations* left in a band (which box each row uses) or a stack (which column
/// each band uses).
pub(crate) const FITS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut k = 0;
        while k < 6 {
            if perm_fits(pattern, PERMS[k]) {
                t[pattern] |= 1 << k;
            }
            k += 1;
        }
        pattern += 1;
    }
    t
};

/// For each of the six [`PERMS`], the band cells of the minirows it uses (row `r`, box
/// `PERMS[k][r]`), as a 27-bit mask.
pub(crate) const PERM_MINIROWS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut k = 0;
    while k < 6 {
        let mut r = 0;
        while r < 3 {
            t[k] |= 0b111 << (9 * r + 3 * PERMS[k][r]);
            r += 1;
        }
        k += 1;
    }
    t
};

/// For a minirow pattern (as [`PERMS`] uses it), the band cells that survive the rule "one
/// digit stands once in each row and once in each box of the band": the union of every
/// minirow used by some row-to-box permutation that fits the pattern, as a 27-bit cell mask.
/// `0` when no permutation fits (a contradiction). This one lookup does the band's box/line
/// interactions (pointing and claiming) for one digit.
pub(crate) const COMPLEX: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut keep = 0u32;
        let mut p = 0;
        while p < 6 {
            if perm_fits(pattern, PERMS[p]) {
                let mut r = 0;
                while r < 3 {
                    keep |= 7 << (9 * r + 3 * PERMS[p][r]);
                    r += 1;
                }
            }
            p += 1;
        }
        t[pattern] = keep;
        pattern += 1;
    }
    t
};

/// [`COMPLEX`] indexed by the pattern's transpose (bit `3k + r` set when row `r` can hold
/// the digit in box `k`), which a board's minirow flags give in a few shifts with no table
/// (the AVX2 kernel's `minirow_keys`), where the pattern itself takes three lookups.
#[cfg(target_arch = "x86_64")]
pub(crate) const COMPLEX_T: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut key = 0;
    while key < 512 {
        let mut pattern = 0;
        let mut bit = 0;
        while bit < 9 {
            let (k, r) = (bit / 3, bit % 3);
            if key >> bit & 1 == 1 {
                pattern |= 1 << (3 * r + k);
            }
            bit += 1;
        }
        t[key] = COMPLEX[pattern];
        key += 1;
    }
    t
};

/// For the nine-bit set of columns where a digit may still stand in a band, the cells the
/// other two bands keep for that digit: a box of the band whose cells all lie in one column
/// takes that column from the other bands (box/column interaction; this also keeps a
/// placed digit out of its column). Boxes with no column at all are left to [`COMPLEX`].
pub(crate) const POINTING: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut keep = BAND;
        let mut x = 0;
        while x < 3 {
            let part = (cols >> (3 * x)) & 7;
            if part != 0 && part & (part - 1) == 0 {
                keep &= !(((part as u32) << (3 * x)) * COLUMN0);
            }
            x += 1;
        }
        t[cols] = keep;
        cols += 1;
    }
    t
};

/// For each band bit `p` (0..27), the cells of the band that share its row or its box,
/// including the cell itself.
pub(crate) const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let row = 0x1FF << (9 * (p / 9));
        let bx = 7 << (3 * ((p % 9) / 3));
        t[p] = row | bx | bx << 9 | bx << 18;
        p += 1;
    }
    t
};

/// For a band bit `p` (0..27), the three cells of its column in the band.
pub(crate) const COLUMN_OF: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        t[p] = COLUMN0 << (p % 9);
        p += 1;
    }
    t
};

/// For a band bit `p` (0..27), where `State::busiest_pair` reads the cell's score: its
/// row in the band in bits 6-7 and the shift of its five-bit field (`5 * column`) below.
/// (32 entries, the last five unused, so that a `trailing_zeros` needs no bounds check.)
pub(crate) const CELL_FIELD: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut p = 0;
    while p < 27 {
        t[p] = (((p / 9) << 6) | (5 * (p % 9))) as u8;
        p += 1;
    }
    t
};

/// The low `n` bits of `bits` spread to fields of `width` bits: bit `j` becomes bit
/// `width * j` (field `j` is 0 or 1). The tables below are all built with it.
const fn spread(bits: u64, n: u32, width: u32) -> u64 {
    let mut t = 0;
    let mut j = 0;
    while j < n {
        t |= ((bits >> j) & 1) << (width * j);
        j += 1;
    }
    t
}

/// Nine five-bit fields in a `u64`, each 1: field `c` is bits `5c..5c + 5`. Multiplying a
/// count by it copies the count into every field.
pub(crate) const FIELDS5: u64 = spread(0x1FF, 9, 5);

/// For a nine-bit row, its bits as five-bit fields: field `c` (bits `5c..5c + 5`) is bit `c`
/// of the row, 0 or 1. Summing such words counts per column, up to 31.
pub(crate) const SPREAD5: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut row = 0;
    while row < 512 {
        t[row] = spread(row as u64, 9, 5);
        row += 1;
    }
    t
};

/// For a nine-bit row, field `c` (bits `5c..5c + 5`) holds how many bits the row has in the
/// minirow (box) of column `c`, 0 to 3: each minirow's count times its three fields.
pub(crate) const MINI5: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut row = 0;
    while row < 512 {
        let mut x = 0;
        while x < 3 {
            let n = ((row as u32 >> (3 * x)) & 7).count_ones() as u64;
            t[row] += n * spread(7 << (3 * x), 9, 5);
            x += 1;
        }
        row += 1;
    }
    t
};

/// For a byte, its eight bits as eight bytes: byte `j` of the `u64` (little-endian) is bit
/// `j` of the index, 0 or 1.
pub(crate) const SPREAD8: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = spread(x as u64, 8, 8);
        x += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The field tables hold, field by field, what their documentation says.
    #[test]
    fn field_tables_match_their_definitions() {
        for c in 0..9 {
            assert_eq!(FIELDS5 >> (5 * c) & 31, 1);
        }
        assert_eq!(FIELDS5 >> 45, 0);
        for row in 0..512usize {
            for c in 0..9 {
                let field = |t: u64| t >> (5 * c) & 31;
                assert_eq!(field(SPREAD5[row]), (row >> c & 1) as u64, "{row} {c}");
                let minirow = (row >> (3 * (c / 3)) & 7).count_ones() as u64;
                assert_eq!(field(MINI5[row]), minirow, "{row} {c}");
            }
            assert_eq!(SPREAD5[row] >> 45 | MINI5[row] >> 45, 0);
        }
        for (x, word) in SPREAD8.iter().enumerate() {
            let bytes = word.to_le_bytes();
            for (j, &b) in bytes.iter().enumerate() {
                assert_eq!(b, (x >> j & 1) as u8, "{x} {j}");
            }
        }
    }

    #[test]
    fn shrink_marks_occupied_minirows() {
        for (row, &got) in SHRINK.iter().enumerate() {
            let expect: u8 = (0..3)
                .filter(|x| (0..3).any(|k| row & (1 << (3 * x + k)) != 0))
                .map(|x| 1 << x)
                .sum();
            assert_eq!(got, expect, "row {row:09b}");
        }
    }

    /// Brute force: every way to put one digit in a band once per row and once per box,
    /// restricted to the minirows of `pattern`; the union of the cells used.
    fn complex_brute(pattern: usize) -> u32 {
        let mut keep = 0;
        for c0 in 0..9 {
            for c1 in 0..9 {
                for c2 in 0..9 {
                    let cols = [c0, c1, c2];
                    let boxes = cols.map(|c| c / 3);
                    if boxes[0] == boxes[1] || boxes[0] == boxes[2] || boxes[1] == boxes[2] {
                        continue;
                    }
                    if (0..3).all(|r| pattern & (1 << (3 * r + boxes[r])) != 0) {
                        for (r, b) in boxes.iter().enumerate() {
                            keep |= 7 << (9 * r + 3 * b);
                        }
                    }
                }
            }
        }
        keep
    }

    #[test]
    fn complex_mask_matches_brute_force() {
        for (pattern, &got) in COMPLEX.iter().enumerate() {
            assert_eq!(got, complex_brute(pattern), "{pattern:09b}");
        }
        assert_eq!(COMPLEX[0x1FF], BAND);
        assert_eq!(COMPLEX[0], 0);
    }

    #[test]
    fn pointing_takes_single_columns_of_boxes() {
        for (cols, &keep) in POINTING.iter().enumerate() {
            for c in 0..9 {
                let in_box = (cols >> (c / 3 * 3)) & 7;
                let single = in_box == 1 << (c % 3);
                for r in 0..3 {
                    assert_eq!(keep & (1 << (9 * r + c)) == 0, single, "{cols:09b} {c}");
                }
            }
            assert_eq!(keep & !BAND, 0);
        }
    }

    #[test]
    fn band_peers_share_a_row_or_box() {
        for (p, &m) in BAND_PEERS.iter().enumerate() {
            for q in 0..27 {
                let same = q / 9 == p / 9 || (q % 9) / 3 == (p % 9) / 3;
                assert_eq!(m & (1 << q) != 0, same, "{p} {q}");
            }
            assert_eq!(m.count_ones(), 9 + 6);
        }
        assert_eq!(COLUMN0 << 8 & BAND, 1 << 8 | 1 << 17 | 1 << 26);
    }
}
