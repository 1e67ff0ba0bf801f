//! The solver's search state: per-digit candidate bitboards split into three bands.
//!
//! ```text
//!  cell i = 9 * row + col (0-based, row-major, as in Grid)
//!  band b = row / 3; band bit p = i - 27 * b = 9 * (row % 3) + col   (0..27)
//!
//!          c0 c1 c2   c3 c4 c5   c6 c7 c8
//!   r0  |  0  1  2 |  3  4  5 |  6  7  8 |   band 0, bits  0..9
//!   r1  |  9 10 11 | 12 13 14 | 15 16 17 |   band 0, bits  9..18
//!   r2  | 18 19 20 | 21 22 23 | 24 25 26 |   band 0, bits 18..27
//!       +----------+----------+----------+
//!   r3  | 27 28 29 | 30 ...              |   band 1, bits  0..9   (cell 27 = band 1, bit 0)
//!   r4  | 36 ...                         |   band 1, bits  9..18
//!   r5  | 45 ...                         |   band 1, bits 18..27
//!       +----------+----------+----------+
//!   r6  | 54 ...                         |   band 2, bits  0..9
//!   r7  | 63 ...                         |   band 2, bits  9..18
//!   r8  | 72 ...                      80 |   band 2, bits 18..27
//!
//!  cand[9*b + d] (u32): bit p set <=> digit d+1 may still stand in cell 27*b + p
//!
//!   bit  31..27 | 26 .. 24 23 .. 21 20 .. 18 | 17 ......... 9 | 8 .. 6 5 .. 3 2 .. 0
//!        zero   | row 3b+2: c8-6  c5-3  c2-0 | row 3b+1       | row 3b: c8-6 c5-3 c2-0
//!                 box 3b+2  3b+1  3b+0
//!
//!  A column of a band is `COLUMN0 << col` (bits col, col+9, col+18).
//!  unsolved[b]: bit p set while cell 27*b + p has no digit fixed yet.
//!  dirty: bit 9*b + d set while cand[9*b + d] has changed since `update` last left it
//!         ("look again"); inside the portable propagation, prev[9*b + d] holds what
//!         `update` last left and a difference means the same.
//! ```
//!
//! Propagation (JCZSolve-style; written here after reading public descriptions and the
//! `sudoku` crate's solver, no code copied). Boards marked dirty (differing from `prev`) are
//! run through `update` until none does, then naked singles, until neither changes anything:
//!
//! * `update(i)`, `i = 9 * b + d`: for digit `d` in band `b`, shrink each row to the three boxes it can
//!   use (9-bit pattern, [`SHRINK`]), keep only minirows that some row-to-box permutation
//!   uses ([`COMPLEX`]: box/line interactions and hidden singles in boxes), then every row
//!   left with one cell is a placement: clear the cell for the other digits. A box whose
//!   candidates for `d` lie in one column takes that column from the other two bands
//!   ([`POINTING`]; this is also what keeps a placed digit out of its column).
//! * Naked singles: count candidates per cell with three bitwise accumulators over the nine
//!   digits (`at least 1/2/3`), place every cell with exactly one. Placing (`assign`, also
//!   used for guesses) only clears the digit's row and box in its band; `update` then
//!   sees the one-cell row and does the rest.
//! * Stack logic (once a search has made a few guesses, when the above stall): the column
//!   analogue of `update`'s row-to-box logic, for all 27 boards at once ([`stack_filter_portable`]).
//!   In each stack a digit's three boxes must take its three columns one each; a column
//!   of a box that no such matching uses loses the digit. This covers claiming (a column
//!   whose candidates lie in one box) and hidden singles in columns, which the band
//!   logic, working along rows, does not see.
//! * Triad rules (in the searches that split on configurations, after the stack logic
//!   stalls too): naked and hidden triads in minirows and minicolumns (`triads.rs`).
//!
//! [`Logic`] says which of the last two run. At the final stall of a search with the
//! triad rules, the propagation chooses where to split on a digit's configurations in a
//! band or stack (`split.rs`, [`Branch::Split`]), and a cell only when no unit is left
//! or the tightest unit still has many configurations and the stall a bivalue cell.
//!
//! A contradiction is the zero-sized [`Contradiction`], passed up with `?`.
//!
//! The search runs one of three copies of [`State::propagate`] (the kernel, chosen once per
//! process, `Kernel`; [`State::propagate_k`]): the portable one; or a copy that holds the
//! boards in vector registers for the whole call, four 256-bit ones on a CPU with AVX2
//! (`avx2.rs`), two 512-bit ones with AVX-512F (`avx512.rs`), runs each round's updates on
//! the boards as the round found them and applies their deductions together: the same
//! rules reach the same fixpoint, so the same guesses follow (tested node by node).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod bits;
mod split;
mod triads;

