//! The first pass of the search: the smallest pattern of givens (a given read as 1, a blank
//! as 0), row by row, on 9-bit row patterns and a table, with no labels to track.
//!
//! A row's pattern is 9 bits, output column 0 the most significant, so comparing integers
//! compares patterns. Within a stack the best order of its 3 columns among those a branch
//! still allows is looked up in [`PATTERN_MIN`], indexed by the stack's 3 source bits and
//! the branch's 6-bit set of orders.

use super::search::{allowed_rows, Branch, TRIPLE_ORDERS};
use crate::grid::CELLS;

/// `PATTERN_MIN[bits][orders]`: for the 3 pattern bits of a stack (source column 0 the most
/// significant) and a set of allowed column orders (bit `p` = [`TRIPLE_ORDERS`]`[p]`), the
/// least output bits any allowed order gives, and the set of the orders that give them.
/// An empty set of orders gives `(7, 0)`, never used: a branch always allows one order.
const PATTERN_MIN: [[(u8, u8); 64]; 8] = {
    let mut table = [[(7u8, 0u8); 64]; 8];
    let mut bits = 0;
    while bits < 8 {
        let mut orders = 1;
        while orders < 64 {
            let (mut least, mut which) = (8u8, 0u8);
            let mut p = 0;
            while p < 6 {
                if orders & (1 << p) != 0 {
                    let o = TRIPLE_ORDERS[p];
                    let out = ((bits >> (2 - o[0])) & 1) << 2
                        | ((bits >> (2 - o[1])) & 1) << 1
                        | ((bits >> (2 - o[2])) & 1);
                    if out < least {
                        least = out;
                        which = 0;
                    }
                    if out == least {
                        which |= 1 << p;
                    }
                }
                p += 1;
            }
            table[bits as usize][orders as usize] = (least, which);
            orders += 1;
        }
        bits += 1;
    }
    table
};

/// The 9-bit pattern of each row of `grid` (bit `8 - c` set when column `c` holds a given).
pub(super) fn row_patterns(grid: &[u8; CELLS]) -> [u16; 9] {
    let mut out = [0u16; 9];
    for (r, p) in out.iter_mut().enumerate() {
        for &d in &grid[r * 9..r * 9 + 9] {
            *p = *p << 1 | u16::from(d != 0);
        }
    }
    out
}

/// Runs the nine levels on patterns from the branches in `level` (rows not chosen yet),
/// leaving there the branches that give the smallest pattern, each with its rows chosen
/// and its column orders narrowed. `found` is scratch space.
pub(super) fn pattern_pass(pats: &[[u16; 9]; 2], level: &mut Vec<Branch>, found: &mut Vec<Branch>) {
    for k in 0..9 {
        let mut best = u16::MAX;
        found.clear();
        for b in level.iter() {
            let t = usize::from(b.t);
            let shifts = b.stacks.map(|s| 3 * (2 - usize::from(s)));
            let mut rows = allowed_rows(b, k);
            while rows != 0 {
                let row = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                let p = pats[t][row];
                let stack = |s: usize| {
                    let bits = (p >> shifts[s]) & 7;
                    PATTERN_MIN[usize::from(bits)][usize::from(b.orders[s])]
                };
                let (v0, m0) = stack(0);
                let mut value = u16::from(v0);
                if value > best >> 6 {
                    continue;
                }
                let (v1, m1) = stack(1);
                value = value << 3 | u16::from(v1);
                if value > best >> 3 {
                    continue;
                }
                let (v2, m2) = stack(2);
                value = value << 3 | u16::from(v2);
                if value < best {
                    best = value;
                    found.clear();
                }
                if value == best {
                    let mut n = b.with_row(k, row);
                    n.orders = [m0, m1, m2];
                    found.push(n);
                }
            }
        }
        std::mem::swap(level, found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_brute_force_over_every_order() {
        for bits in 0..8u8 {
            // Every order allowed: the givens go right, so the least is the count's low bits.
            let ones = bits.count_ones();
            assert_eq!(PATTERN_MIN[usize::from(bits)][63].0, (1u8 << ones) - 1);
            for (p, o) in TRIPLE_ORDERS.iter().enumerate() {
                let out: u8 = o.iter().fold(0, |a, &j| a << 1 | ((bits >> (2 - j)) & 1));
                let (least, which) = PATTERN_MIN[usize::from(bits)][1 << p];
                assert_eq!((least, which), (out, 1 << p));
            }
        }
    }
}
