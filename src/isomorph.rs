//! Sudoku isomorphs: the symmetry transforms that map a puzzle to an equivalent one with
//! the same number of solutions and the same difficulty class.
//!
//! `bench --seed` replaces every puzzle by a random isomorph (as tdoku's benchmark does) so
//! that an input's order or a solver's bias towards one orientation cannot flatter the
//! numbers; property tests use the same transform to check that a permuted puzzle gives the
//! permuted solution.
//!
//! An [`Isomorph`] combines, in this order of application to a cell `(r, c)` of the output:
//! an optional transpose, a row permutation that moves rows only within their band and bands
//! as wholes, the same for columns within stacks, and a relabelling of the digits 1–9.
//!
//! `augment` and `rate` (issue 13) draw isomorphs from a *counter-based* generator,
//! [`Isomorph::keyed`]: each draw is a pure function of `(seed, key, k)`, so a record's
//! isomorphs do not depend on the thread that draws them or on which shard holds the record.
//! Each one is written as a [transform code](Isomorph#transform-code) from which it can be
//! rebuilt ([`Isomorph::from_str`](std::str::FromStr)).
//!
//! # Transform code
//! 31 ASCII characters, `T-RRRRRRRRR-CCCCCCCCC-DDDDDDDDD`, for example
//! `1-210453678-012345867-931246578`:
//! - `T`: `1` when rows and columns are swapped first (transpose), else `0`;
//! - `R`: 9 digits `0-8`, output row `r` takes (transposed) source row `R[r]`; each band of three
//!   output rows takes the three rows of one source band;
//! - `C`: the same for columns and stacks;
//! - `D`: 9 digits `1-9`, source digit `d` becomes `D[d - 1]`; blanks stay blank.
//!
//! In numpy terms, for a 9×9 array `g` with 0 for blanks:
//! `out = (g.T if T else g)[R][:, C]`, then `out = np.array([0] + D)[out]`.
//! The identity is `0-012345678-012345678-123456789`.

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::Rng;

use crate::grid::{Grid, ORDERS_OF_THREE};

/// The number of isomorphs in the group [`Isomorph`] draws from: transpose (2) × row
/// permutations keeping bands (6 × 6³ = 1296) × column permutations keeping stacks (1296) ×
/// digit relabellings (9! = 362,880) = 1,218,998,108,160. (Distinct transforms; two of them
/// can give the same grid when the grid has an automorphism.)
pub const GROUP_ORDER: u64 = 2 * 1296 * 1296 * 362_880;

/// Length of a [transform code](Isomorph#transform-code) in bytes.
pub const CODE_LEN: usize = 31;

/// Why a text is not a [transform code](Isomorph#transform-code).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not `T-RRRRRRRRR-CCCCCCCCC-DDDDDDDDD` (31 characters, three hyphens).
    #[error("{0:?}: expected a transform code T-RRRRRRRRR-CCCCCCCCC-DDDDDDDDD (31 characters)")]
    Shape(String),
    /// The transpose flag is not `0` or `1`.
    #[error("{0:?}: the transpose flag must be 0 or 1")]
    Transpose(String),
    /// The row (or column) part is not a permutation of 0-8 that keeps bands (stacks) whole.
    #[error(
        "{code:?}: the {part} part is not a permutation of 0-8 that keeps each {group} together"
    )]
    Lines {
        /// The code as given.
        code: String,
        /// `row` or `column`.
        part: &'static str,
        /// `band` or `stack`.
        group: &'static str,
    },
    /// The digit part is not a permutation of 1-9.
    #[error("{0:?}: the digit part is not a permutation of 1-9")]
    Digits(String),
}

/// One symmetry of the Sudoku grid. Applying it to a valid grid gives a valid grid, and to
/// a puzzle gives a puzzle with the same number of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isomorph {
    /// Output row `r` takes source row `rows[r]` (0-based); rows stay within their band.
    pub rows: [usize; 9],
    /// Output column `c` takes source column `cols[c]` (0-based); columns stay within their stack.
    pub cols: [usize; 9],
    /// Digit `d` (1–9) becomes `digits[d - 1]`; 0 (empty) stays 0.
    pub digits: [u8; 9],
    /// Whether rows and columns are swapped before the permutations are read.
    pub transpose: bool,
}