pub(crate) use split::SplitAt;

use super::tables::{
    BAND, BAND_PEERS, CELL_FIELD, COLUMN_OF, COMPLEX, FIELDS5, MINI5, POINTING, SHRINK, SOLO,
    SPREAD5, SPREAD8,
};

/// The search reached a contradiction: a cell without candidates, or a digit with no place
/// left in a row or box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// Which logic propagation runs at a stall (no board changed, no naked single), beyond
/// the band logic and naked singles that always run. Each level adds to the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Logic {
    /// Band logic and naked singles only.
    Band,
    /// And the stack logic ([`stack_filter_portable`]).
    Stacks,
    /// And the triad rules (`triads.rs`): what the configuration split needs (without the
    /// stack logic it makes more guesses than the cell branch: forum_hardest 89.0 against
    /// 86.3 in uniqueness mode).
    Triads,
}

/// A cell to branch on: band and bit inside the band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub(crate) band: usize,
    pub(crate) bit: u32,
}

/// Where the search goes on once propagation stalls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Branch {
    /// A guess on `cell`, whose candidates are `digits` (bit `d` set when digit `d + 1`
    /// may stand there, as [`State::digits`] gives them, read while the propagation still
    /// holds the boards); `pairs`: the open cells with two candidates (bivalue cells) at
    /// the stall, 0..=81.
    Cell { cell: Cell, digits: u32, pairs: u32 },
    /// With [`Logic::Triads`], while a band or stack has a digit left with two or more
    /// configurations: a split on them ([`State::split_at`]), unless the stall has a
    /// bivalue cell and the tightest unit is still loose (`split.rs`, `LOOSE_UNIT`).
    Split(SplitAt),
}

/// Candidate bitboards for every digit and band, and the cells not yet fixed.
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// `cand[9 * b + d]`: the cells of band `b` where digit `d + 1` may stand (27 bits).
    cand: [u32; BOARDS],
    /// Bit `i` set when board `i` has changed since the band logic ([`State::update`]) last
    /// left it, so that the next propagation looks at it again (27 bits). A mask rather
    /// than a copy of the boards as last left: a guess copies the state, and half the bytes
    /// to copy (128) are a few vector moves where 236 were a `memcpy` call.
    dirty: u32,
    /// Cells of each band not yet fixed to a digit.
    unsolved: [u32; 3],
}

/// For a board index `i = 9 * b + d`: the indices of the same digit in the other two
/// bands, then `b` (one small load instead of a division by 9).
const OTHER: [[u8; 3]; 27] = {
    let mut t = [[0u8; 3]; 27];
    let mut i = 0;
    while i < 27 {
        let (b, d) = (i / 9, i % 9);
        t[i] = [
            (9 * ((b + 1) % 3) + d) as u8,
            (9 * ((b + 2) % 3) + d) as u8,
            b as u8,
        ];
        i += 1;
    }
    t
};

/// Boards in a [`State`]: 27 (nine digits by three bands) and one of padding, always 0,
/// so that [`State::changed`] compares four at a time.
const BOARDS: usize = 28;

/// Every digit possible in every cell; the padding board empty.
const INITIAL: [u32; BOARDS] = {
    let mut t = [BAND; BOARDS];
    t[27] = 0;
    t
};

impl State {
    /// [`State::from_givens_k`] with the active kernel (for the tests).
    #[cfg(test)]
    pub(crate) fn from_givens(puzzle: &[u8; 81]) -> Result<State, Contradiction> {
        use super::kernel::{self, Kernel};
        match kernel::active() {
            Kernel::Portable => State::from_givens_k::<{ kernel::PORTABLE }>(puzzle),
            Kernel::Avx2 => State::from_givens_k::<{ kernel::AVX2 }>(puzzle),
            Kernel::Avx512 => State::from_givens_k::<{ kernel::AVX512 }>(puzzle),
        }
    }

