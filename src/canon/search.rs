//! The row-by-row search behind [`minlex`](super::minlex): builds the smallest form one
//! output row at a time, keeping every partial transform that ties for the smallest prefix.
//!
//! A partial transform ([`Branch`]) fixes the transpose, the source rows of the output rows
//! so far (and so the order of the bands used so far), the order of the stacks, and the
//! digit labels handed out so far. The column order *within* each stack is kept as a set:
//! a 6-bit mask over the 6 orders of 3 columns ([`TRIPLE_ORDERS`]), narrowed as rows are
//! added. Two orders stay in one branch only while they give the same output and the same
//! labels; where they give the same output but label digits differently, the branch splits.
//!
//! Output row `k` of a branch is computed stack by stack, left to right, so a branch whose
//! row prefix is already larger than the best row found so far at level `k` is dropped after
//! one stack (the pruning that makes the search fast on puzzles: sparse rows leave few
//! branches, and most candidate rows lose in their first stack).
//!
//! Values: a cell of the output is 0 (blank) or its label 1..=9, a stack is three such
//! nibbles (12 bits, the leftmost cell most significant) and a row is three stacks (36 bits
//! in a `u64`), so comparing integers compares strings.

use std::cell::Cell;

use super::pattern::{pattern_pass, row_patterns};
use crate::grid::{Grid, CELLS, ORDERS_OF_THREE};

/// The 6 orders of 3 columns: output position `j` of a stack takes source column
/// `TRIPLE_ORDERS[p][j]` of that stack.
pub(crate) const TRIPLE_ORDERS: [[usize; 3]; 6] = ORDERS_OF_THREE;

/// Every order of 3 columns allowed.
const ALL_ORDERS: u8 = 0b11_1111;

/// One partial transform, a node of the search. `Copy`, 24 bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Branch {
    /// 0: the puzzle as given; 1: transposed.
    pub(super) t: u8,
    /// Bands already used (bit `b` = source band `b`), the current one included.
    pub(super) bands: u8,
    /// Source band of the output band being filled.
    pub(super) band: u8,
    /// Rows of the current source band already used (bit `i` = row `3 * band + i`).
    pub(super) rows: u8,
    /// Output stack `s` takes source stack `stacks[s]`.
    pub(super) stacks: [u8; 3],
    /// Output stack `s` may order its columns by any [`TRIPLE_ORDERS`] in `orders[s]`.
    pub(super) orders: [u8; 3],
    /// Label of source digit `d` (0 = none yet); `labels[0]` stays 0 (blank).
    pub(super) labels: [u8; 10],
    /// The next label to hand out, 1..=10.
    pub(super) next: u8,
    /// Source row of each output row so far.
    pub(super) seq: [u8; 9],
}

thread_local! {
    /// The two branch lists of [`generic`], kept by each thread from one puzzle to the
    /// next: allocating them for each puzzle (malloc, realloc and free) took 7% of
    /// `dedup --iso`.
    static LEVEL: Cell<Vec<Branch>> = const { Cell::new(Vec::new()) };
    static FOUND: Cell<Vec<Branch>> = const { Cell::new(Vec::new()) };
}

/// The puzzle and its transpose, and the state shared by the search of one level.
struct Search<'a> {
    grids: &'a [[u8; CELLS]; 2],
    /// Smallest row value found so far at this level (`u64::MAX`: none yet).
    best: u64,
    /// The branches that give `best`.
    found: Vec<Branch>,
}

/// The result of a search: the form and how many transforms give it.
pub(crate) struct Outcome {
    pub form: Grid,
    pub automorphisms: u32,
}

