//! Clue removal and minimality: from a solution grid to a puzzle with exactly one solution.
//!
//! The givens are tried for removal an orbit at a time (one cell without `--symmetry`) in
//! an order drawn from the candidate's stream; an orbit stays removed when the puzzle is
//! still unique without it (our solver counting to 2, or for one cell [`unique_without`]).
//! Uniqueness only gets harder to keep as givens go, so an orbit that cannot be removed at
//! its turn cannot be removed later either: after one pass no single orbit is removable.
//!
//! The pass tests orbits in groups ([`dig`]): when the puzzle stays unique without the next
//! `k` orbits, each of them would also have been removed one at a time (every puzzle on the
//! way has more givens than the one tested), so the group is removed with one solve; when
//! it does not, the group is halved. This gives exactly the puzzle of the one-at-a-time pass
//! with fewer solves: groups grow while removals succeed (the first half of the pass) and
//! shrink to single orbits where most fail. A failed test whose solver returned a solution
//! other than the grid's keeps it as a [`Witness`]: a later test whose blanks cover the
//! cells where the two differ fails without a solve.
//!
//! [`is_minimal_with`] checks the finished puzzle given by given, against the puzzle
//! itself: each given is shown needed by a second solution of the puzzle without it (a
//! witness, checked complete, valid and keeping the other givens) or by a solve. What
//! `--minimal` keeps is checked, not inferred from the pass.

use crate::grid::Grid;
use crate::solver::solve;

/// Largest group of orbits removed with one solve.
const MAX_GROUP: usize = 16;

/// The group the pass starts with: the first removals from a full grid almost always keep
/// it unique.
const FIRST_GROUP: usize = 32;

/// A second solution that a failed test found: it agrees with the solution outside
/// `diff`, so every puzzle whose blanks cover `diff` has it as a solution too, and is not
/// unique. Later tests and the minimality check use it instead of a solve.
#[derive(Clone, Copy, Debug)]
pub struct Witness {
    /// Cells (bit `i` = cell `i`) where `grid` differs from the solution.
    pub diff: u128,
    /// The other solution.
    pub grid: Grid,
}

/// A dug puzzle and what digging it took.
#[derive(Clone, Debug)]
pub struct Dug {
    /// The puzzle: unique, every orbit tried once.
    pub puzzle: Grid,
    /// Solver calls made.
    pub solves: u32,
    /// Second solutions the failed tests found.
    pub witnesses: Vec<Witness>,
    /// The blank cells of `puzzle` (bit `i` = cell `i`), kept as cells are opened.
    blank: u128,
}

/// Bit mask of the blank cells of `g`.
fn blanks(g: &Grid) -> u128 {
    cell_mask(|c| g.0[c] == 0)
}

/// Whether `puzzle` has exactly one solution (our solver, counting to 2).
pub fn is_unique(puzzle: &Grid) -> bool {
    solve(puzzle, 2).count == 1
}

impl Dug {
    /// Whether `trial` (some of `solution`'s givens) is unique: false at once when a known
    /// witness solves it, else by a solve, whose second solution, if the solver returned it,
    /// is kept as a witness.
    ///
    /// A trial that blanks one cell more than the (unique) puzzle dug so far is decided by
    /// [`unique_without`], whose second solution, if any, is always a witness.
    /// `opened`: the cells `trial` blanks that the puzzle gives (bit `i` = cell `i`).
    fn unique(&mut self, trial: &Grid, opened: u128, solution: &Grid) -> bool {
        let blank = self.blank | opened;
        if self.witnesses.iter().any(|w| w.diff & !blank == 0) {
            return false;
        }
        let second = if opened.count_ones() == 1 {
            let (solves, second) =
                unique_without(&self.puzzle, solution, opened.trailing_zeros() as usize);
            self.solves += solves;
            if second.is_none() {
                return true;
            }
            second
        } else {
            self.solves += 1;
            let found = solve(trial, 2);
            if found.count == 1 {
                return true;
            }
            found.grid.filter(|g| g != solution)
        };
        if let Some(grid) = second {
            self.witnesses.push(Witness {
                diff: differing(&grid, solution),
                grid,
            });
        }
        false
    }
}

/// Cells (bit `i` = cell `i`) where `a` and `b` differ.
fn differing(a: &Grid, b: &Grid) -> u128 {
    cell_mask(|c| a.0[c] != b.0[c])
}

/// The cells (bit `i` = cell `i`) where `pred` holds. Built in two 64-bit halves, without
/// branches: a shift of a `u128` by a variable amount costs a branch or a select on every
/// cell, and the dig builds a mask for every second solution it finds.
fn cell_mask(pred: impl Fn(usize) -> bool) -> u128 {
    let (mut lo, mut hi) = (0u64, 0u64);
    for c in 0..64 {
        lo |= u64::from(pred(c)) << c;
    }
    for c in 64..81 {
        hi |= u64::from(pred(c)) << (c - 64);
    }
    u128::from(hi) << 64 | u128::from(lo)
}