    /// A state with the givens of `puzzle` placed (`[u8; 81]`, 0 = empty), not yet
    /// propagated, from kernel `K` (a `Kernel`'s code: `kernel::PORTABLE`, `kernel::AVX2` or
    /// `kernel::AVX512`), which the caller has checked this CPU runs; the same state from
    /// each (tested).
    ///
    /// Each given clears its row, box and column for its digit; a given whose cell an
    /// earlier peer given already cleared is a clash ([`Contradiction`]), so this also finds
    /// every pair of equal givens in one unit. The givens' cells are cleared for the other
    /// digits once at the end, band by band. The AVX-512 and AVX2 kernels run copies that
    /// place all boards at once (`avx512/givens.rs`, `avx2/stack.rs`).
    ///
    /// # Panics
    /// In the portable kernel, on a cell above 9 (a [`crate::grid::Grid`] never holds one;
    /// the AVX-512 and AVX2 copies leave such a cell without candidates).
    #[inline(always)]
    pub(crate) fn from_givens_k<const K: u8>(puzzle: &[u8; 81]) -> Result<State, Contradiction> {
        #[cfg(target_arch = "x86_64")]
        {
            if K == super::kernel::AVX512 {
                // SAFETY: the caller checked that the CPU runs this kernel.
                return unsafe { State::from_givens_avx512(puzzle) };
            }
            if K == super::kernel::AVX2 {
                // SAFETY: as above.
                return unsafe { State::from_givens_avx2(puzzle) };
            }
        }
        State::from_givens_portable(puzzle)
    }

    /// [`State::from_givens_k`] of the portable kernel: given by given.
    #[inline(always)]
    fn from_givens_portable(puzzle: &[u8; 81]) -> Result<State, Contradiction> {
        let mut s = State {
            cand: INITIAL,
            dirty: 0,
            unsolved: [BAND; 3],
        };
        // `placed[9 * b + d]`: the givens of digit `d + 1` in band `b`.
        let mut placed = [0u32; 27];
        for (b, cells) in puzzle.chunks_exact(27).enumerate() {
            let filled = given_cells(cells);
            s.unsolved[b] = BAND & !filled;
            let mut m = filled;
            while m != 0 {
                let p = m.trailing_zeros() as usize;
                m &= m - 1;
                let i = 9 * b + usize::from(cells[p] - 1);
                let bit = 1u32 << p;
                if s.cand[i] & bit == 0 {
                    return Err(Contradiction);
                }
                s.cand[i] &= !BAND_PEERS[p];
                placed[i] |= bit;
                let column = !COLUMN_OF[p];
                let [o1, o2, _] = OTHER[i].map(usize::from);
                s.cand[o1] &= column;
                s.cand[o2] &= column;
            }
        }
        for ((cands, givens), &unsolved) in s
            .cand
            .chunks_exact_mut(9)
            .zip(placed.chunks_exact(9))
            .zip(&s.unsolved)
        {
            for (c, &g) in cands.iter_mut().zip(givens) {
                *c = (*c & unsolved) | g;
            }
        }
        // The boards that are not 0 (a board that is 0 stays out of the band logic, which
        // would report it as a contradiction).
        s.dirty = s.changed(&[0; BOARDS]);
        Ok(s)
    }

    /// Fixes digit `d + 1` in `cell` by clearing the rest of the cell's row and box in the
    /// digit's board. [`State::update`] then sees a one-cell row and does the rest (the
    /// cell's other digits, its column in the other bands).
    #[inline]
    pub(crate) fn assign(&mut self, d: usize, cell: Cell) -> Result<(), Contradiction> {
        let i = 9 * cell.band + d;
        let board = place(self.cand[i], cell.bit)?;
        self.set_board(i, board);
        Ok(())
    }

    /// Sets board `i` to `board`, marking it dirty when that changes it.
    #[inline(always)]
    fn set_board(&mut self, i: usize, board: u32) {
        self.dirty |= u32::from(self.cand[i] != board) << i;
        self.cand[i] = board;
    }