/// Finds the minlex form of `puzzle` and counts the geometric transforms that reach it;
/// a complete valid grid goes to its own search (`canon/grid.rs`).
///
/// Two passes: the first keeps the transforms whose pattern of givens is the smallest (a
/// given read as 1), the second the smallest labelled form among those. A complete grid has
/// one pattern, so it goes straight to the second pass.
pub(crate) fn search(puzzle: &Grid) -> Outcome {
    if puzzle.is_complete_valid() {
        let (form, automorphisms) = super::grid::grid_minlex(puzzle);
        return Outcome {
            form,
            automorphisms,
        };
    }
    generic(puzzle)
}

/// [`search`] without the fast path for complete valid grids (see `canon/grid.rs`).
pub(crate) fn generic(puzzle: &Grid) -> Outcome {
    let mut grids = [puzzle.0, [0; CELLS]];
    for r in 0..9 {
        for c in 0..9 {
            grids[1][c * 9 + r] = puzzle.0[r * 9 + c];
        }
    }
    let mut level = LEVEL.take();
    level.clear();
    for t in 0..2 {
        for order in ORDERS_OF_THREE {
            let stacks = order.map(|s| s as u8);
            level.push(Branch {
                t,
                bands: 0,
                band: 0,
                rows: 0,
                stacks,
                orders: [ALL_ORDERS; 3],
                labels: [0; 10],
                next: 1,
                seq: [0; 9],
            });
        }
    }
    let mut s = Search {
        grids: &grids,
        best: u64::MAX,
        found: FOUND.take(),
    };
    let complete = puzzle.0.iter().all(|&d| d != 0);
    if !complete {
        let pats = [row_patterns(&grids[0]), row_patterns(&grids[1])];
        pattern_pass(&pats, &mut level, &mut s.found);
    }
    let mut form = [0u8; CELLS];
    s.pass(&mut level, !complete, Some(&mut form));
    let automorphisms = level
        .iter()
        .map(|b| b.orders.iter().map(|m| m.count_ones()).product::<u32>())
        .sum();
    LEVEL.set(level);
    FOUND.set(s.found);
    Outcome {
        form: Grid(form),
        automorphisms,
    }
}

/// The source rows that may become output row `k` of `b`, as a 9-bit set (bit `row`): a
/// row of the current band not used yet, or at the start of a band (`k` = 0, 3, 6) any row
/// of a band not used yet.
pub(super) fn allowed_rows(b: &Branch, k: usize) -> u16 {
    if k.is_multiple_of(3) {
        let mut rows = 0;
        for band in 0..3 {
            if b.bands & (1 << band) == 0 {
                rows |= 7 << (3 * band);
            }
        }
        rows
    } else {
        u16::from(!b.rows & 7) << (3 * b.band)
    }
}

impl Branch {
    /// `self` with source row `row` as output row `k`.
    pub(super) fn with_row(&self, k: usize, row: usize) -> Branch {
        let mut n = *self;
        let (band, i) = ((row / 3) as u8, (row % 3) as u8);
        if k.is_multiple_of(3) {
            n.bands |= 1 << band;
            n.band = band;
            n.rows = 1 << i;
        } else {
            n.rows |= 1 << i;
        }
        n.seq[k] = row as u8;
        n
    }
}

