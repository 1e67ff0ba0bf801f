//! The minlex form of a complete valid grid, by a search of its own: on a grid every
//! transform ties on the pattern and the first row hands out all nine labels, so the
//! generic search splits each branch by the 216 column orders of row 0 (about 1 ms a grid).
//!
//! Here row 0 of the form is always `123456789`: a label is the output position of its
//! digit in row 0 (plus 1). So for each choice of transpose, row 0 and row 1 (of the same
//! band: 2 · 9 · 2 = 36), row 1 of the form is built cell by cell: output cell `j` shows the
//! digit of source column `q[j]`, whose label is the output position of the row-0 column
//! holding that digit. The smallest label is reached by putting that column at the smallest
//! free position it may take (in its stack's output stack, or the first free output stack),
//! which is forced; only the choice of `q[j]`, when it is still free, branches. Every
//! column order that gives the smallest row 1 is kept; each then fixes the labels and the
//! column order entirely, and the other rows follow by sorting (row 2 is the band's last
//! row; the other two bands go in the order of their smallest rows, their rows sorted; no
//! two rows of a valid grid are equal, so nothing else ties).

use crate::grid::{Grid, CELLS};

const NONE: u8 = 9;

/// A column order being built for one choice of row 0 and row 1.
#[derive(Clone, Copy)]
struct Order {
    /// Source column at output position `j` (`NONE`: not chosen yet).
    q: [u8; 9],
    /// Output position of source column `c` (`NONE`: not placed yet).
    at: [u8; 9],
    /// Output stack of source stack `s` (`NONE`: not mapped yet).
    stack_out: [u8; 3],
    /// Source stack of output stack `s` (`NONE`: not mapped yet).
    stack_in: [u8; 3],
}

impl Order {
    const EMPTY: Order = Order {
        q: [NONE; 9],
        at: [NONE; 9],
        stack_out: [NONE; 3],
        stack_in: [NONE; 3],
    };

    fn place(&mut self, c: usize, j: usize) {
        self.q[j] = c as u8;
        self.at[c] = j as u8;
        self.stack_out[c / 3] = (j / 3) as u8;
        self.stack_in[j / 3] = (c / 3) as u8;
    }

    /// The smallest free output position source column `c` may take.
    fn smallest_free(&self, c: usize) -> usize {
        let s = match self.stack_out[c / 3] {
            NONE => (0..3)
                .find(|&s| self.stack_in[s] == NONE)
                .expect("a stack is free"),
            s => usize::from(s),
        };
        (3 * s..3 * s + 3)
            .find(|&j| self.q[j] == NONE)
            .expect("the stack has a free position")
    }
}

/// One way to reach the smallest row 1: transpose, source rows 0 and 1, the column order.
#[derive(Clone, Copy)]
struct Leaf {
    t: usize,
    r0: usize,
    r1: usize,
    q: [u8; 9],
}

struct Search {
    best: u64,
    leaves: Vec<Leaf>,
}

/// The form of complete valid grid `g` and the number of transforms that give it.
pub(crate) fn grid_minlex(g: &Grid) -> (Grid, u32) {
    let mut grids = [g.0, [0; CELLS]];
    for r in 0..9 {
        for c in 0..9 {
            grids[1][c * 9 + r] = g.0[r * 9 + c];
        }
    }
    let mut s = Search {
        best: u64::MAX,
        leaves: Vec::new(),
    };
    for (t, grid) in grids.iter().enumerate() {
        for r0 in 0..9 {
            for r1 in (r0 / 3 * 3..r0 / 3 * 3 + 3).filter(|&r| r != r0) {
                let (a, b) = (row(grid, r0), row(grid, r1));
                let mut col_of = [0u8; 10];
                for (c, &d) in a.iter().enumerate() {
                    col_of[usize::from(d)] = c as u8;
                }
                // Row 1's cell in source column c is the digit of row 0's column f[c].
                let f: [u8; 9] = std::array::from_fn(|c| col_of[usize::from(b[c])]);
                s.cell(
                    Leaf {
                        t,
                        r0,
                        r1,
                        q: [0; 9],
                    },
                    &f,
                    Order::EMPTY,
                    0,
                    0,
                );
            }
        }
    }
    let mut best = [u64::MAX; 9];
    let mut count = 0;
    for leaf in &s.leaves {
        let rows = form_rows(&grids[leaf.t], leaf);
        if rows < best {
            best = rows;
            count = 0;
        }
        count += u32::from(rows == best);
    }
    let mut form = [0u8; CELLS];
    for (k, v) in best.iter().enumerate() {
        for j in 0..9 {
            form[k * 9 + j] = ((v >> (4 * (8 - j))) & 15) as u8;
        }
    }
    (Grid(form), count)
}