    /// Band logic for board `i = 9 * b + d`: digit `d + 1` in band `b` (see the module doc).
    #[inline(always)]
    fn update(&mut self, prev: &mut [u32; BOARDS], i: usize) -> Result<(), Contradiction> {
        let a = self.cand[i];
        let a = a & COMPLEX[band_pattern(a) & 0x1FF];
        if a == 0 {
            return Err(Contradiction);
        }
        let keep = POINTING[column_mask(a) as usize];
        let [o1, o2, b] = OTHER[i].map(usize::from);
        self.cand[o1] &= keep;
        self.cand[o2] &= keep;
        let solved = u32::from(SOLO[(a & 0x1FF) as usize])
            | u32::from(SOLO[((a >> 9) & 0x1FF) as usize]) << 9
            | u32::from(SOLO[(a >> 18) as usize & 0x1FF]) << 18;
        let new = solved & self.unsolved[b];
        // Unconditional (a no-op when `new` is 0): the branch mispredicted 40% of the time.
        self.unsolved[b] &= !new;
        // The band's nine boards lie side by side: two vector and-nots and one scalar.
        for c in &mut self.cand[9 * b..9 * b + 9] {
            *c &= !new;
        }
        // `a` is a fixpoint of this function: no need to look at board `i` again.
        self.cand[i] = a;
        prev[i] = a;
        Ok(())
    }

