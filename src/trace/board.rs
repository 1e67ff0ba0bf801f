//! The candidates board the logic techniques read and change: 81 cells (row-major, 0 =
//! empty) and, for each empty cell, its candidates as a 9-bit mask (bit `d - 1` = digit
//! `d`). Cells are `u8` indices 0..81; sets of cells are [`Cells`] bitsets.

use super::quiet::Quiet;
use crate::grid::{Grid, CELLS, UNITS};

/// All nine digits as a candidate mask.
pub const ALL: u16 = 0x1FF;

/// A set of cells: bit `i` = cell `i` (0..81, row-major).
pub type Cells = u128;

/// Unit `u`'s cells as `u8` indices (rows 0-8, columns 9-17, boxes 18-26, as
/// [`crate::grid::UNITS`]).
pub const UNIT_CELLS: [[u8; 9]; 27] = {
    let mut out = [[0u8; 9]; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            out[u][k] = UNITS[u][k] as u8;
            k += 1;
        }
        u += 1;
    }
    out
};

/// Unit `u`'s cells as a set.
pub const UNIT_SET: [Cells; 27] = {
    let mut out = [0 as Cells; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            out[u] |= 1 << UNITS[u][k];
            k += 1;
        }
        u += 1;
    }
    out
};

/// The 20 peers of each cell (the other cells of its row, column and box) as a set.
pub const PEER_SET: [Cells; CELLS] = {
    let mut out = [0 as Cells; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (r, col) = (c / 9, c % 9);
        let b = r / 3 * 3 + col / 3;
        out[c] = (UNIT_SET[r] | UNIT_SET[9 + col] | UNIT_SET[18 + b]) & !(1 << c);
        c += 1;
    }
    out
};

/// Each cell's units: its row (0-8), column (9-17) and box (18-26), as [`UNITS`].
pub(in crate::trace) const UNITS_OF: [[u8; 3]; CELLS] = {
    let mut out = [[0u8; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        out[c] = [(c / 9) as u8, (9 + c % 9) as u8, (18 + box_of(c)) as u8];
        c += 1;
    }
    out
};

/// Each cell's three units as a unit set (bit `u` = unit `u`).
const UNIT_BITS_OF: [u32; CELLS] = {
    let mut out = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut k = 0;
        while k < 3 {
            out[c] |= 1 << UNITS_OF[c][k];
            k += 1;
        }
        c += 1;
    }
    out
};

/// Each cell alone as a set (a table: a variable shift of a `u128` is a dozen instructions).
pub(in crate::trace) const ONE: [Cells; CELLS] = {
    let mut out = [0 as Cells; CELLS];
    let mut c = 0;
    while c < CELLS {
        out[c] = 1 << c;
        c += 1;
    }
    out
};

/// The box (0..9) of cell `c`.
pub const fn box_of(c: usize) -> usize {
    c / 27 * 3 + c % 9 / 3
}

/// The cells of `set`, lowest first.
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// Calls `f` on each cell of `set`, lowest first, a 64-bit half at a time: where a loop
/// over many cells is hot (every given of every puzzle), the `u128` iterator's count and
/// clear take a dozen instructions a cell, a half's three.
pub(in crate::trace) fn each_cell(set: Cells, mut f: impl FnMut(usize)) {
    for (base, mut half) in [(0, set as u64), (64, (set >> 64) as u64)] {
        while half != 0 {
            f(base + half.trailing_zeros() as usize);
            half &= half - 1;
        }
    }
}

/// The cells of `grid` that hold a digit, eight cells a step: a test per cell is a branch
/// the predictor misses about every other cell of a puzzle.
pub(in crate::trace) fn filled_cells(grid: &Grid) -> Cells {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let chunks = grid.0.chunks_exact(8);
    // The last cell (81 = 10 × 8 + 1).
    let mut out = Cells::from(grid.0[CELLS - 1] != 0) << (CELLS - 1);
    for (i, chunk) in chunks.enumerate() {
        let w = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        // Bit 7 of each byte: set when the byte is not zero.
        let high = (w | (w & LOW7).wrapping_add(LOW7)) & !LOW7;
        // Gathers those eight bits into the top byte, byte k's at bit 56 + k.
        let bits = (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        out |= Cells::from(bits) << (8 * i);
    }
    out
}

/// The set bits of `mask`, lowest first (units of a unit mask, 0..27).
pub(in crate::trace) fn bits_of(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// The digits (1..=9) of candidate mask `mask`, lowest first.
pub fn digits_of(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            d
        })
    })
}