fn row(g: &[u8; CELLS], r: usize) -> &[u8] {
    &g[r * 9..r * 9 + 9]
}

impl Search {
    /// Output cell `j` of row 1, after cells `0..j` gave `prefix` (4 bits a cell).
    fn cell(&mut self, leaf: Leaf, f: &[u8; 9], order: Order, j: usize, prefix: u64) {
        if j == 9 {
            if prefix < self.best {
                self.best = prefix;
                self.leaves.clear();
            }
            if prefix == self.best {
                self.leaves.push(Leaf { q: order.q, ..leaf });
            }
            return;
        }
        let bound = self.best >> (4 * (8 - j));
        let try_column = |s: &mut Self, c: usize| {
            let mut o = order;
            if o.q[j] == NONE {
                o.place(c, j);
            }
            let target = usize::from(f[c]);
            if o.at[target] == NONE {
                let k = o.smallest_free(target);
                o.place(target, k);
            }
            let value = prefix << 4 | u64::from(o.at[target] + 1);
            if value <= bound {
                s.cell(leaf, f, o, j + 1, value);
            }
        };
        if order.q[j] != NONE {
            return try_column(self, usize::from(order.q[j]));
        }
        let s_in = order.stack_in[j / 3];
        for c in 0..9 {
            let free = order.at[c] == NONE;
            let allowed = if s_in == NONE {
                order.stack_out[c / 3] == NONE
            } else {
                c / 3 == usize::from(s_in)
            };
            if free && allowed {
                try_column(self, c);
            }
        }
    }
}

/// The nine rows of the form that `leaf` gives (4 bits a cell, as in the generic search).
fn form_rows(g: &[u8; CELLS], leaf: &Leaf) -> [u64; 9] {
    let mut label = [0u8; 10];
    for (j, &c) in leaf.q.iter().enumerate() {
        label[usize::from(g[leaf.r0 * 9 + usize::from(c)])] = j as u8 + 1;
    }
    let value = |r: usize| {
        leaf.q.iter().fold(0u64, |v, &c| {
            v << 4 | u64::from(label[usize::from(g[r * 9 + usize::from(c)])])
        })
    };
    let band = leaf.r0 / 3;
    let r2 = (band * 3..band * 3 + 3)
        .find(|&r| r != leaf.r0 && r != leaf.r1)
        .expect("a band has three rows");
    let mut out = [value(leaf.r0), value(leaf.r1), value(r2), 0, 0, 0, 0, 0, 0];
    let mut bands: Vec<[u64; 3]> = (0..3)
        .filter(|&b| b != band)
        .map(|b| {
            let mut rows = [value(3 * b), value(3 * b + 1), value(3 * b + 2)];
            rows.sort_unstable();
            rows
        })
        .collect();
    bands.sort_unstable();
    for (i, rows) in bands.iter().enumerate() {
        out[3 + 3 * i..6 + 3 * i].copy_from_slice(rows);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::search::generic;
    use crate::grid::fixtures::S;
    use crate::grid::parse_cells;
    use crate::isomorph::Isomorph;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn grids_get_the_form_and_count_of_the_generic_search() {
        let s = parse_cells(S.as_bytes()).unwrap();
        let symmetric = parse_cells(
            b"123456789456789123789123456231564897564897231897231564312645978645978312978312645",
        )
        .unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(81);
        for g in [s, symmetric] {
            let want = generic(&g);
            assert_eq!(grid_minlex(&g), (want.form, want.automorphisms));
            for _ in 0..3 {
                let iso = Isomorph::random(&mut rng).apply(&g);
                assert_eq!(grid_minlex(&iso), (want.form, want.automorphisms));
            }
        }
    }
}