    /// The boards that differ from `prev`: bit `i` for board `i` (27 bits).
    #[inline(always)]
    fn changed(&self, prev: &[u32; BOARDS]) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            changed_sse2(&self.cand, prev)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            changed_scalar(&self.cand, prev)
        }
    }

    /// Runs [`State::update`] on changed boards until none is left: first on the dirty
    /// ones (clearing the marks), then on those that differ from `prev`, found as a mask
    /// built without a branch per board.
    #[inline(always)]
    fn settle(&mut self, prev: &mut [u32; BOARDS]) -> Result<(), Contradiction> {
        let mut m = std::mem::take(&mut self.dirty);
        loop {
            if m == 0 {
                m = self.changed(prev);
                if m == 0 {
                    return Ok(());
                }
            }
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                self.update(prev, i)?;
            }
        }
    }

    /// Propagates to a fixpoint (with the stack logic too when `stacks`; the search passes
    /// it once a puzzle has made a few guesses; with the triad rules and the split too for
    /// [`Logic::Triads`]). Returns `None` when the grid is solved, else
    /// a cell to branch on: a two-candidate cell when there is one
    /// ([`State::busiest_pair`] when there are at most `max_pairs`, else
    /// [`first_pair`]; the search passes [`BUSIEST_MAX_PAIRS`] until a puzzle has made a few
    /// guesses, then `u32::MAX`), else see [`State::fewest`].
    ///
    /// Changed boards are found as a mask built four boards at a time ([`State::changed`])
    /// and walked bit by bit. (Rejected: one branch per board in a fixed order after a
    /// guess. It was faster on an AMD EPYC, but on an Intel Xeon its 27 branches per pass
    /// mispredicted twice as often and the hard sets ran slower.)
    ///
    /// This is the portable kernel; the others give the same result ([`State::propagate_k`]).
    pub(crate) fn propagate(
        &mut self,
        max_pairs: u32,
        logic: Logic,
    ) -> Result<Option<Branch>, Contradiction> {
        self.propagate_logic(max_pairs, logic)
    }

    /// [`State::propagate`]'s body, inlined into each kernel compiled from it: two copies,
    /// so that the triad rules and the split's choice stay out of the one the search runs
    /// most (as in the AVX-512 kernel).
    #[inline(always)]
    fn propagate_logic(
        &mut self,
        max_pairs: u32,
        logic: Logic,
    ) -> Result<Option<Branch>, Contradiction> {
        if logic == Logic::Triads {
            self.propagate_body::<true>(max_pairs, true)
        } else {
            self.propagate_body::<false>(max_pairs, logic == Logic::Stacks)
        }
    }

    /// [`State::propagate_logic`] with the triad rules and the split (`TRIADS`) or without,
    /// with the stack logic when `stacks`.
    #[inline(always)]
    fn propagate_body<const TRIADS: bool>(
        &mut self,
        max_pairs: u32,
        stacks: bool,
    ) -> Result<Option<Branch>, Contradiction> {
        // The boards as `update` last left them, once the dirty ones have been updated:
        // those the search changed at first, then those the naked singles placed. The
        // propagation leaves none dirty.
        let mut prev = self.cand;
        loop {
            self.settle(&mut prev)?;
            if self.unsolved == [0; 3] {
                return Ok(None);
            }
            let mut placed = false;
            let mut pairs = [0u32; 3];
            for (b, pair) in pairs.iter_mut().enumerate() {
                let [r1, r2, r3] = candidate_counts(&self.cand[9 * b..9 * b + 9]);
                if r1 != BAND {
                    return Err(Contradiction);
                }
                let singles = r1 & !r2 & self.unsolved[b];
                if singles != 0 {
                    placed = true;
                    for d in 0..9 {
                        let mut hits = self.cand[9 * b + d] & singles;
                        while hits != 0 {
                            let bit = hits.trailing_zeros();
                            hits &= hits - 1;
                            self.assign(d, Cell { band: b, bit })?;
                        }
                    }
                } else {
                    *pair = r2 & !r3;
                }
            }
            if !placed {
                if stacks {
                    stack_filter_portable(&mut self.cand);
                    if self.changed(&prev) != 0 {
                        continue;
                    }
                }
                if TRIADS {
                    triads::triads(&mut self.cand);
                    if self.changed(&prev) != 0 {
                        continue;
                    }
                }
                let choose = |bivalue| {
                    if TRIADS {
                        self.choose_split(bivalue)
                    } else {
                        None
                    }
                };
                return Ok(Some(self.stall_branch(pairs, max_pairs, choose)));
            }
        }
    }

    /// [`State::propagate`] from kernel `K` (a `Kernel`'s code), which the caller has
    /// checked this CPU runs: the same result and state from each (tested node by node).
    #[inline(always)]
    pub(crate) fn propagate_k<const K: u8>(
        &mut self,
        max_pairs: u32,
        logic: Logic,
    ) -> Result<Option<Branch>, Contradiction> {
        #[cfg(target_arch = "x86_64")]
        {
            if K == super::kernel::AVX512 {
                // SAFETY: the caller checked that the CPU runs this kernel.
                return unsafe { self.propagate_avx512(max_pairs, logic) };
            }
            if K == super::kernel::AVX2 {
                // SAFETY: as above.
                return unsafe { self.propagate_avx2(max_pairs, logic) };
            }
        }
        self.propagate(max_pairs, logic)
    }

    /// The branch at a stall whose boards are in `self` (the portable and AVX2 kernels):
    /// the split `choose` picks given the bivalue count, else a guess on
    /// [`State::branch_cell`]'s cell.
    #[inline(always)]
    fn stall_branch(
        &self,
        pairs: [u32; 3],
        max_pairs: u32,
        choose: impl FnOnce(u32) -> Option<SplitAt>,
    ) -> Branch {
        let bivalue = pairs.iter().map(|p| p.count_ones()).sum();
        if let Some(at) = choose(bivalue) {
            return Branch::Split(at);
        }
        let cell = self.branch_cell(pairs, max_pairs);
        Branch::Cell {
            cell,
            digits: self.digits(cell),
            pairs: bivalue,
        }
    }

    /// The cell to branch on once propagation stalls, `pairs[b]` being band `b`'s
    /// two-candidate cells (see [`State::propagate`]).
    #[inline(always)]
    fn branch_cell(&self, pairs: [u32; 3], max_pairs: u32) -> Cell {
        let total = pairs[0].count_ones() + pairs[1].count_ones() + pairs[2].count_ones();
        let pair = if total > max_pairs {
            first_pair(pairs)
        } else {
            self.busiest_pair(pairs)
        };
        pair.unwrap_or_else(|| self.fewest())
    }

    /// Of the two-candidate cells (`pairs[b]`: those of band `b`), the one with the most
    /// unfixed peers: its row and box (in its band) and its column (in the other two
    /// bands); the first in cell order among equals. A guess there settles the most
    /// constrained cell and reaches the most others, so the propagation after it goes
    /// furthest. (Inlined into each kernel, compiled with its instructions.)
    ///
    /// Every cell's score is counted at once, row by row, as nine five-bit fields of a
    /// `u64` (field `c`: column `c`; [`SPREAD5`], [`MINI5`]): the row's unfixed cells, plus
    /// its box's, less its minirow's (counted twice), plus its column's in the other two
    /// bands, at most 21. Each pair is then one shift and mask, where counting its peers
    /// took several times the instructions.
    #[inline(always)]
    fn busiest_pair(&self, pairs: [u32; 3]) -> Option<Cell> {
        // `rows[b][r]`: the score of every cell of row `r` of band `b` (the fourth is
        // padding); `columns[b]` and `boxes[b]`: the band's unfixed cells per column and
        // per box, in fields.
        let mut rows = [[0u64; 4]; 3];
        let mut columns = [0u64; 3];
        let mut boxes = [0u64; 3];
        for (b, band_rows) in rows.iter_mut().enumerate() {
            let u = self.unsolved[b];
            for (r, score) in band_rows[..3].iter_mut().enumerate() {
                let row = ((u >> (9 * r)) & 0x1FF) as usize;
                let mini = MINI5[row];
                columns[b] += SPREAD5[row];
                boxes[b] += mini;
                // Never negative: a row has at least as many unfixed cells as a minirow.
                *score = u64::from(row.count_ones()) * FIELDS5 - mini;
            }
        }
        let all = columns[0] + columns[1] + columns[2];
        for b in 0..3 {
            let add = boxes[b] + all - columns[b];
            for row in &mut rows[b][..3] {
                *row += add;
            }
        }
        // The best cell as one key, `score << 8 | (255 - 32 * band - bit)`, so that `max`
        // (a conditional move, not a branch) keeps the first cell of the highest score.
        let mut best = 0u32;
        for (b, (&band_pairs, band_rows)) in pairs.iter().zip(&rows).enumerate() {
            let mut m = band_pairs;
            while m != 0 {
                let p = m.trailing_zeros();
                m &= m - 1;
                let field = CELL_FIELD[p as usize & 31];
                let score = (band_rows[usize::from(field >> 6)] >> (field & 63)) as u32 & 31;
                best = best.max(score << 8 | (255 - (32 * b as u32 + p)));
            }
        }
        if best >> 8 == 0 {
            return None;
        }
        let at = 255 - (best & 0xFF);
        Some(Cell {
            band: (at >> 5) as usize,
            bit: at & 31,
        })
    }

    /// When no cell has two candidates: of the first unfixed cell of each band, the one
    /// with the fewest candidates. (Taking the global minimum instead made more guesses on
    /// forum-hardest puzzles, where this case arises at the root.)
    #[cold]
    fn fewest(&self) -> Cell {
        let mut best = Cell { band: 0, bit: 0 };
        let mut best_n = u32::MAX;
        for b in 0..3 {
            let mut t = self.unsolved[b] & self.unsolved[b].wrapping_neg();
            while t != 0 {
                let bit = t.trailing_zeros();
                t &= t - 1;
                let n = self.digits(Cell { band: b, bit }).count_ones();
                if n < best_n {
                    best_n = n;
                    best = Cell { band: b, bit };
                }
            }
        }
        best
    }

    /// The cells not yet fixed to a digit (0..=81).
    pub(crate) fn open_cells(&self) -> u32 {
        self.unsolved.iter().map(|u| u.count_ones()).sum()
    }

    /// The candidates of `cell`: bit `d` set when digit `d + 1` may stand there.
    #[inline]
    pub(crate) fn digits(&self, cell: Cell) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((self.cand[9 * cell.band + d] >> cell.bit) & 1) << d;
        }
        m
    }

    /// The grid of fixed digits, `[u8; 81]`, row-major; only meaningful once solved (each
    /// cell then has one candidate).
    ///
    /// Band by band: the digit's four bits as four bit planes over the band's 27 cells (plane
    /// `k`: the cells whose digit has bit `k` set), then eight cells at a time, each plane's
    /// byte spread to one bit of eight bytes ([`SPREAD8`]). A fraction of the
    /// instructions that walking the 81 placed bits one by one takes.
    pub(crate) fn solved_digits(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (b, out) in g.chunks_exact_mut(27).enumerate() {
            let mut planes = [0u32; 4];
            for (d, &board) in self.cand[9 * b..9 * b + 9].iter().enumerate() {
                for (k, plane) in planes.iter_mut().enumerate() {
                    // Branch-free: all ones when digit `d + 1` has bit `k`.
                    *plane |= board & 0u32.wrapping_sub((d as u32 + 1) >> k & 1);
                }
            }
            let mut bytes = [0u8; 32];
            for (j, chunk) in bytes.chunks_exact_mut(8).enumerate() {
                let mut word = 0u64;
                for (k, &plane) in planes.iter().enumerate() {
                    word |= SPREAD8[(plane >> (8 * j) & 0xFF) as usize] << k;
                }
                chunk.copy_from_slice(&word.to_le_bytes());
            }
            out.copy_from_slice(&bytes[..27]);
        }
        g
    }
}