impl Isomorph {
    /// The identity: every cell and digit stays where it is.
    pub const IDENTITY: Isomorph = Isomorph {
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [1, 2, 3, 4, 5, 6, 7, 8, 9],
        transpose: false,
    };

    /// A uniformly random isomorph drawn from `rng`: digits relabelled, bands and stacks
    /// permuted, rows and columns permuted within them, transposed with probability ½.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Isomorph {
        let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        digits.shuffle(rng);
        Isomorph {
            rows: line_permutation(rng),
            cols: line_permutation(rng),
            digits,
            transpose: rng.random_bool(0.5),
        }
    }

    /// The isomorph of rank `index` (taken modulo [`GROUP_ORDER`]): each index below
    /// [`GROUP_ORDER`] gives a different transform, so a uniform index gives a uniform draw
    /// from the group. Mixed radix, least significant first: transpose (2), rows (1296),
    /// columns (1296), digits (9!, Lehmer code).
    pub fn from_index(index: u64) -> Isomorph {
        let mut i = index % GROUP_ORDER;
        let transpose = i % 2 == 1;
        i /= 2;
        let rows = lines_from_index(i % 1296);
        i /= 1296;
        let cols = lines_from_index(i % 1296);
        i /= 1296;
        Isomorph {
            rows,
            cols,
            digits: digits_from_index(i),
            transpose,
        }
    }

    /// The `k`-th isomorph for `key` under `seed`, from a counter-based generator: the same
    /// `(seed, key, k)` gives the same isomorph on any thread, in any order, in any shard.
    /// `augment` keys by the record's 0-based index over the run, `rate` by a hash of the
    /// puzzle's canonical form.
    ///
    /// The draw hashes the three numbers with XXH3-64 (`key` and `k` as little-endian bytes,
    /// `seed` as XXH3's seed) and scales the hash to `0..GROUP_ORDER` by a 128-bit multiply;
    /// the scaling's bias is below `GROUP_ORDER / 2^64` ≈ 7·10⁻⁸ relative. This function is part
    /// of the output format: changing it changes every `augment` output for a given seed.
    pub fn keyed(seed: u64, key: u64, k: u64) -> Isomorph {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&key.to_le_bytes());
        bytes[8..].copy_from_slice(&k.to_le_bytes());
        let h = xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, seed);
        let index = ((u128::from(h) * u128::from(GROUP_ORDER)) >> 64) as u64;
        Isomorph::from_index(index)
    }

    /// Applies the transform to several grids at once (a puzzle and its solution), working
    /// out the source cells once: the same result as [`Isomorph::apply`] on each.
    pub fn apply_all<const N: usize>(&self, grids: [&Grid; N]) -> [Grid; N] {
        // Source cell of output cell (r, c): rows[r] * 9 + cols[c], or with the transpose
        // cols[c] * 9 + rows[r]; the strides are worked out once rather than a cell map
        // built per transform (6% of `augment`'s time).
        let (row_stride, col_stride) = if self.transpose { (1, 9) } else { (9, 1) };
        let col_offsets = self.cols.map(|c| c * col_stride);
        // 16 entries so that a cell masked to 4 bits needs no bounds check; values above 9
        // never occur in a grid and map to 0.
        let mut lut = [0u8; 16];
        lut[1..10].copy_from_slice(&self.digits);
        let mut out = [Grid::EMPTY; N];
        for (r, &sr) in self.rows.iter().enumerate() {
            let base = sr * row_stride;
            for (c, &off) in col_offsets.iter().enumerate() {
                let src = base + off;
                for (o, g) in out.iter_mut().zip(&grids) {
                    o.0[r * 9 + c] = lut[usize::from(g.0[src] & 15)];
                }
            }
        }
        out
    }

    /// Applies the transform to `g` (a puzzle or a solution).
    pub fn apply(&self, g: &Grid) -> Grid {
        let [out] = self.apply_all([g]);
        out
    }

    /// The transform that undoes this one: `self.inverse().apply(&self.apply(g)) == g` for
    /// every grid `g` (and the other way round), e.g. to map a model's answers on isomorphs
    /// back onto the original puzzle.
    ///
    /// Without the transpose, output cell `(r, c)` takes source cell `(R[r], C[c])`, so
    /// the inverse takes the inverse permutations. With it, output `(r, c)` takes source
    /// `(C[c], R[r])`: the inverse is transposed too, with rows `C⁻¹` and columns `R⁻¹`.
    /// The digits map back by the inverse relabelling in both cases.
    ///
    /// # Panics
    /// When the public fields were set by hand to something that is not a permutation
    /// (`rows`/`cols` of 0-8, `digits` of 1-9); every constructor here ([`Isomorph::random`],
    /// [`Isomorph::keyed`], [`Isomorph::from_index`], parsing a code) gives one.
    ///
    /// ```
    /// use sudoku_batch::{Grid, Isomorph};
    /// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
    /// let iso = Isomorph::keyed(7, 0, 3);
    /// assert_eq!(iso.inverse().apply(&iso.apply(&p)), p);
    /// assert_eq!(Isomorph::IDENTITY.inverse(), Isomorph::IDENTITY);
    /// ```
    pub fn inverse(&self) -> Isomorph {
        let invert = |p: &[usize; 9]| {
            let mut out = [0usize; 9];
            for (i, &v) in p.iter().enumerate() {
                out[v] = i;
            }
            out
        };
        let mut digits = [0u8; 9];
        for (i, &d) in self.digits.iter().enumerate() {
            digits[usize::from(d) - 1] = i as u8 + 1;
        }
        let (rows, cols) = if self.transpose {
            (invert(&self.cols), invert(&self.rows))
        } else {
            (invert(&self.rows), invert(&self.cols))
        };
        Isomorph {
            rows,
            cols,
            digits,
            transpose: self.transpose,
        }
    }
}