/// Whether the unique `puzzle`, whose solution is `solution`, stays unique without its
/// given at `cell`: `None` when it does, else a second solution. Another solution of the
/// puzzle without that given must differ from `solution` at `cell` (agreeing there, it
/// would solve `puzzle` itself), so each other digit that the cell's given peers allow is
/// tried in the cell with a first-solution solve. That spares the search of `solution`'s
/// own branch, which counting the puzzle's solutions to 2 walks in full. Returns the
/// solver calls made too.
pub fn unique_without(puzzle: &Grid, solution: &Grid, cell: usize) -> (u32, Option<Grid>) {
    let mut taken = 1u16 << solution.0[cell];
    for &p in &crate::grid::PEERS[cell] {
        taken |= 1 << puzzle.0[usize::from(p)];
    }
    let mut solves = 0;
    for d in (1..=9u8).filter(|&d| taken & 1 << d == 0) {
        let mut trial = *puzzle;
        trial.0[cell] = d;
        solves += 1;
        if let Some(grid) = solve(&trial, 1).grid {
            return (solves, Some(grid));
        }
    }
    (solves, None)
}

/// Longest cycle [`two_line_sets`] keeps: longer ones (up to 18 cells) seldom decide a test
/// (6: 38.6 solver calls a minimal puzzle, 9: 38.5, 3: 39.7).
const MAX_CYCLE: usize = 6;

/// Unavoidable sets of `solution` on two lines as witnesses. Take two rows of one band:
/// digit `d` at column `c` of the first row has `e` below it in the second, and `d -> e`
/// is a permutation of the digits. The columns of one of its cycles hold the same digits
/// in both rows, so swapping the two rows there gives another valid grid (each column and
/// box keeps its digits): a puzzle with all those cells blank is not unique. A 2-cycle is
/// the four-cell rectangle, the commonest reason a late removal fails. The same for two
/// columns of one stack. Cycles up to 6 long (the private `MAX_CYCLE`).
pub fn two_line_sets(solution: &Grid) -> Vec<Witness> {
    let mut found = Vec::with_capacity(64);
    // Cell (line, k) of rows (`by_row`) or of columns.
    let cell =
        |by_row: bool, line: usize, k: usize| if by_row { line * 9 + k } else { k * 9 + line };
    for by_row in [true, false] {
        for l1 in 0..9 {
            for l2 in l1 + 1..(l1 / 3 + 1) * 3 {
                let at = |line: usize, k: usize| solution.0[cell(by_row, line, k)];
                let mut place = [0usize; 10];
                (0..9).for_each(|k| place[usize::from(at(l1, k))] = k);
                let mut seen = [false; 9];
                for start in 0..9 {
                    // A cycle has at most 9 columns: a fixed array, no allocation per cycle.
                    let (mut cycle, mut len) = ([0usize; 9], 0);
                    let mut k = start;
                    while !seen[k] {
                        seen[k] = true;
                        cycle[len] = k;
                        len += 1;
                        k = place[usize::from(at(l2, k))];
                    }
                    if !(2..=MAX_CYCLE).contains(&len) {
                        continue;
                    }
                    let mut grid = *solution;
                    let mut diff = 0u128;
                    for &k in &cycle[..len] {
                        let (x, y) = (cell(by_row, l1, k), cell(by_row, l2, k));
                        grid.0.swap(x, y);
                        diff |= 1 << x | 1 << y;
                    }
                    found.push(Witness { diff, grid });
                }
            }
        }
    }
    found
}

/// Removes from `solution` the orbits of `order`, in that order, each when the puzzle
/// stays unique without it and keeps at least `min_clues` givens (see the module docs).
/// `order`: orbits of cells (0-based, row-major) that partition some of the cells; cells
/// in no orbit stay given.
pub fn dig(solution: &Grid, order: &[&[u8]], min_clues: u32) -> Dug {
    let mut dug = Dug {
        puzzle: *solution,
        solves: 0,
        witnesses: two_line_sets(solution),
        blank: blanks(solution),
    };
    let mut clues = solution.clues();
    let mut group = FIRST_GROUP;
    let mut i = 0;
    while i < order.len() {
        // The longest prefix of the next `group` orbits that keeps `min_clues` givens.
        let (mut take, mut removed) = (0, 0);
        for orbit in order[i..].iter().take(group) {
            if clues - removed < min_clues + orbit.len() as u32 {
                break;
            }
            removed += orbit.len() as u32;
            take += 1;
        }
        if take == 0 {
            // This orbit alone would go below `min_clues`: it stays.
            i += 1;
            continue;
        }
        let mut trial = dug.puzzle;
        let mut opened = 0u128;
        for orbit in &order[i..i + take] {
            for &c in *orbit {
                trial.0[usize::from(c)] = 0;
                opened |= 1 << c;
            }
        }
        if dug.unique(&trial, opened, solution) {
            dug.puzzle = trial;
            dug.blank |= opened;
            clues -= removed;
            i += take;
            group = (group * 2).min(MAX_GROUP);
        } else if take == 1 {
            i += 1;
            group = 1;
        } else {
            group = take / 2;
        }
    }
    dug
}