/// Minirow pattern of a band board: bit `3r + k` set when row `r` can hold the digit in
/// box `k` (0..512).
#[inline(always)]
fn band_pattern(a: u32) -> usize {
    usize::from(SHRINK[(a & 0x1FF) as usize])
        | usize::from(SHRINK[((a >> 9) & 0x1FF) as usize]) << 3
        | usize::from(SHRINK[(a >> 18) as usize & 0x1FF]) << 6
}

/// Columns of a band board holding a candidate (nine bits).
#[inline(always)]
fn column_mask(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 0x1FF
}

/// A digit's band board with the digit fixed in band bit `bit`: the rest of the cell's row
/// and box cleared ([`State::assign`]); a [`Contradiction`] when the board no longer has
/// the cell.
#[inline(always)]
fn place(board: u32, bit: u32) -> Result<u32, Contradiction> {
    let cell = 1u32 << bit;
    if board & cell == 0 {
        return Err(Contradiction);
    }
    Ok(board & (!BAND_PEERS[bit as usize] | cell))
}

/// The cells of a band by how many candidates they have, from its nine boards: `[at least
/// one, at least two, at least three]`, each a 27-bit mask (three bitwise accumulators
/// over the digits, as naked singles and two-candidate cells need them).
#[inline(always)]
fn candidate_counts(boards: &[u32]) -> [u32; 3] {
    let (mut r1, mut r2, mut r3) = (0u32, 0u32, 0u32);
    for &x in boards {
        r3 |= r2 & x;
        r2 |= r1 & x;
        r1 |= x;
    }
    [r1, r2, r3]
}