/// The 6 permutations of three things, in lexicographic order.
const PERM3: [[usize; 3]; 6] = ORDERS_OF_THREE;

/// The row (or column) permutation of rank `i` (0..1296): the band order, then the order
/// within each of the three output bands.
fn lines_from_index(mut i: u64) -> [usize; 9] {
    let bands = PERM3[(i % 6) as usize];
    i /= 6;
    let mut out = [0; 9];
    for (slot, b) in bands.iter().enumerate() {
        let inner = PERM3[(i % 6) as usize];
        i /= 6;
        for (j, k) in inner.iter().enumerate() {
            out[slot * 3 + j] = b * 3 + k;
        }
    }
    out
}

/// The relabelling of rank `i` (0..9!): a Lehmer code, one choice among the digits left
/// at each step.
fn digits_from_index(mut i: u64) -> [u8; 9] {
    let mut left = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    let mut out = [0u8; 9];
    for (slot, n) in (0..9).zip((1..=9u64).rev()) {
        // Take the chosen digit out of the `n` still unused ones, keeping their order.
        let pick = (i % n) as usize;
        i /= n;
        out[slot] = left[pick];
        left.copy_within(pick + 1..n as usize, pick);
    }
    out
}

impl fmt::Display for Isomorph {
    /// The [transform code](Isomorph#transform-code): `T-RRRRRRRRR-CCCCCCCCC-DDDDDDDDD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut code = [b'-'; CODE_LEN];
        self.write_code(&mut code);
        f.write_str(std::str::from_utf8(&code).expect("the code is ASCII"))
    }
}

