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

use crate::grid::{Grid, CELLS};

/// The 6 orders of 3 columns: output position `j` of a stack takes source column
/// `TRIPLE_ORDERS[p][j]` of that stack.
pub(crate) const TRIPLE_ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Every order of 3 columns allowed.
const ALL_ORDERS: u8 = 0b11_1111;

/// One partial transform, a node of the search. `Copy`, 24 bytes.
#[derive(Clone, Copy, Debug)]
struct Branch {
    /// 0: the puzzle as given; 1: transposed.
    t: u8,
    /// Bands already used (bit `b` = source band `b`), the current one included.
    bands: u8,
    /// Source band of the output band being filled.
    band: u8,
    /// Rows of the current source band already used (bit `i` = row `3 * band + i`).
    rows: u8,
    /// Output stack `s` takes source stack `stacks[s]`.
    stacks: [u8; 3],
    /// Output stack `s` may order its columns by any [`TRIPLE_ORDERS`] in `orders[s]`.
    orders: [u8; 3],
    /// Label of source digit `d` (0 = none yet); `labels[0]` stays 0 (blank).
    labels: [u8; 10],
    /// The next label to hand out, 1..=10.
    next: u8,
    /// Source row of each output row so far.
    seq: [u8; 9],
}

/// The puzzle and its transpose, and the state shared by the search of one level.
struct Search<'a> {
    grids: &'a [[u8; CELLS]; 2],
    /// Smallest row value found so far at this level (`u64::MAX`: none yet).
    best: u64,
    /// The branches that give `best`.
    found: Vec<Branch>,
    /// Compare patterns of givens only (1 = given), not labels.
    pattern: bool,
}

/// The result of a search: the form and how many transforms give it.
pub(crate) struct Outcome {
    pub form: Grid,
    pub automorphisms: u32,
}

/// Finds the minlex form of `puzzle` and counts the geometric transforms that reach it.
///
/// Two passes: the first keeps the transforms whose pattern of givens is the smallest (a
/// given read as 1), the second the smallest labelled form among those. A complete grid has
/// one pattern, so it goes straight to the second pass.
pub(crate) fn search(puzzle: &Grid) -> Outcome {
    let mut grids = [puzzle.0, [0; CELLS]];
    for r in 0..9 {
        for c in 0..9 {
            grids[1][c * 9 + r] = puzzle.0[r * 9 + c];
        }
    }
    let mut level: Vec<Branch> = Vec::with_capacity(64);
    for t in 0..2 {
        for stacks in STACK_ORDERS {
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
        found: Vec::with_capacity(64),
        pattern: true,
    };
    let complete = puzzle.0.iter().all(|&d| d != 0);
    if !complete {
        s.pass(&mut level, false, None);
    }
    s.pattern = false;
    let mut form = [0u8; CELLS];
    s.pass(&mut level, !complete, Some(&mut form));
    let automorphisms = level
        .iter()
        .map(|b| b.orders.iter().map(|m| m.count_ones()).product::<u32>())
        .sum();
    Outcome {
        form: Grid(form),
        automorphisms,
    }
}

/// The 6 orders of the 3 stacks (the same table as [`TRIPLE_ORDERS`], as `u8`).
const STACK_ORDERS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The source rows that may become output row `k` of `b`, each with `b` updated to use it:
/// a row of the current band not used yet, or at the start of a band (`k` = 0, 3, 6) any
/// row of a band not used yet; only the row already chosen when `fixed`.
fn next_rows(b: &Branch, k: usize, fixed: bool) -> impl Iterator<Item = (Branch, usize)> + '_ {
    let new_band = k.is_multiple_of(3);
    (0..9usize).filter_map(move |row| {
        if fixed {
            return (usize::from(b.seq[k]) == row).then_some((*b, row));
        }
        let (band, i) = ((row / 3) as u8, (row % 3) as u8);
        let mut n = *b;
        if new_band {
            if b.bands & (1 << band) != 0 {
                return None;
            }
            n.bands |= 1 << band;
            n.band = band;
            n.rows = 1 << i;
        } else {
            if band != b.band || b.rows & (1 << i) != 0 {
                return None;
            }
            n.rows |= 1 << i;
        }
        n.seq[k] = row as u8;
        Some((n, row))
    })
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
                for (next, row) in next_rows(b, k, fixed) {
                    self.stack(next, row, 0, 0);
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
    /// beats the best row.
    fn stack(&mut self, b: Branch, row: usize, s: usize, prefix: u64) {
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
        let src = &self.grids[usize::from(b.t)][row * 9 + 3 * usize::from(b.stacks[s])..][..3];
        // Each allowed order: its output (12 bits), and the labels it hands out.
        let mut outs = [(u16::MAX, [0u8; 3]); 6];
        let mut least = u16::MAX;
        for (p, order) in TRIPLE_ORDERS.iter().enumerate() {
            if b.orders[s] & (1 << p) == 0 {
                continue;
            }
            let (mut v, mut next, mut fresh, mut nf) = (0u16, b.next, [0u8; 3], 0);
            for &j in order {
                let d = src[j];
                let mut l = if self.pattern {
                    u8::from(d != 0)
                } else {
                    b.labels[usize::from(d)]
                };
                if d != 0 && l == 0 {
                    // A digit not seen before takes the next label, unless this order
                    // already labelled it (impossible: a row holds each digit once).
                    l = next;
                    next += 1;
                    fresh[nf] = d;
                    nf += 1;
                }
                v = v << 4 | u16::from(l);
            }
            outs[p] = (v, fresh);
            least = least.min(v);
        }
        let value = prefix << 12 | u64::from(least);
        if self.best != u64::MAX && value > self.best >> (12 * (2 - s)) {
            return;
        }
        // One branch per distinct labelling among the orders that give the least output.
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
            for &d in outs[p].1.iter().take_while(|&&d| d != 0) {
                n.labels[usize::from(d)] = n.next;
                n.next += 1;
            }
            self.stack(n, row, s + 1, value);
        }
    }
}