/// The cells of a band (`cells`: its 27 bytes, `0..=9`, 0 = empty) that hold a given, as a
/// 27-bit mask: eight cells at a time, without a branch per cell. Adding `0x7F` to a byte
/// sets its top bit exactly when it is not 0 (the byte is at most 9, so nothing carries into
/// the next), and one multiplication gathers the eight top bits into the top byte.
#[inline(always)]
fn given_cells(cells: &[u8]) -> u32 {
    let mut filled = 0u32;
    for (k, chunk) in cells.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        let tops = (u64::from_le_bytes(bytes) + 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080;
        filled |= ((tops.wrapping_mul(0x0002_0408_1020_4081) >> 56) as u32) << (8 * k);
    }
    filled
}

/// Rotates each stack's three column bits of a nine-bit column mask by one: bit `c` of
/// the result is bit `c + 1` (mod 3, inside the stack) of `y`.
#[inline(always)]
fn rot1(y: u32) -> u32 {
    ((y >> 1) & 0b011_011_011) | ((y << 2) & 0b100_100_100)
}

/// As [`rot1`], by two: bit `c` of the result is bit `c + 2` (mod 3, inside the stack).
#[inline(always)]
fn rot2(y: u32) -> u32 {
    ((y << 1) & 0b110_110_110) | ((y >> 2) & 0b001_001_001)
}