/// The candidate bit of digit `d` (1..=9).
pub const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The number of candidates in a 9-bit mask (a table: the baseline x86-64 target has no
/// popcount instruction, and the techniques count masks in their inner loops).
pub const COUNT: [u8; 512] = {
    let mut out = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        out[m] = (m as u16).count_ones() as u8;
        m += 1;
    }
    out
};

/// The unit kinds of [`Board`]'s position boards: rows, columns, boxes.
const KINDS: usize = 3;

/// For each unit kind and cell: the cell's bit in that kind's position boards, `9 * i + k`
/// for the `k`-th cell of unit `i` of the kind ([`UNIT_CELLS`] order).
const LAYOUT_BIT: [[u8; CELLS]; KINDS] = {
    let mut out = [[0u8; CELLS]; KINDS];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            out[u / 9][UNITS[u][k]] = ((u % 9) * 9 + k) as u8;
            k += 1;
        }
        u += 1;
    }
    out
};

/// For each unit kind and cell: the cell's bit of that kind's position boards, as a set.
const LAYOUT_ONE: [[Cells; CELLS]; KINDS] = {
    let mut out = [[0 as Cells; CELLS]; KINDS];
    let mut kind = 0;
    while kind < KINDS {
        let mut c = 0;
        while c < CELLS {
            out[kind][c] = 1 << LAYOUT_BIT[kind][c];
            c += 1;
        }
        kind += 1;
    }
    out
};

/// For each unit kind and cell: the cell and its peers as bits of that kind's position
/// boards (what a placement clears of its digit's board).
const LAYOUT_SEEN: [[Cells; CELLS]; KINDS] = {
    let mut out = [[0 as Cells; CELLS]; KINDS];
    let mut kind = 0;
    while kind < KINDS {
        let mut c = 0;
        while c < CELLS {
            let seen = PEER_SET[c] | 1 << c;
            let mut p = 0;
            while p < CELLS {
                if seen >> p & 1 != 0 {
                    out[kind][c] |= 1 << LAYOUT_BIT[kind][p];
                }
                p += 1;
            }
            c += 1;
        }
        kind += 1;
    }
    out
};

/// A grid in solving: placed digits and the candidates of the empty cells, kept twice: per
/// cell (a digit mask) and per digit (where it can go), so that a technique reads whichever
/// its rule is stated in. Change it through [`Board::place`] and [`Board::remove`], which
/// keep the two views equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Cells, row-major, 0 = empty, 1..=9 = placed (given or solved).
    pub(in crate::trace) cells: [u8; CELLS],
    /// Candidates of each empty cell (bit `d - 1` = digit `d`); 0 for a filled cell.
    pub(in crate::trace) cand: [u16; CELLS],
    /// The empty cells.
    pub(in crate::trace) empty: Cells,
    /// Per unit kind (rows, columns, boxes) and digit `d - 1`: the cells where `d` is a
    /// candidate, bit `9 * i + k` = the `k`-th cell of unit `i` of the kind, so a unit's
    /// positions of a digit are nine adjacent bits. The rows' boards are plain [`Cells`].
    pos: [[Cells; 9]; KINDS],
    /// The empty cells with exactly one candidate (naked singles), kept as the masks change.
    one: Cells,
    /// The empty cells with no candidate left (contradictions), kept likewise.
    none: Cells,
    /// Where the techniques found nothing since the candidates there last changed.
    pub(in crate::trace) quiet: Quiet,
}