impl Isomorph {
    /// Writes the [transform code](Isomorph#transform-code) into `out` (no allocation).
    pub fn write_code(&self, out: &mut [u8; CODE_LEN]) {
        out[0] = b'0' + u8::from(self.transpose);
        for (i, part) in [&self.rows, &self.cols].into_iter().enumerate() {
            out[1 + i * 10] = b'-';
            for (o, &v) in out[2 + i * 10..11 + i * 10].iter_mut().zip(part) {
                *o = b'0' + v as u8;
            }
        }
        out[21] = b'-';
        for (o, &d) in out[22..].iter_mut().zip(&self.digits) {
            *o = b'0' + d;
        }
    }
}

impl FromStr for Isomorph {
    type Err = CodeError;

    /// Reads a [transform code](Isomorph#transform-code), checking that each part is a
    /// permutation of the right kind.
    fn from_str(code: &str) -> Result<Isomorph, CodeError> {
        let parts: Vec<&str> = code.split('-').collect();
        let all_digits = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_digit());
        if parts.len() != 4
            || !all_digits(parts[0], 1)
            || !parts[1..].iter().all(|p| all_digits(p, 9))
        {
            return Err(CodeError::Shape(code.to_string()));
        }
        let transpose = match parts[0] {
            "0" => false,
            "1" => true,
            _ => return Err(CodeError::Transpose(code.to_string())),
        };
        let lines = |p: &str, part, group| {
            let mut v = [0usize; 9];
            for (o, b) in v.iter_mut().zip(p.bytes()) {
                *o = usize::from(b - b'0');
            }
            if keeps_groups(&v) {
                Ok(v)
            } else {
                Err(CodeError::Lines {
                    code: code.to_string(),
                    part,
                    group,
                })
            }
        };
        let rows = lines(parts[1], "row", "band")?;
        let cols = lines(parts[2], "column", "stack")?;
        let mut digits = [0u8; 9];
        for (o, b) in digits.iter_mut().zip(parts[3].bytes()) {
            *o = b - b'0';
        }
        let mut sorted = digits;
        sorted.sort_unstable();
        if sorted != [1, 2, 3, 4, 5, 6, 7, 8, 9] {
            return Err(CodeError::Digits(code.to_string()));
        }
        Ok(Isomorph {
            rows,
            cols,
            digits,
            transpose,
        })
    }
}

/// Whether `v` is a permutation of 0-8 that maps each group of three output lines onto the
/// three lines of one source group.
fn keeps_groups(v: &[usize; 9]) -> bool {
    let mut seen = [false; 9];
    for &x in v {
        if x > 8 || seen[x] {
            return false;
        }
        seen[x] = true;
    }
    v.chunks_exact(3)
        .all(|g| g[0] / 3 == g[1] / 3 && g[1] / 3 == g[2] / 3)
}

