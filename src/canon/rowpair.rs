//! The smallest second row of a grid's form, by table (issue 12, used by `canon/grid.rs`).
//!
//! Fix the source rows `r0` and `r1` (of one band) that become rows 0 and 1 of the form,
//! and a column order `q` (output position `j` takes source column `q[j]`; stacks stay
//! whole, so `q` is one of the 6 · 6³ = 1,296 elements of the group `W` of such orders).
//! Row 0 always reads `123456789`, so the label of a digit is the output position of its
//! column in row 0, plus 1. Write `f[c]` for the row-0 column that holds the digit of row 1
//! at source column `c`: a permutation of the 9 columns that sends no column into its own
//! stack (the box already holds that digit). Row 1 of the form, labels minus 1, is then
//!
//! ```text
//!     row1[j] = q⁻¹(f(q(j)))      that is, row 1 is the conjugate q⁻¹ f q
//! ```
//!
//! so the smallest row 1 for `(r0, r1)` is the smallest conjugate of `f` under `W`, and the
//! column orders that give it form a coset `q0 · C`, where `C` is the centraliser in `W`
//! of that smallest conjugate `m` (the `h` with `h⁻¹ m h = m`).
//!
//! There are only 12,096 such `f` (the second rows of a band under a fixed first row), in
//! 15 conjugacy classes (centralisers of 1 to 18 orders), so one table, built on first use in about a millisecond,
//! gives for every `f` its class (ranked by the class's smallest conjugate, so comparing
//! ranks compares rows 1) and one `q0`; and for every class its centraliser. A grid then
//! costs 36 lookups (2 transposes · 9 rows `r0` · 2 rows `r1`) to find its row 1, and
//! only the few `(r0, r1, q0 · h)` that reach it are expanded to whole forms.

use std::sync::LazyLock;

use crate::grid::ORDERS_OF_THREE;

/// A column order that keeps stacks whole: output position `j` takes source column `q[j]`.
pub(super) type Order = [u8; 9];

/// Slots of the open-addressing table: 2^15, so 12,096 keys fill 37% of it.
const SLOT_BITS: u32 = 15;
const EMPTY: u64 = u64::MAX;

/// The table of row pairs, built on first use.
pub(super) static ROW_PAIRS: LazyLock<RowPairs> = LazyLock::new(RowPairs::build);

/// Classes of row-0/row-1 permutations under the column orders (see the module docs).
pub(super) struct RowPairs {
    /// The 1,296 elements of `W`, in the order of [`order_index`].
    orders: Vec<Order>,
    /// [`key`] of each `f`, or `EMPTY`.
    keys: Box<[u64]>,
    /// For the key in the same slot: class rank `<< 16 |` index of its `q0` in `orders`.
    values: Box<[u32]>,
    /// For each class (by rank): its centraliser in `W`, the identity first.
    centralisers: Vec<Vec<Order>>,
    /// For each class (by rank): its smallest conjugate, labels 1..=9, 4 bits a cell with
    /// cell 0 most significant (row 1 of the form).
    smallest: Vec<u64>,
}

/// The 4-bit packing of a permutation of the 9 columns, cell 0 in the low bits.
#[inline]
pub(super) fn key(f: &[u8; 9]) -> u64 {
    f.iter().rev().fold(0, |k, &x| k << 4 | u64::from(x))
}

#[inline]
fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOT_BITS)) as usize
}

/// Index of a triple order in [`ORDERS_OF_THREE`], from its first two items.
fn triple_rank(a: u8, b: u8) -> usize {
    ORDERS_OF_THREE
        .iter()
        .position(|o| o[0] == usize::from(a) && o[1] == usize::from(b))
        .expect("a triple order")
}

/// Index of `q` in [`RowPairs::orders`]: stack order, then the order inside each stack.
fn order_index(q: &Order) -> usize {
    let stacks = triple_rank(q[0] / 3, q[3] / 3);
    let inside = |s: usize| triple_rank(q[3 * s] % 3, q[3 * s + 1] % 3);
    ((stacks * 6 + inside(0)) * 6 + inside(1)) * 6 + inside(2)
}

fn inverse(q: &Order) -> Order {
    let mut inv = [0u8; 9];
    for (j, &c) in q.iter().enumerate() {
        inv[usize::from(c)] = j as u8;
    }
    inv
}

/// `a ∘ b`: position `j` takes `a[b[j]]`.
fn compose(a: &Order, b: &Order) -> Order {
    b.map(|x| a[usize::from(x)])
}

/// `q⁻¹ f q`.
fn conjugate(f: &Order, q: &Order) -> Order {
    compose(&inverse(q), &compose(f, q))
}

/// A permutation as row 1 of a form: labels 1..=9, cell 0 most significant.
fn row_value(p: &Order) -> u64 {
    p.iter().fold(0, |v, &x| v << 4 | u64::from(x + 1))
}

/// Every permutation of the 9 columns that sends no column into its own stack.
fn second_rows() -> Vec<Order> {
    fn extend(c: usize, f: &mut Order, used: u16, out: &mut Vec<Order>) {
        if c == 9 {
            out.push(*f);
            return;
        }
        for x in (0..9).filter(|&x| x / 3 != c / 3 && used & (1 << x) == 0) {
            f[c] = x as u8;
            extend(c + 1, f, used | 1 << x, out);
        }
    }
    let mut out = Vec::with_capacity(12_096);
    extend(0, &mut [0; 9], 0, &mut out);
    out
}

