//! Sudoku isomorphs: the symmetry transforms that map a puzzle to an equivalent one with
//! the same number of solutions and the same difficulty class.
//!
//! `bench --seed` replaces every puzzle by a random isomorph (as tdoku's benchmark does) so
//! that an input's order or a solver's bias towards one orientation cannot flatter the
//! numbers; property tests use the same transform to check that a permuted puzzle gives the
//! permuted solution.
//!
//! An [`Isomorph`] combines, in this order of application to a cell `(r, c)` of the output:
//! an optional transpose, a row permutation that moves rows only within their band and bands
//! as wholes, the same for columns within stacks, and a relabelling of the digits 1–9.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::grid::{Grid, CELLS};

/// One symmetry of the Sudoku grid. Applying it to a valid grid gives a valid grid, and to
/// a puzzle gives a puzzle with the same number of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isomorph {
    /// Output row `r` takes source row `rows[r]` (0-based); rows stay within their band.
    pub rows: [usize; 9],
    /// Output column `c` takes source column `cols[c]` (0-based); columns stay within their stack.
    pub cols: [usize; 9],
    /// Digit `d` (1–9) becomes `digits[d - 1]`; 0 (empty) stays 0.
    pub digits: [u8; 9],
    /// Whether rows and columns are swapped before the permutations are read.
    pub transpose: bool,
}

impl Isomorph {
    /// The identity: every cell and digit stays where it is.
    pub const IDENTITY: Isomorph = Isomorph {
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [1, 2, 3, 4, 5, 6, 7, 8, 9],
        transpose: false,
    };

    /// A uniformly random isomorph drawn from `rng`: digits relabelled, bands and stacks
    /// permuted, rows and columns permuted within them, transposed with probability ½.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Isomorph {
        let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        digits.shuffle(rng);
        Isomorph {
            rows: line_permutation(rng),
            cols: line_permutation(rng),
            digits,
            transpose: rng.random_bool(0.5),
        }
    }

    /// Applies the transform to `g` (a puzzle or a solution).
    pub fn apply(&self, g: &Grid) -> Grid {
        let mut out = [0u8; CELLS];
        for (r, row) in out.chunks_exact_mut(9).enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let (sr, sc) = (self.rows[r], self.cols[c]);
                let src = if self.transpose {
                    sc * 9 + sr
                } else {
                    sr * 9 + sc
                };
                let d = g.0[src];
                *cell = if d == 0 {
                    0
                } else {
                    self.digits[usize::from(d) - 1]
                };
            }
        }
        Grid(out)
    }
}

/// A permutation of the 9 rows (or columns) that keeps each band (stack) together.
fn line_permutation<R: Rng + ?Sized>(rng: &mut R) -> [usize; 9] {
    let mut bands = [0, 1, 2];
    bands.shuffle(rng);
    let mut out = [0; 9];
    for (i, b) in bands.iter().enumerate() {
        let mut inner = [0, 1, 2];
        inner.shuffle(rng);
        for (j, k) in inner.iter().enumerate() {
            out[i * 3 + j] = b * 3 + k;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::P;
    use crate::grid::parse_cells;
    use crate::solver::solve;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn identity_changes_nothing() {
        let p = parse_cells(P.as_bytes()).unwrap();
        assert_eq!(Isomorph::IDENTITY.apply(&p), p);
    }

    #[test]
    fn a_permuted_puzzle_gives_the_permuted_solution() {
        let p = parse_cells(P.as_bytes()).unwrap();
        let s = solve(&p, 2).grid.unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..50 {
            let iso = Isomorph::random(&mut rng);
            let (ip, is) = (iso.apply(&p), iso.apply(&s));
            assert!(is.is_complete_valid() && is.keeps_givens(&ip));
            assert_eq!(ip.clues(), p.clues());
            let found = solve(&ip, 2);
            assert_eq!(found.count, 1);
            assert_eq!(found.grid, Some(is));
        }
    }

    #[test]
    fn same_seed_same_isomorph() {
        let a = Isomorph::random(&mut ChaCha8Rng::seed_from_u64(1));
        let b = Isomorph::random(&mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(a, b);
    }
}
