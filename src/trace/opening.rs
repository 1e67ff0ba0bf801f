//! The opening of a trace: the naked singles taken from the givens until the first step
//! that needs more, on a board lighter than [`Board`](super::board::Board).
//!
//! Most puzzles of the large datasets are solved by naked singles alone, and every trace
//! starts with a run of them. Until another technique runs, the full board holds nothing
//! these few words do not (no elimination has been made, no technique has marked anything
//! quiet), so the runner takes the opening here and builds the full board only where the
//! run stops short of the solution: from the grid reached, it is the board the placements
//! would have left. The steps are the ones the full board gives: at each step the lowest
//! naked single, and none when an empty cell has no candidate left.

use super::board::{bit, cells_of, filled_cells, Cells, ALL, ONE, PEER_SET, UNITS_OF};
use super::{Step, StepKind, Technique, Trace};
use crate::grid::CELLS;

/// How the opening ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Opening {
    /// Two givens share a unit and a digit: no step taken.
    Clash,
    /// The grid is complete.
    Solved,
    /// No naked single is left, or an empty cell has no candidate: the full board goes on
    /// from [`Trace::grid`].
    Stalled,
}

/// Takes naked singles on `t.grid` (the puzzle, steps pushed onto `t` and placed in
/// `t.grid`) while the lowest is the runner's next step.
///
/// The board: the digits each unit holds, and per digit the empty cells it can go in
/// (row-major bits). Each empty cell's candidate count is kept bit-sliced (bit `k` of the
/// count of cell `c` is bit `c` of `count[k]`), so that a placement lowers the counts of
/// all the peers that lose the digit at once, and the naked singles (count one) and the
/// dead cells (count zero) are a few word operations away, without a branch per peer.
pub(super) fn naked_singles(t: &mut Trace) -> Opening {
    let mut held = [0u16; 27];
    // Per digit: the givens holding it and their peers.
    let mut seen = [0 as Cells; 9];
    let filled = filled_cells(&t.grid);
    for c in cells_of(filled) {
        let d = t.grid.0[c];
        let [r, col, bx] = UNITS_OF[c].map(usize::from);
        if (held[r] | held[col] | held[bx]) & bit(d) != 0 {
            return Opening::Clash;
        }
        held[r] |= bit(d);
        held[col] |= bit(d);
        held[bx] |= bit(d);
        seen[usize::from(d - 1)] |= PEER_SET[c];
    }
    let mut empty: Cells = ((1 << CELLS) - 1) & !filled;
    let mut pos: [Cells; 9] = std::array::from_fn(|i| empty & !seen[i]);
    let mut count = [0 as Cells; 4];
    for &p in &pos {
        // Adds one to the counts of the cells of `p`.
        let mut carry = p;
        for k in &mut count {
            let next = *k & carry;
            *k ^= carry;
            carry = next;
        }
    }
    loop {
        let [c0, c1, c2, c3] = count;
        let dead = empty & !(c0 | c1 | c2 | c3);
        let single = empty & c0 & !(c1 | c2 | c3);
        if dead != 0 || single == 0 {
            return if empty == 0 {
                Opening::Solved
            } else {
                Opening::Stalled
            };
        }
        let c = single.trailing_zeros() as usize;
        let [r, col, bx] = UNITS_OF[c].map(usize::from);
        // The one digit no unit of the cell holds.
        let m = ALL & !(held[r] | held[col] | held[bx]);
        let d = m.trailing_zeros() as u8 + 1;
        let mut s = Step::new(StepKind::Placement, Technique::NakedSingle);
        s.cell = c as u8;
        s.digit = d;
        t.steps.push(s);
        t.grid.0[c] = d;
        held[r] |= m;
        held[col] |= m;
        held[bx] |= m;
        let i = usize::from(d - 1);
        let lost = pos[i] & PEER_SET[c];
        pos[i] &= !(PEER_SET[c] | ONE[c]);
        empty &= !ONE[c];
        // Subtracts one from the counts of the cells of `lost`.
        let mut borrow = lost;
        for k in &mut count {
            let next = borrow & !*k;
            *k ^= borrow;
            borrow = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::trace::board::Board;

    /// Where the opening stalls, its grid's full board has no naked single or has a dead
    /// cell, and every step placed the lowest naked single of the board before it, as the
    /// full board sees it.
    #[test]
    fn each_step_is_the_full_boards_lowest_naked_single() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt"))
            .expect("data/sample.txt");
        let (mut solved, mut stalled) = (0, 0);
        for line in text.lines().take(400) {
            let puzzle = Grid::parse(line.as_bytes()).expect("a sample puzzle");
            let mut t = Trace {
                grid: puzzle,
                ..Trace::default()
            };
            let end = naked_singles(&mut t);
            let mut b = Board::new(&puzzle).expect("sample puzzles have no clash");
            for s in &t.steps {
                assert_eq!(b.dead(), 0, "{puzzle}");
                let c = b.naked_singles().trailing_zeros() as usize;
                assert_eq!((usize::from(s.cell), b.candidates(c)), (c, bit(s.digit)));
                b.place(c, s.digit);
            }
            assert_eq!(b.grid(), t.grid, "{puzzle}");
            match end {
                Opening::Solved => {
                    assert_eq!(b.empty(), 0);
                    solved += 1;
                }
                Opening::Stalled => {
                    assert!(b.naked_singles() == 0 || b.dead() != 0, "{puzzle}");
                    assert_ne!(b.empty(), 0);
                    stalled += 1;
                }
                Opening::Clash => panic!("{puzzle}: no clash in the sample"),
            }
        }
        assert!(
            solved > 0 && stalled > 0,
            "{solved} solved, {stalled} stalled"
        );
    }

    /// Givens that share a unit and a digit end the opening before any step.
    #[test]
    fn a_clash_takes_no_step() {
        let mut t = Trace::default();
        t.grid.0[0] = 5;
        t.grid.0[80] = 5;
        t.grid.0[8] = 5;
        assert_eq!(naked_singles(&mut t), Opening::Clash);
        assert!(t.steps.is_empty());
    }
}