impl Search<'_> {
    /// Runs the nine levels from the branches in `level`, leaving the survivors there;
    /// `fixed`: each branch keeps the rows it chose in an earlier pass. Writes the best row
    /// of each level into `form`, when given.
    fn pass(&mut self, level: &mut Vec<Branch>, fixed: bool, mut form: Option<&mut [u8; CELLS]>) {
        for k in 0..9 {
            self.best = u64::MAX;
            self.found.clear();
            for b in level.iter() {
                if fixed {
                    self.stack(*b, usize::from(b.seq[k]), 0, 0);
                    continue;
                }
                let mut rows = allowed_rows(b, k);
                while rows != 0 {
                    let row = rows.trailing_zeros() as usize;
                    rows &= rows - 1;
                    self.stack(b.with_row(k, row), row, 0, 0);
                }
            }
            if let Some(form) = form.as_deref_mut() {
                for (j, cell) in form[k * 9..k * 9 + 9].iter_mut().enumerate() {
                    *cell = ((self.best >> (4 * (8 - j))) & 15) as u8;
                }
            }
            std::mem::swap(level, &mut self.found);
        }
    }

    /// Extends `b` through output stack `s` of source row `row`, after the stacks before it
    /// gave `prefix` (12 bits a stack). Records the branch when the row is done and ties or
    /// beats the best row. A stack with one allowed order, or no givens, goes on in the
    /// loop; several orders that label differently split the branch.
    fn stack(&mut self, mut b: Branch, row: usize, mut s: usize, mut prefix: u64) {
        loop {
            if s == 3 {
                if prefix < self.best {
                    self.best = prefix;
                    self.found.clear();
                }
                if prefix == self.best {
                    self.found.push(b);
                }
                return;
            }
            let at = row * 9 + 3 * usize::from(b.stacks[s]);
            let src: [u8; 3] = self.grids[usize::from(b.t)][at..at + 3]
                .try_into()
                .expect("3 cells");
            let orders = b.orders[s];
            if src == [0; 3] || orders.is_power_of_two() {
                let order = &TRIPLE_ORDERS[orders.trailing_zeros() as usize];
                let (v, fresh) = label(&b, &src, order);
                prefix = prefix << 12 | u64::from(v);
                if prefix > self.best >> (12 * (2 - s)) {
                    return;
                }
                b.take(&fresh);
                s += 1;
                continue;
            }
            return self.split(b, row, s, prefix, &src);
        }
    }

    /// [`Search::stack`] for a stack with several allowed orders and givens: one branch per
    /// distinct labelling among the orders that give the least output.
    fn split(&mut self, b: Branch, row: usize, s: usize, prefix: u64, src: &[u8; 3]) {
        // Each allowed order: its output (12 bits), and the digits it labels.
        let mut outs = [(u16::MAX, [0u8; 3]); 6];
        let mut least = u16::MAX;
        for (p, order) in TRIPLE_ORDERS.iter().enumerate() {
            if b.orders[s] & (1 << p) != 0 {
                outs[p] = label(&b, src, order);
                least = least.min(outs[p].0);
            }
        }
        let value = prefix << 12 | u64::from(least);
        if value > self.best >> (12 * (2 - s)) {
            return;
        }
        let mut done = 0u8;
        for p in 0..6 {
            if done & (1 << p) != 0 || outs[p].0 != least {
                continue;
            }
            let mut mask = 0u8;
            for (q, out) in outs.iter().enumerate().skip(p) {
                if *out == outs[p] {
                    mask |= 1 << q;
                }
            }
            done |= mask;
            let mut n = b;
            n.orders[s] = mask;
            n.take(&outs[p].1);
            self.stack(n, row, s + 1, value);
        }
    }
}

/// The output of source cells `src` in `order` under `b`'s labels (12 bits, 4 a cell: 0 for a
/// blank, else the label), and the digits not labelled before, in the order they take the
/// next labels (0 after the last).
#[inline]
fn label(b: &Branch, src: &[u8; 3], order: &[usize; 3]) -> (u16, [u8; 3]) {
    let (mut v, mut next, mut fresh, mut nf) = (0u16, b.next, [0u8; 3], 0);
    for &j in order {
        let d = src[j];
        let mut l = b.labels[usize::from(d)];
        if d != 0 && l == 0 {
            // A row holds each digit once, so no digit is fresh twice here.
            l = next;
            next += 1;
            fresh[nf] = d;
            nf += 1;
        }
        v = v << 4 | u16::from(l);
    }
    (v, fresh)
}

impl Branch {
    /// Hands out the next labels to `fresh` digits, in order, up to the first 0.
    fn take(&mut self, fresh: &[u8; 3]) {
        for &d in fresh.iter().take_while(|&&d| d != 0) {
            self.labels[usize::from(d)] = self.next;
            self.next += 1;
        }
    }
}
