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

use super::board::{bit, each_cell, filled_cells, Cells, ALL, ONE, PEER_SET, UNITS_OF};
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
    #[cfg(target_arch = "x86_64")]
    return run::<sse2::Set>(t);
    #[cfg(not(target_arch = "x86_64"))]
    return run::<u128>(t);
}

/// [`naked_singles`] with the cell sets in `S`.
fn run<S: CellSet>(t: &mut Trace) -> Opening {
    let mut held = [0u16; 27];
    // Per digit: the givens holding it and their peers.
    let mut seen = [0 as Cells; 9];
    let filled = filled_cells(&t.grid);
    each_cell(filled, |c| {
        let d = t.grid.0[c];
        let [r, col, bx] = UNITS_OF[c].map(usize::from);
        held[r] |= bit(d);
        held[col] |= bit(d);
        held[bx] |= bit(d);
        seen[usize::from(d - 1)] |= PEER_SET[c];
    });
    // Each given adds its digit to its three units; two givens of a digit in one unit add
    // it there once, so the units hold three digits a given exactly when no givens clash
    // (one count after the loop instead of a test a given).
    let held_digits: u32 = held.iter().map(|h| h.count_ones()).sum();
    if held_digits != 3 * filled.count_ones() {
        return Opening::Clash;
    }
    let empty: Cells = ((1 << CELLS) - 1) & !filled;
    let mut pos: [S; 9] = std::array::from_fn(|i| S::new(empty & !seen[i]));
    let mut empty = S::new(empty);
    let mut count = [S::new(0); 4];
    for &p in &pos {
        // Adds one to the counts of the cells of `p`.
        let mut carry = p;
        for k in &mut count {
            let next = k.and(carry);
            *k = k.xor(carry);
            carry = next;
        }
    }
    // The placements (cell, digit), pushed as steps when the run ends: a push in the loop
    // may call the allocator, around which every register set would be saved.
    let mut placed = [(0u8, 0u8); CELLS];
    let mut n = 0;
    let end = loop {
        let [c0, c1, c2, c3] = count;
        let many = c1.or(c2).or(c3);
        let dead = empty.minus(c0.or(many));
        let single = empty.and(c0).minus(many);
        if !dead.is_empty() || single.is_empty() {
            break if empty.is_empty() {
                Opening::Solved
            } else {
                Opening::Stalled
            };
        }
        let c = single.lowest();
        let [r, col, bx] = UNITS_OF[c].map(usize::from);
        // The one digit no unit of the cell holds.
        let m = ALL & !(held[r] | held[col] | held[bx]);
        let d = m.trailing_zeros() as u8 + 1;
        placed[n] = (c as u8, d);
        n += 1;
        t.grid.0[c] = d;
        held[r] |= m;
        held[col] |= m;
        held[bx] |= m;
        let i = usize::from(d - 1);
        let (peers, cell) = (S::new(PEER_SET[c]), S::new(ONE[c]));
        let lost = pos[i].and(peers);
        pos[i] = pos[i].minus(peers.or(cell));
        empty = empty.minus(cell);
        // Subtracts one from the counts of the cells of `lost`.
        let mut borrow = lost;
        for k in &mut count {
            let next = borrow.minus(*k);
            *k = k.xor(borrow);
            borrow = next;
        }
    };
    t.steps.extend(placed[..n].iter().map(|&(cell, digit)| {
        let mut s = Step::new(StepKind::Placement, Technique::NakedSingle);
        s.cell = cell;
        s.digit = digit;
        s
    }));
    end
}

/// A set of cells (bit `c` = cell `c`) and the few operations the opening needs.
trait CellSet: Copy {
    fn new(set: Cells) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// `self` without the cells of `other`.
    fn minus(self, other: Self) -> Self;
    fn is_empty(self) -> bool;
    /// The lowest cell; the set is not empty.
    fn lowest(self) -> usize;
}

impl CellSet for u128 {
    fn new(set: Cells) -> u128 {
        set
    }
    fn and(self, other: u128) -> u128 {
        self & other
    }
    fn or(self, other: u128) -> u128 {
        self | other
    }
    fn xor(self, other: u128) -> u128 {
        self ^ other
    }
    fn minus(self, other: u128) -> u128 {
        self & !other
    }
    fn is_empty(self) -> bool {
        self == 0
    }
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
}

/// Cell sets in SSE2 registers: an operation is one instruction, where a `u128` takes two
/// on its halves and runs out of registers in the opening's loop (eleven sets live).
///
/// SSE2 is part of the x86-64 baseline, so every CPU this code runs on has the
/// instructions these intrinsics stand for; none of them reads or writes memory.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::{CellSet, Cells};
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_cvtsi128_si64,
        _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_unpackhi_epi64,
        _mm_xor_si128,
    };

    #[derive(Clone, Copy)]
    pub(super) struct Set(__m128i);

    impl CellSet for Set {
        fn new(set: Cells) -> Set {
            // SAFETY: SSE2 is in the x86-64 baseline; no memory is touched.
            unsafe { Set(_mm_set_epi64x((set >> 64) as i64, set as i64)) }
        }
        fn and(self, other: Set) -> Set {
            // SAFETY: SSE2 is in the x86-64 baseline; no memory is touched.
            unsafe { Set(_mm_and_si128(self.0, other.0)) }
        }
        fn or(self, other: Set) -> Set {
            // SAFETY: SSE2 is in the x86-64 baseline; no memory is touched.
            unsafe { Set(_mm_or_si128(self.0, other.0)) }
        }
        fn xor(self, other: Set) -> Set {
            // SAFETY: SSE2 is in the x86-64 baseline; no memory is touched.
            unsafe { Set(_mm_xor_si128(self.0, other.0)) }
        }
        fn minus(self, other: Set) -> Set {
            // SAFETY: SSE2 is in the x86-64 baseline; no memory is touched.
            unsafe { Set(_mm_andnot_si128(other.0, self.0)) }
        }
        fn is_empty(self) -> bool {
            // SAFETY: SSE2 is in the x86-64 baseline; no memory is touched.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_setzero_si128())) == 0xFFFF }
        }
        fn lowest(self) -> usize {
            // SAFETY: SSE2 is in the x86-64 baseline; no memory is touched.
            let (lo, hi) = unsafe {
                (
                    _mm_cvtsi128_si64(self.0) as u64,
                    _mm_cvtsi128_si64(_mm_unpackhi_epi64(self.0, self.0)) as u64,
                )
            };
            // As a `u128`: the compiler picks the half without a branch (which half holds
            // the lowest is a coin toss near the middle rows).
            (Cells::from(hi) << 64 | Cells::from(lo)).trailing_zeros() as usize
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
    /// full board sees it; the portable cell sets agree with the SSE2 ones.
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
            // The portable cell sets give the same run as the target's.
            let mut portable = Trace {
                grid: puzzle,
                ..Trace::default()
            };
            assert_eq!(run::<u128>(&mut portable), end);
            assert_eq!(portable, t);
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