/// A permutation of the 9 rows (or columns) that keeps each band (stack) together.
fn line_permutation<R: Rng + ?Sized>(rng: &mut R) -> [usize; 9] {
    let mut bands = [0, 1, 2];
    bands.shuffle(rng);
    let mut out = [0; 9];
    for (i, b) in bands.iter().enumerate() {
        let mut inner = [0, 1, 2];
        inner.shuffle(rng);
        for (j, k) in inner.iter().enumerate() {
            out[i * 3 + j] = b * 3 + k;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::P;
    use crate::grid::parse_cells;
    use crate::solver::solve;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn identity_changes_nothing() {
        let p = parse_cells(P.as_bytes()).unwrap();
        assert_eq!(Isomorph::IDENTITY.apply(&p), p);
    }

    #[test]
    fn a_permuted_puzzle_gives_the_permuted_solution() {
        let p = parse_cells(P.as_bytes()).unwrap();
        let s = solve(&p, 2).grid.unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..50 {
            let iso = Isomorph::random(&mut rng);
            let (ip, is) = (iso.apply(&p), iso.apply(&s));
            assert!(is.is_complete_valid() && is.keeps_givens(&ip));
            assert_eq!(ip.clues(), p.clues());
            let found = solve(&ip, 2);
            assert_eq!(found.count, 1);
            assert_eq!(found.grid, Some(is));
        }
    }

    #[test]
    fn every_index_gives_a_different_valid_transform() {
        // The row part: all 1296 ranks distinct and band-preserving.
        let all: std::collections::HashSet<[usize; 9]> = (0..1296).map(lines_from_index).collect();
        assert_eq!(all.len(), 1296);
        assert!(all.iter().all(keeps_groups));
        // The digit part: all 9! ranks distinct permutations.
        let digits: std::collections::HashSet<[u8; 9]> =
            (0..362_880).map(digits_from_index).collect();
        assert_eq!(digits.len(), 362_880);
        assert_eq!(Isomorph::from_index(0), Isomorph::IDENTITY);
        assert_eq!(Isomorph::from_index(GROUP_ORDER), Isomorph::IDENTITY);
    }

    #[test]
    fn codes_round_trip_and_describe_the_transform() {
        assert_eq!(
            Isomorph::IDENTITY.to_string(),
            "0-012345678-012345678-123456789"
        );
        let p = parse_cells(P.as_bytes()).unwrap();
        for k in 0..200 {
            let iso = Isomorph::keyed(42, 7, k);
            let code = iso.to_string();
            assert_eq!(code.len(), CODE_LEN);
            let back: Isomorph = code.parse().unwrap();
            assert_eq!(back, iso);
            assert_eq!(iso.apply_all([&p])[0], iso.apply(&p));
        }
        // The documented reading, cell by cell: out[r][c] = D[g'[R[r]][C[c]]], g' = transpose.
        let iso: Isomorph = "1-210453678-012345867-931246578".parse().unwrap();
        let out = iso.apply(&p);
        let (rows, cols) = ([2, 1, 0, 4, 5, 3, 6, 7, 8], [0, 1, 2, 3, 4, 5, 8, 6, 7]);
        let digits = [9, 3, 1, 2, 4, 6, 5, 7, 8];
        for (r, &sr) in rows.iter().enumerate() {
            for (c, &sc) in cols.iter().enumerate() {
                let src = p.0[sc * 9 + sr];
                let want = if src == 0 {
                    0
                } else {
                    digits[usize::from(src) - 1]
                };
                assert_eq!(out.0[r * 9 + c], want);
            }
        }
    }

    #[test]
    fn bad_codes_are_refused_with_the_reason() {
        let bad = [
            ("0-012345678-012345678-12345678", "31 characters"),
            ("2-012345678-012345678-123456789", "transpose flag"),
            ("0-013245678-012345678-123456789", "keeps each band"),
            ("0-012345678-012345688-123456789", "keeps each stack"),
            ("0-012345678-012345678-123456788", "permutation of 1-9"),
            ("0-012345678-012345678-023456789", "permutation of 1-9"),
            ("0 012345678-012345678-123456789", "31 characters"),
        ];
        for (code, why) in bad {
            let e = code.parse::<Isomorph>().unwrap_err();
            assert!(e.to_string().contains(why), "{code}: {e}");
        }
    }

    #[test]
    fn keyed_draws_depend_on_every_part_of_the_key() {
        let a = Isomorph::keyed(1, 2, 3);
        assert_eq!(a, Isomorph::keyed(1, 2, 3));
        assert_ne!(a, Isomorph::keyed(0, 2, 3));
        assert_ne!(a, Isomorph::keyed(1, 0, 3));
        assert_ne!(a, Isomorph::keyed(1, 2, 0));
        // Every part of the group is reached: both transpose values, and every digit in
        // every position over a few thousand draws.
        let draws: Vec<Isomorph> = (0..5000).map(|k| Isomorph::keyed(9, 1, k)).collect();
        let transposed = draws.iter().filter(|i| i.transpose).count();
        assert!((2000..3000).contains(&transposed), "{transposed}");
        for pos in 0..9 {
            for d in 1..=9u8 {
                assert!(draws.iter().any(|i| i.digits[pos] == d));
            }
        }
    }

    #[test]
    fn same_seed_same_isomorph() {
        let a = Isomorph::random(&mut ChaCha8Rng::seed_from_u64(1));
        let b = Isomorph::random(&mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(a, b);
    }
}
