//! The solver's search state: one `Copy` value of fixed arrays, kept on the stack.
//!
//! ```text
//!  cell index i = 9 * row + col (0-based)         candidate mask of a cell (u16)
//!   c0  c1  c2 | c3 ...               c8          bit:  15..9   8   7   6   5   4   3   2   1   0
//!  r0  0   1   2 |  3   4   5 |  6   7   8        digit:  --    9   8   7   6   5   4   3   2   1
//!  r1  9  10  11 | 12  13  14 | 15  16  17
//!  r2 18  19  20 | 21  22  23 | 24  25  26        a placed cell keeps exactly its digit's bit;
//!  ---------------+------------+-----------        `todo` (u128) has bit i set while cell i is
//!  r3 27 ...                        ... 35        not placed yet; boxes are numbered 0..9
//!  ...                                            left to right, top to bottom.
//!  r8 72 ...                        ... 80
//! ```
//!
//! Propagation alternates naked singles (a cell with one candidate) and hidden singles (a
//! digit with one place left in a unit) until neither applies. A contradiction is the
//! zero-sized [`Contradiction`], passed up with `?`.

use super::tables::{PEERS, UNIT_CELLS};

/// All nine digits as a candidate mask.
pub(crate) const ALL: u16 = 0x1FF;

/// The search reached a contradiction: a cell without candidates, or a digit with no place
/// left in a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// Candidate masks for every cell and the set of cells not yet placed.
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// Candidate mask per cell, bit `d - 1` for digit `d`.
    pub(crate) cand: [u16; 81],
    /// Bit `i` set while cell `i` is not placed.
    pub(crate) todo: u128,
}

impl State {
    /// A state with the givens of `puzzle` placed (`[u8; 81]`, 0 = empty), not yet propagated.
    pub(crate) fn from_givens(puzzle: &[u8; 81]) -> Result<State, Contradiction> {
        let mut s = State {
            cand: [ALL; 81],
            todo: (1u128 << 81) - 1,
        };
        for (i, &d) in puzzle.iter().enumerate() {
            if d != 0 {
                s.place(i, 1 << (d - 1))?;
            }
        }
        Ok(s)
    }

    /// Places the digit whose bit is `bit` in cell `i` and removes it from the peers.
    #[inline]
    pub(crate) fn place(&mut self, i: usize, bit: u16) -> Result<(), Contradiction> {
        if self.cand[i] & bit == 0 {
            return Err(Contradiction);
        }
        self.cand[i] = bit;
        self.todo &= !(1u128 << i);
        for &p in &PEERS[i] {
            let m = self.cand[p as usize];
            if m & bit != 0 {
                let left = m & !bit;
                if left == 0 {
                    return Err(Contradiction);
                }
                self.cand[p as usize] = left;
            }
        }
        Ok(())
    }

    /// Applies naked and hidden singles until neither changes anything.
    pub(crate) fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut changed = false;
            let mut t = self.todo;
            while t != 0 {
                let i = t.trailing_zeros() as usize;
                t &= t - 1;
                let m = self.cand[i];
                if m & (m - 1) == 0 {
                    self.place(i, m)?;
                    changed = true;
                }
            }
            if self.todo == 0 {
                return Ok(());
            }
            for unit in &UNIT_CELLS {
                changed |= self.hidden_singles(unit)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Places every digit that has exactly one possible cell in `unit`.
    #[inline]
    fn hidden_singles(&mut self, unit: &[u8; 9]) -> Result<bool, Contradiction> {
        let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
        for &c in unit {
            let m = self.cand[c as usize];
            if self.todo & (1u128 << c) != 0 {
                twice |= once & m;
                once |= m;
            } else {
                placed |= m;
            }
        }
        if once | placed != ALL {
            return Err(Contradiction);
        }
        let mut hidden = once & !twice;
        let changed = hidden != 0;
        while hidden != 0 {
            let bit = hidden & hidden.wrapping_neg();
            hidden &= hidden - 1;
            let cell = unit
                .iter()
                .map(|&c| c as usize)
                .find(|&c| self.todo & (1u128 << c) != 0 && self.cand[c] & bit != 0);
            match cell {
                Some(c) => self.place(c, bit)?,
                // An earlier placement in this loop took the digit's only cell.
                None => return Err(Contradiction),
            }
        }
        Ok(changed)
    }

    /// The unplaced cell with the fewest candidates (the most constrained), or `None` when solved.
    #[inline]
    pub(crate) fn most_constrained(&self) -> Option<usize> {
        let mut best = None;
        let mut best_n = u32::MAX;
        let mut t = self.todo;
        while t != 0 {
            let i = t.trailing_zeros() as usize;
            t &= t - 1;
            let n = self.cand[i].count_ones();
            if n < best_n {
                best = Some(i);
                best_n = n;
                if n <= 2 {
                    break;
                }
            }
        }
        best
    }

    /// The grid of placed digits, `[u8; 81]`, 0 = not placed.
    pub(crate) fn to_digits(self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (i, d) in g.iter_mut().enumerate() {
            if self.todo & (1u128 << i) == 0 {
                *d = self.cand[i].trailing_zeros() as u8 + 1;
            }
        }
        g
    }
}