/// The first given (0-based cell) whose removal leaves `puzzle` unique, or `None` when
/// every given is needed; `puzzle` is taken to be unique.
pub fn removable_given(puzzle: &Grid) -> Option<usize> {
    (0..81).filter(|&c| puzzle.0[c] != 0).find(|&c| {
        let mut less = *puzzle;
        less.0[c] = 0;
        is_unique(&less)
    })
}

/// Whether the unique `puzzle` is minimal: no single given can be removed with the
/// puzzle staying unique (each given checked on this puzzle).
pub fn is_minimal(puzzle: &Grid) -> bool {
    removable_given(puzzle).is_none()
}

/// [`is_minimal`] for a puzzle dug from `solution`, with the witnesses of its dig: a
/// given is shown needed by a witness that is checked to be a second solution of the
/// puzzle without it (complete, valid, keeping every other given, not `solution`), else by
/// [`unique_without`]'s solves. Returns the answer and the solves made.
pub fn is_minimal_with(puzzle: &Grid, solution: &Grid, witnesses: &[Witness]) -> (bool, u32) {
    let mut solves = 0;
    let blank = blanks(puzzle);
    for c in (0..81).filter(|&c| puzzle.0[c] != 0) {
        let mut less = *puzzle;
        less.0[c] = 0;
        let open = blank | 1 << c;
        let shown = witnesses.iter().any(|w| {
            w.diff & !open == 0
                && w.grid != *solution
                && w.grid.is_complete_valid()
                && w.grid.keeps_givens(&less)
        });
        if shown {
            continue;
        }
        let (made, second) = unique_without(puzzle, solution, c);
        solves += made;
        if second.is_none() {
            return (false, solves);
        }
    }
    (true, solves)
}

#[cfg(test)]
mod tests {
    use super::super::draw::Draw;
    use super::super::sample::random_solution;
    use super::super::symmetry::Symmetry;
    use super::*;

    /// The one-at-a-time pass the groups must reproduce.
    fn one_at_a_time(solution: &Grid, order: &[&[u8]], min_clues: u32) -> Grid {
        let mut p = *solution;
        for orbit in order {
            if p.clues() < min_clues + orbit.len() as u32 {
                continue;
            }
            let mut t = p;
            orbit.iter().for_each(|&c| t.0[usize::from(c)] = 0);
            if solve(&t, 2).count == 1 {
                p = t;
            }
        }
        p
    }

    #[test]
    fn groups_give_the_one_at_a_time_puzzle() {
        for (seed, sym, min) in [
            (1, Symmetry::None, 0),
            (2, Symmetry::None, 30),
            (3, Symmetry::Rotate180, 0),
            (4, Symmetry::Rotate90, 0),
            (5, Symmetry::Full, 25),
        ] {
            let mut draw = Draw::new(seed);
            let solution = random_solution(&mut draw);
            let orbits = sym.orbits();
            let mut order: Vec<&[u8]> = orbits.iter().map(Vec::as_slice).collect();
            draw.shuffle(&mut order);
            let dug = dig(&solution, &order, min);
            let (p, solves) = (dug.puzzle, dug.solves);
            assert_eq!(p, one_at_a_time(&solution, &order, min), "seed {seed}");
            if sym == Symmetry::None {
                // Groups save solves where the one-at-a-time pass makes one per cell.
                assert!(solves < 81, "{solves} solves");
            }
            assert!(p.clues() >= min && sym.holds(&p.0));
            assert!(solution.keeps_givens(&p));
            let sets = two_line_sets(&solution);
            assert!(!sets.is_empty());
            for w in sets {
                assert!(w.grid.is_complete_valid(), "{:?}", w.grid);
                let differ = (0..81).filter(|&c| w.grid.0[c] != solution.0[c]).count();
                assert_eq!(differ as u32, w.diff.count_ones());
                assert!((4..=12).contains(&differ));
            }
            if min == 0 && sym == Symmetry::None {
                assert!(is_minimal(&p));
                assert!(is_minimal_with(&p, &solution, &dug.witnesses).0);
            }
        }
    }
}
