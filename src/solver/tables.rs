//! Constant lookup tables for the solver, built at compile time by `const fn`.

use crate::grid::{CELLS, UNITS};

/// For each cell, the indices of its three units: `[row, 9 + column, 18 + box]`.
pub(crate) const CELL_UNITS: [[usize; 3]; CELLS] = {
    let mut t = [[0usize; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = [i / 9, 9 + i % 9, 18 + (i / 27) * 3 + (i % 9) / 3];
        i += 1;
    }
    t
};

/// For each cell, its 20 peers (cells sharing a row, column or box), ascending.
pub(crate) const PEERS: [[u8; 20]; CELLS] = {
    let mut t = [[0u8; 20]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut n = 0;
        let mut j = 0;
        while j < CELLS {
            let same_row = i / 9 == j / 9;
            let same_col = i % 9 == j % 9;
            let same_box = CELL_UNITS[i][2] == CELL_UNITS[j][2];
            if j != i && (same_row || same_col || same_box) {
                t[i][n] = j as u8;
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// `UNITS` narrowed to `u8` cell indices for the hot loop.
pub(crate) const UNIT_CELLS: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            t[u][k] = UNITS[u][k] as u8;
            k += 1;
        }
        u += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_are_the_union_of_the_three_units_less_the_cell() {
        for (i, peers) in PEERS.iter().enumerate() {
            let mut expect: Vec<u8> = CELL_UNITS[i]
                .iter()
                .flat_map(|&u| UNITS[u])
                .filter(|&c| c != i)
                .map(|c| c as u8)
                .collect();
            expect.sort_unstable();
            expect.dedup();
            assert_eq!(peers.to_vec(), expect, "cell {i}");
            for &u in &CELL_UNITS[i] {
                assert!(UNITS[u].contains(&i));
            }
        }
    }
}
