//! Canonical form (minlex) of a puzzle or grid, and its automorphism count (issue 12).
//!
//! # The group
//! Two puzzles are *isomorphs* when one is mapped onto the other by the Sudoku symmetry
//! group: a geometric transform (transpose or not; a permutation of the 3 bands, of the 3
//! stacks, of the 3 rows within each band and of the 3 columns within each stack: 2 · 6^8 =
//! 3,359,232 transforms) followed by a relabelling of the digits (9! = 362,880), in all
//! 1,218,998,108,160 elements. Isomorphs have the same number of solutions and, for every
//! rating that only looks at the rules, the same difficulty.
//!
//! # The form
//! The *minlex* form, as in common use (M. Dobrichev's `patminlex`, and the 4,000 forms of
//! `../shared/data/canon/minlex_reference.csv`): over all geometric transforms, first the
//! smallest *pattern* of givens (the 81-cell string with a given read as 1 and a blank as
//! 0), then, among the transforms that give that pattern, the smallest 81-cell string with
//! blanks read as 0 and digits relabelled in order of first appearance (the smallest
//! relabelling, so the form is also the smallest over the whole group with that pattern).
//! Two puzzles are isomorphs exactly when their forms are equal. It needs no solution: a
//! puzzle with 0, 1 or many solutions has one, and so does a complete grid (whose pattern
//! is all givens, so only the digits count). For example the 17-clue puzzle
//! `..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9`
//! has the form
//! `..............1..2.34....5.......46.....7....1....8........2..1..7.....8.654.....`.
//!
//! Pattern first is not quite "the smallest string" read literally: a transform can win on
//! an early digit and lose on a later given. Of the 4,000 reference puzzles, one
//! (`.91.2..3.........5.7..3..........92.5.6......8.........3..4..................95.6`)
//! has a string smaller than its reference form (`...1....23.4.....15.3...` against
//! `...1....23.4.....51.2...`, a given moved later). We follow the form in use, so that
//! forms compare with other tools' and datasets' (issue 12).
//!
//! # The algorithm
//! A best-first search over output rows (`canon/search.rs`), run twice: on the pattern, then on
//! the labelled digits of the transforms left. Each partial transform fixes the transpose,
//! the source rows of the output rows so far, the order of the stacks and the labels
//! handed out so far; the order of the columns inside each stack stays a set (a 6-bit
//! mask) until a row tells them apart. Row `k` keeps only the partial transforms that give
//! the smallest row `k`, and a candidate row is dropped after its first stack that already
//! exceeds the best row's prefix. Because a blank (0) is smaller than a given, the first
//! rows of the form are its emptiest, so on puzzles only a few partial transforms survive
//! each row. The idea of the pattern first and of narrowing the column orders per stack
//! with a mask of the 6 orders is M. Dobrichev's patminlex
//! (github.com/dobrichev/sudoku-minlexing-tool); the code here is our own.
//!
//! A complete valid grid has a search of its own (`canon/grid.rs`): row 0 of its form is
//! always `123456789`, so each label is the output position of a row-0 column, and row 1
//! is then a conjugate, under the 1,296 column orders, of a permutation of the 9 columns
//! that the grid's two top rows define. One table (`canon/rowpair.rs`, 12,096 such
//! permutations in 15 classes, built on first use) gives the smallest row 1 and the
//! column orders that reach it for each of the 36 choices of transpose and top rows, and
//! only the choices that reach the smallest row 1 are expanded (about 500 times faster on
//! grids than the generic search, which splits on the 216 column orders of row 0).
//!
//! The count of automorphisms falls out of the same search: the partial transforms alive
//! after the last row are exactly the geometric transforms that map the puzzle onto its
//! form.

mod grid;
mod pattern;
mod rowpair;
mod search;

use crate::grid::Grid;

/// A puzzle's canonical form and the size of its automorphism group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The minlex form: `[u8; 81]`, row-major, 0 = empty.
    pub form: Grid,
    /// Geometric transforms (of the 3,359,232) that map the puzzle onto its form, each with
    /// its one relabelling of the digits present: 1 for most puzzles, 3,359,232 for the
    /// empty grid; the order of the puzzle's automorphism group.
    pub automorphisms: u32,
}

/// The minlex form of `puzzle` (`[u8; 81]`, row-major, 0 = empty; any givens, clashing or
/// not, complete or not): the smallest pattern of givens, then the smallest string, over the
/// symmetry group, as described in the [module docs](self).
///
/// ```
/// use sudoku_batch::{canon::minlex, grid::parse_cells};
/// let p = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
/// let form = minlex(&parse_cells(p.as_bytes()).unwrap());
/// assert_eq!(
///     form.to_string(),
///     "..............1..2.34....5.......46.....7....1....8........2..1..7.....8.654....."
/// );
/// ```
pub fn minlex(puzzle: &Grid) -> Grid {
    search::search(puzzle).form
}

/// The minlex form of `puzzle` together with its number of automorphisms (see
/// [`Canonical`]).
pub fn canonical(puzzle: &Grid) -> Canonical {
    let o = search::search(puzzle);
    Canonical {
        form: o.form,
        automorphisms: o.automorphisms,
    }
}

/// Number of geometric transforms that map `puzzle` onto its minlex form, 1..=3,359,232:
/// the order of its automorphism group (1 for nearly all puzzles).
pub fn automorphisms(puzzle: &Grid) -> u32 {
    search::search(puzzle).automorphisms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};
    use crate::grid::parse_cells;
    use crate::isomorph::Isomorph;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn grid(s: &str) -> Grid {
        parse_cells(s.as_bytes()).unwrap()
    }

    #[test]
    fn the_empty_grid_is_its_own_form_with_every_transform() {
        let c = canonical(&Grid::EMPTY);
        assert_eq!(c.form, Grid::EMPTY);
        assert_eq!(c.automorphisms, 3_359_232);
    }

    #[test]
    fn one_given_goes_to_the_last_cell() {
        let mut g = Grid::EMPTY;
        g.0[40] = 7;
        let c = canonical(&g);
        let mut want = Grid::EMPTY;
        want.0[80] = 1;
        assert_eq!(c.form, want);
        // Fixing one cell: 2 (transpose) * (2 * 2 * 2 * 2) orders of the other bands,
        // stacks, rows and columns * (2 * 2 * 2 * 2) within them = 2 * 4^2 * 4^2 * ... :
        // the stabiliser of a cell has order 3,359,232 / 81.
        assert_eq!(c.automorphisms, 3_359_232 / 81);
    }

    #[test]
    fn isomorphs_share_a_form_and_the_form_is_an_isomorph() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for s in [P, S] {
            let g = grid(s);
            let c = canonical(&g);
            assert_eq!(c.form.clues(), g.clues());
            assert_eq!(minlex(&c.form), c.form, "the form is its own form");
            for _ in 0..20 {
                let iso = Isomorph::random(&mut rng).apply(&g);
                assert_eq!(canonical(&iso), c);
            }
        }
    }
}