impl RowPairs {
    fn build() -> RowPairs {
        let mut orders = Vec::with_capacity(1296);
        for b in ORDERS_OF_THREE {
            for s0 in ORDERS_OF_THREE {
                for s1 in ORDERS_OF_THREE {
                    for s2 in ORDERS_OF_THREE {
                        let inside = [s0, s1, s2];
                        orders.push(std::array::from_fn(|j| {
                            (3 * b[j / 3] + inside[j / 3][j % 3]) as u8
                        }));
                    }
                }
            }
        }
        let mut t = RowPairs {
            orders,
            keys: vec![EMPTY; 1 << SLOT_BITS].into_boxed_slice(),
            values: vec![0; 1 << SLOT_BITS].into_boxed_slice(),
            centralisers: Vec::new(),
            smallest: Vec::new(),
        };
        for f in second_rows() {
            if t.find(key(&f)).is_none() {
                t.add_class(&f);
            }
        }
        t.rank_classes();
        t
    }

    /// Adds the conjugacy class of `f` as class number `centralisers.len()` (unranked).
    fn add_class(&mut self, f: &Order) {
        let class = self.centralisers.len() as u32;
        let conjugates: Vec<Order> = self.orders.iter().map(|q| conjugate(f, q)).collect();
        let (im, m) = conjugates
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| row_value(c))
            .expect("W is not empty");
        let (qm, m) = (self.orders[im], *m);
        let qm_inv = inverse(&qm);
        let mut centraliser = Vec::new();
        for (q, c) in self.orders.clone().iter().zip(&conjugates) {
            if *c == m {
                centraliser.push(compose(&qm_inv, q));
            }
            // c = q⁻¹ f q, so (q⁻¹ qm)⁻¹ c (q⁻¹ qm) = qm⁻¹ f qm = m.
            let q0 = compose(&inverse(q), &qm);
            self.insert(key(c), class << 16 | order_index(&q0) as u32);
        }
        centraliser.sort_unstable();
        self.centralisers.push(centraliser);
        self.smallest.push(row_value(&m));
    }

    /// Renumbers the classes by their smallest conjugate, smallest first.
    fn rank_classes(&mut self) {
        let mut by_row: Vec<usize> = (0..self.smallest.len()).collect();
        by_row.sort_unstable_by_key(|&c| self.smallest[c]);
        let mut rank = vec![0u32; by_row.len()];
        for (r, &c) in by_row.iter().enumerate() {
            rank[c] = r as u32;
        }
        for (k, v) in self.keys.iter().zip(self.values.iter_mut()) {
            if *k != EMPTY {
                *v = rank[(*v >> 16) as usize] << 16 | (*v & 0xffff);
            }
        }
        self.centralisers = by_row
            .iter()
            .map(|&c| self.centralisers[c].clone())
            .collect();
        self.smallest = by_row.iter().map(|&c| self.smallest[c]).collect();
    }

    fn insert(&mut self, key: u64, value: u32) {
        let mut s = slot(key);
        while self.keys[s] != EMPTY {
            if self.keys[s] == key {
                return;
            }
            s = (s + 1) & ((1 << SLOT_BITS) - 1);
        }
        self.keys[s] = key;
        self.values[s] = value;
    }

    fn find(&self, key: u64) -> Option<u32> {
        let mut s = slot(key);
        loop {
            match self.keys[s] {
                EMPTY => return None,
                k if k == key => return Some(self.values[s]),
                _ => s = (s + 1) & ((1 << SLOT_BITS) - 1),
            }
        }
    }

    /// The class rank of `f` (given by its [`key`]) and a column order `q0` that gives its
    /// smallest row 1.
    ///
    /// # Panics
    /// If `f` sends a column into its own stack (the two rows are not of a valid band).
    #[inline]
    pub(super) fn class_of(&self, key: u64) -> (u16, &Order) {
        let v = self.find(key).expect("the rows of a valid band");
        ((v >> 16) as u16, &self.orders[(v & 0xffff) as usize])
    }

    /// The column orders `h` with `h⁻¹ m h = m` for the smallest conjugate `m` of `class`.
    pub(super) fn centraliser(&self, class: u16) -> &[Order] {
        &self.centralisers[usize::from(class)]
    }

    /// Row 1 of the form (labels 1..=9, cell 0 most significant) for `class`.
    pub(super) fn row1(&self, class: u16) -> u64 {
        self.smallest[usize::from(class)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_second_row_once_by_class() {
        let t = &*ROW_PAIRS;
        let rows = second_rows();
        assert_eq!(rows.len(), 12_096, "56 · 6^6 bands / 6^3 orders of row 2");
        assert_eq!(t.keys.iter().filter(|&&k| k != EMPTY).count(), 12_096);
        // Orbit-stabiliser: the class sizes 1296 / |C| add up to all second rows.
        let total: usize = t.centralisers.iter().map(|c| 1296 / c.len()).sum();
        assert_eq!(total, 12_096);
        assert!(t.smallest.windows(2).all(|w| w[0] < w[1]));
        for (i, f) in rows.iter().enumerate().step_by(7) {
            let (class, q0) = t.class_of(key(f));
            let m = conjugate(f, q0);
            assert_eq!(row_value(&m), t.row1(class));
            let brute = t.orders.iter().map(|q| row_value(&conjugate(f, q))).min();
            assert_eq!(brute, Some(t.row1(class)), "row {i}");
            for h in t.centraliser(class) {
                assert_eq!(conjugate(&m, h), m);
            }
        }
    }

    #[test]
    fn orders_are_indexed_in_place() {
        let t = &*ROW_PAIRS;
        for (i, q) in t.orders.iter().enumerate() {
            assert_eq!(order_index(q), i);
        }
    }
}
