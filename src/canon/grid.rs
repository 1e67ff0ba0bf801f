//! The minlex form of a complete valid grid, by a search of its own: on a grid every
//! transform ties on the pattern and the first row hands out all nine labels, so the
//! generic search splits each branch by the 216 column orders of row 0 (about 1 ms a grid).
//!
//! Here row 0 of the form is always `123456789`, and for each choice of transpose, row 0
//! and row 1 (of the same band: 2 · 9 · 2 = 36 choices) the smallest row 1 and the column
//! orders that give it come from a table (`canon/rowpair.rs`: row 1 is a conjugate of a
//! permutation of the columns). Only the choices that reach the smallest row 1 of all are
//! expanded: each of their column orders fixes the labels, and the other rows follow by
//! sorting (row 2 is the band's last row; the other two bands go in the order of their
//! smallest rows, their rows sorted; no two rows of a valid grid are equal, so nothing else
//! ties).
//!
//! Rejected: building row 1 cell by cell for each of the 36 choices with a branch-and-bound
//! over the column orders (the first grid search here): 28k grids per CPU-second for the
//! whole `canon` command, against about 10x that with the table.

use super::rowpair::{key, Order, ROW_PAIRS};
use crate::grid::{Grid, CELLS};

/// One way to reach the smallest row 1: transpose, source rows 0 and 1, a column order.
#[derive(Clone, Copy, Default)]
struct Choice {
    t: u8,
    r0: u8,
    r1: u8,
    q0: Order,
}

/// The form of complete valid grid `g` and the number of transforms that give it.
///
/// # Panics
/// If `g` is not a complete valid grid.
pub(crate) fn grid_minlex(g: &Grid) -> (Grid, u32) {
    let table = &*ROW_PAIRS;
    let mut grids = [g.0, [0; CELLS]];
    for r in 0..9 {
        for c in 0..9 {
            grids[1][c * 9 + r] = g.0[r * 9 + c];
        }
    }
    let mut class = u16::MAX;
    let mut choices = [Choice::default(); 36];
    let mut n = 0;
    for (t, grid) in grids.iter().enumerate() {
        for r0 in 0..9 {
            let mut col_of = [0u8; 10];
            for (c, &d) in row(grid, r0).iter().enumerate() {
                col_of[usize::from(d)] = c as u8;
            }
            for r1 in (r0 / 3 * 3..r0 / 3 * 3 + 3).filter(|&r| r != r0) {
                // f[c]: the row-0 column holding row 1's digit at column c.
                let f: Order = std::array::from_fn(|c| col_of[usize::from(grid[r1 * 9 + c])]);
                let (k, q0) = table.class_of(key(&f));
                if k < class {
                    class = k;
                    n = 0;
                }
                if k == class {
                    choices[n] = Choice {
                        t: t as u8,
                        r0: r0 as u8,
                        r1: r1 as u8,
                        q0: *q0,
                    };
                    n += 1;
                }
            }
        }
    }
    let mut best = [u64::MAX; 7];
    let mut count = 0;
    for c in &choices[..n] {
        for h in table.centraliser(class) {
            let q = h.map(|x| c.q0[usize::from(x)]);
            let rows = form_rows(&grids[usize::from(c.t)], c, &q, best[0]);
            if rows < best {
                best = rows;
                count = 0;
            }
            count += u32::from(rows == best);
        }
    }
    let mut form = [0u8; CELLS];
    let row1 = table.row1(class);
    let values = [0x1_2345_6789, row1];
    for (k, v) in values.iter().chain(&best).enumerate() {
        for j in 0..9 {
            form[k * 9 + j] = ((v >> (4 * (8 - j))) & 15) as u8;
        }
    }
    (Grid(form), count)
}

fn row(g: &[u8; CELLS], r: usize) -> &[u8] {
    &g[r * 9..r * 9 + 9]
}

/// Rows 2 to 8 of the form that choice `c` with column order `q` gives (4 bits a cell,
/// as in the generic search); all `u64::MAX` when row 2 already exceeds `bound`.
fn form_rows(g: &[u8; CELLS], c: &Choice, q: &Order, bound: u64) -> [u64; 7] {
    let mut label = [0u8; 10];
    for (j, &col) in q.iter().enumerate() {
        label[usize::from(g[usize::from(c.r0) * 9 + usize::from(col)])] = j as u8 + 1;
    }
    let value = |r: usize| {
        q.iter().fold(0u64, |v, &col| {
            v << 4 | u64::from(label[usize::from(g[r * 9 + usize::from(col)])])
        })
    };
    let band = usize::from(c.r0 / 3);
    let r2 = band * 3 + 3 - usize::from(c.r0 % 3) - usize::from(c.r1 % 3);
    let mut out = [u64::MAX; 7];
    out[0] = value(r2);
    if out[0] > bound {
        return out;
    }
    let sorted = |b: usize| {
        let mut rows = [value(3 * b), value(3 * b + 1), value(3 * b + 2)];
        rows.sort_unstable();
        rows
    };
    let (mut x, mut y) = match band {
        0 => (sorted(1), sorted(2)),
        1 => (sorted(0), sorted(2)),
        _ => (sorted(0), sorted(1)),
    };
    if y[0] < x[0] {
        std::mem::swap(&mut x, &mut y);
    }
    out[1..4].copy_from_slice(&x);
    out[4..7].copy_from_slice(&y);
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

    /// Solution grids of `../shared/data/kaggle_1m_sample.csv` (every 500th of the first
    /// 100,000), or none, with a note, when `../shared` is absent.
    fn shared_grids() -> Vec<Grid> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/kaggle_1m_sample.csv"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("note: {path} absent; grid search checked on the fixtures only");
            return Vec::new();
        };
        text.lines()
            .skip(1)
            .take(100_000)
            .step_by(500)
            .map(|l| parse_cells(&l.as_bytes()[82..163]).unwrap())
            .collect()
    }

    #[test]
    fn shared_solution_grids_and_isomorphs_get_the_generic_form_and_count() {
        let grids = shared_grids();
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for g in &grids {
            assert!(g.is_complete_valid());
            let want = generic(g);
            let iso = Isomorph::random(&mut rng).apply(g);
            for x in [g, &iso] {
                assert_eq!(grid_minlex(x), (want.form, want.automorphisms), "grid {x}");
            }
        }
    }

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