impl Board {
    /// The board of `grid`'s givens, every empty cell with the digits no peer holds; `None`
    /// when two givens share a unit and a digit.
    pub fn new(grid: &Grid) -> Option<Board> {
        let all: Cells = (1 << CELLS) - 1;
        // Per digit, per kind: the givens' cells and peers; per kind: the givens' cells.
        let mut seen = [[0 as Cells; 9]; KINDS];
        let mut filled = [0 as Cells; KINDS];
        let mut cells = [0u8; CELLS];
        // The digits held by each unit (rows, columns, boxes, as `UNITS`).
        let mut held = [0u16; 27];
        let units = |c: usize| UNITS_OF[c].map(usize::from);
        let filled_set = filled_cells(grid);
        for c in cells_of(filled_set) {
            let d = grid.0[c];
            let i = usize::from(d - 1);
            let [r, col, bx] = units(c);
            if (held[r] | held[col] | held[bx]) & bit(d) != 0 {
                return None;
            }
            for u in [r, col, bx] {
                held[u] |= bit(d);
            }
            for (kind, (seen, filled)) in seen.iter_mut().zip(&mut filled).enumerate() {
                seen[i] |= LAYOUT_SEEN[kind][c];
                *filled |= LAYOUT_ONE[kind][c];
            }
            cells[c] = d;
        }
        let pos: [[Cells; 9]; KINDS] = std::array::from_fn(|kind| {
            std::array::from_fn(|i| all & !filled[kind] & !seen[kind][i])
        });
        let mut cand = [0u16; CELLS];
        for c in cells_of(all & !filled_set) {
            let [r, col, bx] = units(c);
            cand[c] = ALL & !(held[r] | held[col] | held[bx]);
        }
        let mut b = Board {
            cells,
            cand,
            empty: all & !filled[0],
            pos,
            one: 0,
            none: 0,
            quiet: Quiet::default(),
        };
        [b.none, b.one, ..] = b.by_count();
        Some(b)
    }

    /// Puts `d` in empty cell `c` and removes it from the candidates of `c`'s peers.
    pub fn place(&mut self, c: usize, d: u8) {
        let others = self.cand[c] & !bit(d);
        let i = usize::from(d - 1);
        let mut units = UNIT_BITS_OF[c];
        for p in cells_of(self.pos[0][i] & PEER_SET[c]) {
            self.cand[p] &= !bit(d);
            self.recount(p);
            units |= UNIT_BITS_OF[p];
        }
        self.quiet.touch(units, others | bit(d));
        for (pos, seen) in self.pos.iter_mut().zip(&LAYOUT_SEEN) {
            pos[i] &= !seen[c];
        }
        self.clear_digits(c, others);
        self.cells[c] = d;
        self.cand[c] = 0;
        self.empty &= !ONE[c];
        self.one &= !ONE[c];
        self.none &= !ONE[c];
    }

    /// Removes the candidates `mask` (bit `d - 1` = digit `d`) from cell `c`.
    pub fn remove(&mut self, c: usize, mask: u16) {
        let gone = mask & self.cand[c];
        if gone == 0 {
            return;
        }
        self.quiet.touch(UNIT_BITS_OF[c], gone);
        self.clear_digits(c, gone);
        self.cand[c] &= !mask;
        // Only an empty cell has candidates to lose.
        self.recount(c);
    }

    /// Files empty cell `c` under [`Board::naked_singles`] or [`Board::dead`] after its
    /// mask lost candidates (a count only goes down, so it leaves neither set once in it,
    /// except from `one` to `none`). One bit set is tested without a popcount.
    fn recount(&mut self, c: usize) {
        let m = self.cand[c];
        // Without a branch: whether a peer's count drops to one is a coin toss.
        let to_set = |yes: bool| Cells::from(yes) << c;
        let (single, none) = (
            to_set((m != 0) & (m & m.wrapping_sub(1) == 0)),
            to_set(m == 0),
        );
        self.one = (self.one | single) & !none;
        self.none |= none;
    }

    /// The empty cells with exactly one candidate.
    pub fn naked_singles(&self) -> Cells {
        self.one
    }

    /// The empty cells with no candidate: the board cannot be completed.
    pub fn dead(&self) -> Cells {
        self.none
    }

    /// Clears cell `c`'s bit in the position boards of the digits of `mask`.
    fn clear_digits(&mut self, c: usize, mask: u16) {
        for d in digits_of(mask) {
            for (pos, one) in self.pos.iter_mut().zip(&LAYOUT_ONE) {
                pos[usize::from(d - 1)] &= !one[c];
            }
        }
    }