/// Stack logic for every board at once (the module doc): in each stack, a digit's three
/// boxes must take its three columns one each, so a box's column keeps the digit only when
/// the other two boxes can take the stack's other two columns between them, one each.
///
/// Per board `i` (digit `d`, band `b`), with `occ` its nine-bit mask of columns holding a
/// candidate and `a`, `c` those of the same digit in bands `b + 1` and `b + 2`: column `k`
/// stays when `occ[k]` and either `a[k + 1] & c[k + 2]` or `a[k + 2] & c[k + 1]`, the
/// column offsets taken mod 3 inside the stack ([`rot1`], [`rot2`]). Written as plain loops
/// over 32 lanes so that they compile to vector code (inlined into the AVX2 kernel, which
/// runs them with its features: about 190 instructions a call, against about 450 for the
/// baseline build). A box left without a column, or a row without a box, is found by the
/// next [`State::update`].
#[inline(always)]
fn stack_filter_portable(cand: &mut [u32; BOARDS]) {
    let mut x = [0u32; 32];
    x[..BOARDS].copy_from_slice(cand);
    // `occ[i]`: the columns where board `i` has a candidate, then the 27 again, so that
    // the same digit's boards in the other two bands are at `i + 9` and `i + 18`.
    let mut occ = [0u32; 64];
    for (o, &v) in occ.iter_mut().zip(&x) {
        *o = (v | v >> 9 | v >> 18) & 0x1FF;
    }
    occ.copy_within(0..27, 27);
    for (i, v) in x.iter_mut().enumerate() {
        let (o, a, c) = (occ[i], occ[i + 9], occ[i + 18]);
        let keep = o & ((rot1(a) & rot2(c)) | (rot2(a) & rot1(c)));
        *v &= keep | keep << 9 | keep << 18;
    }
    cand.copy_from_slice(&x[..BOARDS]);
}

/// [`State::changed`], one board at a time: bit `i` set when `cand[i] != prev[i]`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
fn changed_scalar(cand: &[u32; BOARDS], prev: &[u32; BOARDS]) -> u32 {
    let mut m = 0u32;
    for (i, (c, p)) in cand.iter().zip(prev).enumerate() {
        m |= u32::from(c != p) << i;
    }
    m
}

/// [`State::changed`] four boards at a time (SSE2, part of every x86-64 CPU): compare,
/// narrow the 28 lane results to bytes, and take their sign bits. The 28th board is
/// padding, equal on both sides.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn changed_sse2(cand: &[u32; BOARDS], prev: &[u32; BOARDS]) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32,
    };
    // SAFETY: these intrinsics need SSE2, which this function is only compiled with (the
    // `cfg` above). Each load reads the 16 bytes of `a[k..k + 4]`, and `k <= 24` below,
    // so it stays inside the array (`_mm_loadu_si128` needs no alignment).
    let (low, high) = unsafe {
        let load = |a: &[u32; BOARDS], k: usize| _mm_loadu_si128(a[k..k + 4].as_ptr().cast());
        let eq = |k: usize| _mm_cmpeq_epi32(load(cand, k), load(prev, k));
        let (e0, e1) = (
            _mm_packs_epi32(eq(0), eq(4)),
            _mm_packs_epi32(eq(8), eq(12)),
        );
        let (e2, e3) = (
            _mm_packs_epi32(eq(16), eq(20)),
            _mm_packs_epi32(eq(24), eq(24)),
        );
        (
            _mm_movemask_epi8(_mm_packs_epi16(e0, e1)) as u32,
            _mm_movemask_epi8(_mm_packs_epi16(e2, e3)) as u32,
        )
    };
    !(low | (high & 0xFFF) << 16) & ((1 << 27) - 1)
}

/// Up to this many two-candidate cells in the grid, [`State::propagate`] branches on the
/// busiest ([`State::busiest_pair`]); above it, on [`first_pair`]. With many pairs the
/// cheap choice does about as well, and scoring every pair made serg_benchmark slower the
/// higher the limit; 8 is where it stopped costing time, and still measures best since
/// scoring became cheaper (`docs/notes/solver-history.md`). The search passes it as `max_pairs` only until a
/// puzzle has made a few guesses (`HARD_AFTER_GUESSES` in `solver/mod.rs`); after that
/// every pair is scored.
pub(crate) const BUSIEST_MAX_PAIRS: u32 = 8;

/// The first two-candidate cell of the band with the most of them (`pairs[b]`: band `b`'s).
#[inline]
fn first_pair(pairs: [u32; 3]) -> Option<Cell> {
    let mut best = None;
    let mut best_n = 0;
    for (b, &two) in pairs.iter().enumerate() {
        let n = two.count_ones();
        if n > best_n {
            best_n = n;
            best = Some(Cell {
                band: b,
                bit: two.trailing_zeros(),
            });
        }
    }
    best
}

#[cfg(test)]
pub(crate) mod tests;
