//! Whether naked and hidden singles alone solve a puzzle: `rate`'s `singles_only` column
//! (issue 13). A plain candidate-mask propagation, kept apart from the fast solver, whose
//! propagation also uses box/line interactions and so solves more puzzles without a guess.

use crate::grid::{Grid, CELLS, UNITS};

/// The units (row, column, box) of each cell, as indices into [`UNITS`].
const CELL_UNITS: [[usize; 3]; CELLS] = {
    let mut out = [[0; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        out[i] = [i / 9, 9 + i % 9, 18 + i / 27 * 3 + i % 9 / 3];
        i += 1;
    }
    out
};

/// Candidates (bits 1-9) and placed digits of a grid being filled by singles.
struct Singles {
    cells: [u8; CELLS],
    candidates: [u16; CELLS],
}

impl Singles {
    /// Puts digit `d` in cell `i` and takes it from the candidates of the cell's peers.
    fn place(&mut self, i: usize, d: u8) {
        self.cells[i] = d;
        self.candidates[i] = 0;
        for &u in &CELL_UNITS[i] {
            for &p in &UNITS[u] {
                self.candidates[p] &= !(1 << d);
            }
        }
    }

    /// One round of naked singles then hidden singles. `None` on a contradiction (a cell
    /// without candidates, or a digit with no place left in a unit), else whether anything
    /// was placed.
    fn round(&mut self) -> Option<bool> {
        let mut placed = false;
        for i in 0..CELLS {
            if self.cells[i] != 0 {
                continue;
            }
            let c = self.candidates[i];
            if c == 0 {
                return None;
            }
            if c.is_power_of_two() {
                self.place(i, c.trailing_zeros() as u8);
                placed = true;
            }
        }
        for unit in &UNITS {
            for d in 1..=9u8 {
                if unit.iter().any(|&i| self.cells[i] == d) {
                    continue;
                }
                let mut spots = unit.iter().filter(|&&i| self.candidates[i] & (1 << d) != 0);
                match (spots.next(), spots.next()) {
                    (None, _) => return None,
                    (Some(&i), None) => {
                        self.place(i, d);
                        placed = true;
                    }
                    _ => {}
                }
            }
        }
        Some(placed)
    }
}

/// Whether naked singles (a cell with one candidate left) and hidden singles (a digit with
/// one place left in a row, column or box), repeated, fill every cell of `puzzle`
/// (`[u8; 81]`, row-major, 0 = empty). `false` when they stall or meet a contradiction.
pub fn solved_by_singles(puzzle: &Grid) -> bool {
    let mut s = Singles {
        cells: [0; CELLS],
        candidates: [0x3FE; CELLS],
    };
    for (i, &d) in puzzle.0.iter().enumerate() {
        if d != 0 {
            if s.candidates[i] & (1 << d) == 0 {
                return false;
            }
            s.place(i, d);
        }
    }
    while let Some(true) = s.round() {}
    s.cells.iter().all(|&d| d != 0) && s.round().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};
    use crate::grid::parse_cells;

    #[test]
    fn easy_puzzles_fall_to_singles_and_hard_ones_do_not() {
        // The fixture needs only singles: every step of a singles run is forced.
        assert!(solved_by_singles(&parse_cells(P.as_bytes()).unwrap()));
        assert!(solved_by_singles(&parse_cells(S.as_bytes()).unwrap()));
        // This 17-clue puzzle falls to singles (checked with an independent script); Arto
        // Inkala's "world's hardest" puzzle does not.
        let easy17 =
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
        assert!(solved_by_singles(&parse_cells(easy17.as_bytes()).unwrap()));
        let hard =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        assert!(!solved_by_singles(&parse_cells(hard.as_bytes()).unwrap()));
        assert!(!solved_by_singles(&Grid::EMPTY));
        // A whole row blanked: each of its cells is left one candidate by its column.
        let mut g = parse_cells(S.as_bytes()).unwrap();
        for i in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
            g.0[i] = 0;
        }
        assert!(solved_by_singles(&g));
        // Clashing givens are no solution.
        let clash = format!("11{}", ".".repeat(79));
        assert!(!solved_by_singles(&parse_cells(clash.as_bytes()).unwrap()));
    }

    #[test]
    fn the_unit_table_matches_the_units() {
        for (i, units) in CELL_UNITS.iter().enumerate() {
            for &u in units {
                assert!(UNITS[u].contains(&i), "cell {i} unit {u}");
            }
        }
    }
}