    /// Cell `c`'s digit, 0 when empty.
    pub fn cell(&self, c: usize) -> u8 {
        self.cells[c]
    }

    /// Cell `c`'s candidates (bit `d - 1` = digit `d`); 0 for a filled cell.
    pub fn candidates(&self, c: usize) -> u16 {
        self.cand[c]
    }

    /// The empty cells.
    pub fn empty(&self) -> Cells {
        self.empty
    }

    /// The positions (bit `k` = the unit's `k`-th cell) of candidate `d` in unit `u`.
    pub fn positions(&self, u: usize, d: u8) -> u16 {
        (self.pos[u / 9][usize::from(d - 1)] >> (9 * (u % 9))) as u16 & ALL
    }

    /// The positions of candidate `d` in each unit of kind `kind` (0 rows, 1 columns, 2
    /// boxes): entry `i` is [`Board::positions`] of unit `9 * kind + i`, all taken at once.
    pub fn positions_of_kind(&self, kind: usize, d: u8) -> [u16; 9] {
        let mut x = self.pos[kind][usize::from(d - 1)];
        std::array::from_fn(|_| {
            let p = x as u16 & ALL;
            x >>= 9;
            p
        })
    }

    /// Candidate `d`'s position board of kind `kind` (0 rows, 1 columns, 2 boxes): bit
    /// `9 * i + k` = the `k`-th cell of unit `9 * kind + i` ([`UNIT_CELLS`] order), the
    /// nine units' [`Board::positions`] side by side.
    pub(in crate::trace) fn positions_board(&self, kind: usize, d: u8) -> Cells {
        self.pos[kind][usize::from(d - 1)]
    }

    /// The empty cells of `set` that have candidate `d`.
    pub fn with_digit(&self, set: Cells, d: u8) -> Cells {
        self.pos[0][usize::from(d - 1)] & set
    }

    /// The empty cells by candidate count: `[none, exactly one, exactly two, exactly
    /// three]`, counted across the digits' boards at once.
    pub fn by_count(&self) -> [Cells; 4] {
        // Bit-sliced counter, saturating at 4 (`four`).
        let (mut one, mut two, mut four) = (0 as Cells, 0 as Cells, 0 as Cells);
        for &m in &self.pos[0] {
            let carry1 = one & m;
            one ^= m;
            let carry2 = two & carry1;
            two ^= carry1;
            four |= carry2;
        }
        let few = self.empty & !four;
        [
            few & !one & !two,
            few & one & !two,
            few & !one & two,
            few & one & two,
        ]
    }

    /// The grid of placed digits.
    pub fn grid(&self) -> Grid {
        Grid(self.cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both views agree after placements and removals: each digit's board of each kind
    /// holds exactly the cells whose mask has the digit.
    #[test]
    fn the_digit_boards_follow_the_cell_masks() {
        let mut g = Grid::EMPTY;
        g.0[0] = 5;
        g.0[40] = 3;
        let mut b = Board::new(&g).unwrap();
        b.place(10, 7);
        b.remove(80, bit(1) | bit(9));
        b.remove(44, ALL);
        for (u, unit) in UNIT_CELLS.iter().enumerate() {
            for d in 1..=9 {
                let want = unit
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| b.cand[usize::from(c)] & bit(d) != 0)
                    .fold(0, |acc, (k, _)| acc | 1 << k);
                assert_eq!(b.positions(u, d), want, "unit {u} digit {d}");
            }
        }
        let counts = b.by_count();
        for c in 0..CELLS {
            let n = if b.empty >> c & 1 == 0 {
                None
            } else {
                Some(b.cand[c].count_ones() as usize)
            };
            for (k, set) in counts.iter().enumerate() {
                assert_eq!(set >> c & 1 != 0, n == Some(k), "cell {c} count {k}");
            }
        }
        assert_eq!(counts[0], 1 << 44);
        assert_eq!((b.dead(), b.naked_singles()), (counts[0], counts[1]));
    }
}
