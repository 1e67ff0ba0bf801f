//! The fast solver: band-oriented bitboard propagation (box/line interactions and singles,
//! and, once the puzzle has made `HARD_AFTER_GUESSES` guesses, stack logic; see `state.rs`),
//! then depth-first guesses on a two-candidate cell (when there are few, or once the puzzle
//! has made `HARD_AFTER_GUESSES` guesses, the one with the most unfixed peers), counting
//! solutions up to a limit. Candidates are tried in ascending digit order; the last one of
//! a cell is placed in the parent state without a copy.
//!
//! Propagation runs from one of three copies, the kernel ([`Kernel`]): the candidates kept
//! in AVX-512 registers, or in AVX2 registers, or the portable code. The
//! fastest this CPU has is chosen at run time unless [`KERNEL_VAR`] names one
//! ([`kernel()`] says which runs); all give the same guesses and solutions.
//!
//! Everything lives on the stack: a `state::State` is `Copy` and each guess works on a
//! copy, so solving allocates nothing on the heap and is safe to run on any rayon worker.

mod kernel;
pub mod reference;
pub(crate) mod state;
mod tables;

pub use kernel::{kernel_from_env, parse_kernel, select_kernel, Kernel, KernelError, KERNEL_VAR};

use crate::grid::Grid;
use state::{Branch, Logic, State};

/// What the solver found for one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Solutions found, counted up to the limit passed to [`solve`] (so `0..=limit`).
    pub count: u32,
    /// The first solution found, if any: a complete grid that keeps every given.
    pub grid: Option<Grid>,
    /// Guesses made: tentative placements at branch points, not counting the last
    /// candidate of a cell (which is forced once the others failed). A branch point is a
    /// cell chosen once propagation stalls (almost always one with two candidates, so one
    /// guess); 0 means propagation alone solved the puzzle or proved it unsolvable.
    pub guesses: u32,
    /// Two givens with the same digit share a unit (then `count` and `guesses` are 0).
    /// Found while placing the givens, at no extra cost: a given whose cell a peer given
    /// already ruled out. [`Grid::conflicts`] names the clash.
    pub givens_clash: bool,
}

/// Which copy of the propagation the solver runs ([`Kernel::name`]): `avx512` (the
/// candidate boards held in AVX-512 registers), `avx2` (held in AVX2 registers) or
/// `portable`; the fastest this CPU has (checked at run time)
/// unless [`KERNEL_VAR`] names another. All make the same guesses and find the same
/// solutions; benchmark reports record it
/// ([`crate::bench::provenance::Provenance::solver_kernel`]).
pub fn kernel() -> &'static str {
    kernel::active().name()
}

/// After this many guesses in one puzzle, the search is a hard one and propagation does
/// more at each stall: [`State::propagate`] scores every two-candidate cell for the
/// branch, not only when there are at most [`state::BUSIEST_MAX_PAIRS`]
/// (fewer guesses on forum_hardest, and faster in both modes), and runs the stack logic
/// (columns against boxes, all digits at once: fewer guesses again, and fewer
/// instructions). serg_benchmark's puzzles, a few guesses each, mostly end before it and
/// stay level; the figures are in `docs/notes/solver-history.md`.
const HARD_AFTER_GUESSES: u32 = 8;

/// A search whose root stalls with at least this many open cells, and at most
/// [`CONFIG_SEARCH_PAIRS`] bivalue cells, searches as tdoku's does: the stack logic and
/// the triad rules at every stall, and a split on a digit's configurations in a band or
/// stack ([`State::split_at`]) instead of a guess on a cell. forum_hardest's puzzles stall
/// with 44-61 open cells (median 57), serg_benchmark's with 31-47 (median 44), whose few
/// guesses would not pay for the extra logic. On forum_hardest this cuts the guesses per
/// puzzle by about a quarter in both modes, and with the two rules that send some stalls
/// back to a cell ([`CELL_FIRST_PAIRS`], and a loose unit at a split stall) brings them to
/// tdoku's; a higher gate lets hard roots through to the cell search, which guesses more
/// (`docs/notes/solver-history.md`).
const CONFIG_SEARCH_OPEN: u32 = 50;

/// The most bivalue cells a root's stall may have for the configuration search. The
/// split's guesses vary less than the cell branch's, so it loses on the puzzles that the
/// busiest bivalue cell solves in a few guesses, which tend to have many bivalue cells;
/// forum_hardest's roots have about one on average.
const CONFIG_SEARCH_PAIRS: u32 = 6;

/// A root that takes the configuration search with at least this many bivalue cells
/// guesses first on its busiest one, as the cell search does, and searches on
/// configurations below. Most of what the split lost on top1465 against the cell search
/// came from its roots where that cell's first candidate fails or solves at once, most of
/// them with this many bivalue cells or more. forum_hardest's roots rarely have as many,
/// so its guesses stay level; a gate of 3 costs it guesses (`docs/notes/solver-history.md`).
const CELL_FIRST_PAIRS: u32 = 4;

/// How a search branches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branching {
    /// On cells, until the root stalls.
    Root,
    /// On configurations (cells where no unit is left to split, or the tightest is loose
    /// and the stall has a bivalue cell).
    Configs,
    /// On cells.
    Cells,
}

/// A search with kernel `K` (a [`Kernel`]'s code), which the CPU runs.
struct Search<const K: u8> {
    limit: u32,
    count: u32,
    first: Option<Grid>,
    guesses: u32,
    branching: Branching,
}

/// Solves `puzzle`, counting solutions up to `limit` (at least 1).
///
/// `limit = 1` stops at the first solution (fastest); `limit = 2` tells a unique puzzle
/// from a non-unique one. A puzzle whose givens conflict has 0 solutions and
/// [`Solution::givens_clash`] set, so callers that tell "invalid" from "unsolvable" need no
/// conflict check of their own on the common path.
pub fn solve(puzzle: &Grid, limit: u32) -> Solution {
    solve_as(puzzle, limit, kernel::active())
}

/// [`solve`] with the given kernel instead of the active one (for tests and measurements
/// that compare kernels in one process); the same [`Solution`] from every kernel.
///
/// # Errors
/// [`KernelError::Unsupported`] when this CPU cannot run `kernel`.
pub fn solve_with(puzzle: &Grid, limit: u32, kernel: Kernel) -> Result<Solution, KernelError> {
    if !kernel.available() {
        return Err(KernelError::Unsupported(kernel));
    }
    Ok(solve_as(puzzle, limit, kernel))
}

/// [`solve`] with `kernel`, which the caller has checked this CPU runs.
#[inline(always)]
fn solve_as(puzzle: &Grid, limit: u32, kernel: Kernel) -> Solution {
    match kernel {
        Kernel::Portable => solve_k::<{ kernel::PORTABLE }>(puzzle, limit),
        Kernel::Avx2 => solve_k::<{ kernel::AVX2 }>(puzzle, limit),
        Kernel::Avx512 => solve_k::<{ kernel::AVX512 }>(puzzle, limit),
    }
}

fn solve_k<const K: u8>(puzzle: &Grid, limit: u32) -> Solution {
    let mut search = Search::<K> {
        limit: limit.max(1),
        count: 0,
        first: None,
        guesses: 0,
        branching: Branching::Root,
    };
    // Searched in place: moving the state out of the `Result` would copy it once more
    // per puzzle.
    let mut start = State::from_givens_k::<K>(&puzzle.0);
    let givens_clash = match &mut start {
        Ok(state) => {
            search.explore(state);
            false
        }
        Err(_) => true,
    };
    Solution {
        count: search.count,
        grid: search.first,
        guesses: search.guesses,
        givens_clash,
    }
}

/// Number of solutions of `puzzle`, counted up to `limit` (at least 1): `0..=limit`, the
/// [`solve`] count without the solution. `count(p, 2) == 1` means `p` has exactly one
/// solution; a puzzle whose givens clash has 0.
///
/// ```
/// use sudoku_batch::{count, Grid};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// assert_eq!(count(&p, 2), 1);
/// assert_eq!(count(&Grid::EMPTY, 5), 5);
/// ```
pub fn count(puzzle: &Grid, limit: u32) -> u32 {
    solve(puzzle, limit).count
}

impl<const K: u8> Search<K> {
    /// Propagates `state` and searches below it, working on it in place (the caller passes
    /// a copy it no longer needs). Returns `true` once the limit is reached.
    fn explore(&mut self, state: &mut State) -> bool {
        loop {
            let configs = self.branching == Branching::Configs;
            let (max_pairs, logic) = if configs {
                // A cell where no unit is left to split or the tightest is loose: the
                // busiest bivalue cell, as below.
                (state::BUSIEST_MAX_PAIRS, Logic::Triads)
            } else if self.guesses >= HARD_AFTER_GUESSES {
                (u32::MAX, Logic::Stacks)
            } else {
                (state::BUSIEST_MAX_PAIRS, Logic::Band)
            };
            let settled = state.propagate_k::<K>(max_pairs, logic);
            let branch = match settled {
                Err(_) => return false,
                Ok(Some(branch)) => branch,
                Ok(None) => {
                    self.count += 1;
                    if self.first.is_none() {
                        self.first = Some(Grid(state.solved_digits()));
                    }
                    return self.count >= self.limit;
                }
            };
            if self.branching == Branching::Root {
                self.branching = Branching::Cells;
                if let Branch::Cell { pairs, .. } = branch {
                    if pairs <= CONFIG_SEARCH_PAIRS && state.open_cells() >= CONFIG_SEARCH_OPEN {
                        self.branching = Branching::Configs;
                        if pairs < CELL_FIRST_PAIRS {
                            // Propagate again with the triad rules before the first split.
                            continue;
                        }
                        // Else the guess on the root's cell, and configurations below it.
                    }
                }
            }
            let (cell, mut digits) = match branch {
                Branch::Split(at) => {
                    let split = state.split_at(at);
                    self.guesses += 1;
                    let mut child = *state;
                    child.take(&split, 0);
                    if self.explore(&mut child) {
                        return true;
                    }
                    state.take(&split, 1);
                    continue;
                }
                Branch::Cell { cell, digits, .. } => (cell, digits),
            };
            loop {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if digits == 0 {
                    // The last candidate is forced: go on with this state, no copy.
                    if state.assign(d, cell).is_err() {
                        return false;
                    }
                    break;
                }
                self.guesses += 1;
                let mut child = *state;
                if child.assign(d, cell).is_ok() && self.explore(&mut child) {
                    return true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_cells;

    fn grid(s: &str) -> Grid {
        parse_cells(s.as_bytes()).unwrap()
    }

    #[test]
    fn solves_a_unique_puzzle_and_keeps_givens() {
        let p = grid(crate::grid::fixtures::P);
        let s = solve(&p, 2);
        assert_eq!(s.count, 1);
        let g = s.grid.unwrap();
        assert!(g.is_complete_valid());
        assert!(g.keeps_givens(&p));
    }

    #[test]
    fn empty_grid_stops_at_the_limit() {
        for limit in [1, 2, 5] {
            let s = solve(&Grid::EMPTY, limit);
            assert_eq!(s.count, limit);
            assert!(s.grid.unwrap().is_complete_valid());
        }
    }

    /// Issue 14: a branching rule tried there (one digit's placements in a band or stack,
    /// chosen as tdoku does) ran for hours on the empty grid. Bounds with some headroom
    /// over what the search makes now (50, 50 and 54 guesses).
    #[test]
    fn empty_grid_needs_few_guesses() {
        for (limit, most) in [(1, 60), (2, 60), (5, 70)] {
            let s = solve(&Grid::EMPTY, limit);
            assert_eq!(s.count, limit);
            assert!(s.guesses <= most, "limit {limit}: {} guesses", s.guesses);
        }
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut g = Grid::EMPTY;
        g.0[0] = 1;
        g.0[1] = 1;
        let s = solve(&g, 2);
        assert_eq!(s.count, 0);
        assert!(s.givens_clash);
        // Same digit in a column, in different bands: caught through the column masks.
        let mut g = Grid::EMPTY;
        g.0[4] = 7;
        g.0[76] = 7;
        assert!(solve(&g, 2).givens_clash);
        assert!(!solve(&Grid::EMPTY, 2).givens_clash);
    }

    /// xorshift64*: a tiny deterministic generator, so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() >> 33) as usize % n
        }

        fn shuffle<T>(&mut self, v: &mut [T]) {
            for i in (1..v.len()).rev() {
                v.swap(i, self.below(i + 1));
            }
        }
    }

    /// A random solution grid: the solver's grid for the empty puzzle, put through the
    /// validity-preserving symmetries (digit relabelling, rows within bands, bands, columns
    /// within stacks, stacks, transposition).
    fn random_solution(rng: &mut Rng) -> Grid {
        let base = solve(&Grid::EMPTY, 1).grid.unwrap();
        let mut digits: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut digits);
        let mut lines = [[0usize; 9]; 2];
        for line in &mut lines {
            let mut bands = [0, 1, 2];
            rng.shuffle(&mut bands);
            let mut k = 0;
            for b in bands {
                let mut inner = [0, 1, 2];
                rng.shuffle(&mut inner);
                for r in inner {
                    line[k] = 3 * b + r;
                    k += 1;
                }
            }
        }
        let transpose = rng.below(2) == 1;
        let mut g = Grid::EMPTY;
        for r in 0..9 {
            for c in 0..9 {
                let (sr, sc) = (lines[0][r], lines[1][c]);
                let (sr, sc) = if transpose { (sc, sr) } else { (sr, sc) };
                g.0[9 * r + c] = digits[usize::from(base.0[9 * sr + sc] - 1)];
            }
        }
        assert!(g.is_complete_valid());
        g
    }

    /// `solution` with only `keep` random cells left as givens.
    fn dig(rng: &mut Rng, solution: &Grid, keep: usize) -> Grid {
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        let mut p = Grid::EMPTY;
        for &c in &cells[..keep] {
            p.0[c] = solution.0[c];
        }
        p
    }

    /// Adds a given at an empty cell that differs from `solution` there and clashes with no
    /// given: the puzzle stays conflict-free but often loses every solution.
    fn spoil(rng: &mut Rng, puzzle: &Grid, solution: &Grid) -> Grid {
        let mut p = *puzzle;
        for _ in 0..1000 {
            let c = rng.below(81);
            let d = 1 + rng.below(9) as u8;
            if p.0[c] != 0 || solution.0[c] == d {
                continue;
            }
            p.0[c] = d;
            if p.conflicts().is_none() {
                return p;
            }
            p.0[c] = 0;
        }
        p
    }

    /// Checks `solve` against the reference oracle for limits 1, 2 and 3.
    fn check_against_reference(p: &Grid) -> u32 {
        let mut guesses = 0;
        let (count3, _) = reference::count_solutions(p, 3);
        for limit in 1..=3 {
            let fast = solve(p, limit);
            assert_eq!(fast.givens_clash, p.has_conflict(), "{p}");
            let count = count3.min(limit);
            assert_eq!(fast.count, count, "limit {limit}: {p}");
            match fast.grid {
                Some(g) => {
                    assert!(g.is_complete_valid(), "{p} -> {g}");
                    assert!(g.keeps_givens(p), "{p} -> {g}");
                }
                None => assert_eq!(count, 0, "{p}"),
            }
            // A higher limit continues the same search, so it never guesses less.
            assert!(fast.guesses >= guesses, "{p}");
            guesses = fast.guesses;
        }
        solve(p, 3).count
    }

    #[test]
    fn random_puzzles_agree_with_the_reference() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut seen = [0usize; 4];
        // The reference oracle is slow in debug builds: mostly 34-57 givens, a few sparser.
        for n in 0..240 {
            let solution = random_solution(&mut rng);
            let keep = if n % 12 == 0 { 24 } else { 34 } + rng.below(24);
            let puzzle = dig(&mut rng, &solution, keep);
            let count = check_against_reference(&puzzle);
            assert!(count >= 1, "{puzzle}");
            seen[count as usize] += 1;
            if n % 2 == 0 {
                let spoilt = spoil(&mut rng, &puzzle, &solution);
                seen[check_against_reference(&spoilt) as usize] += 1;
            }
        }
        // The generator must exercise every outcome: none, unique, several.
        eprintln!("solution counts 0, 1, 2, 3+: {seen:?}");
        assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
    }

    /// Sparse puzzles (20-27 givens, most with many solutions) split on configurations,
    /// their roots stalling with many open cells and few bivalue cells (some guess first on
    /// a cell, with [`CELL_FIRST_PAIRS`] bivalue cells or more): the counts up to 1..=5
    /// agree with the reference, so no split loses or repeats a solution.
    #[test]
    fn configuration_splits_keep_every_solution_once() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let (mut split, mut cell_first, mut several) = (0, 0, 0);
        for _ in 0..60 {
            let solution = random_solution(&mut rng);
            let keep = 20 + rng.below(8);
            let puzzle = dig(&mut rng, &solution, keep);
            let mut root = State::from_givens(&puzzle.0).unwrap();
            let stalls = root
                .propagate(state::BUSIEST_MAX_PAIRS, Logic::Band)
                .unwrap();
            if let Some(Branch::Cell { pairs, .. }) = stalls {
                if root.open_cells() >= CONFIG_SEARCH_OPEN && pairs <= CONFIG_SEARCH_PAIRS {
                    split += usize::from(pairs < CELL_FIRST_PAIRS);
                    cell_first += usize::from(pairs >= CELL_FIRST_PAIRS);
                }
            }
            let (want, _) = reference::count_solutions(&puzzle, 5);
            several += usize::from(want >= 5);
            for limit in 1..=5 {
                let got = solve(&puzzle, limit);
                assert_eq!(got.count, want.min(limit), "limit {limit}: {puzzle}");
                let grid = got.grid.unwrap();
                assert!(grid.is_complete_valid() && grid.keeps_givens(&puzzle));
            }
        }
        assert!(
            split >= 15 && cell_first >= 8,
            "of 60 searches, {split} split on configurations at the root, {cell_first} guess \
             on a cell first"
        );
        assert!(
            several >= 20,
            "only {several} of 60 puzzles with 5+ solutions"
        );
    }

    /// Every kernel this CPU runs gives the portable kernel's [`Solution`] (solution
    /// count, first solution, guesses, clash flag) for limits 1, 2 and 3, on random puzzles
    /// from sparse (many solutions, configuration splits) to dense, spoilt ones (no
    /// solution, conflicting givens) and the hard puzzles of the state tests.
    #[test]
    fn every_kernel_solves_as_the_portable_one() {
        let kernels = Kernel::available_kernels();
        eprintln!("kernels compared with the portable one: {kernels:?}");
        let mut rng = Rng(0x5851_F42D_4C95_7F2D);
        let mut puzzles: Vec<Grid> = state::tests::HARD.iter().map(|l| grid(l)).collect();
        for n in 0..300 {
            let solution = random_solution(&mut rng);
            let keep = 17 + rng.below(40);
            let puzzle = dig(&mut rng, &solution, keep);
            puzzles.push(puzzle);
            if n % 3 == 0 {
                puzzles.push(spoil(&mut rng, &puzzle, &solution));
            }
            if n % 10 == 0 {
                let mut clash = puzzle;
                let c = (0..81).find(|&c| clash.0[c] == 0).unwrap_or(0);
                clash.0[c] = clash.0[(c / 9) * 9..(c / 9) * 9 + 9]
                    .iter()
                    .copied()
                    .find(|&d| d != 0)
                    .unwrap_or(1);
                puzzles.push(clash);
            }
        }
        let (mut counts, mut clashes, mut guessed) = ([0usize; 4], 0, 0);
        for p in &puzzles {
            for limit in 1..=3 {
                let want = solve_with(p, limit, Kernel::Portable).unwrap();
                if let Some(g) = want.grid {
                    assert!(g.is_complete_valid() && g.keeps_givens(p), "{p}");
                }
                for &k in &kernels {
                    assert_eq!(
                        solve_with(p, limit, k).unwrap(),
                        want,
                        "{k:?}, limit {limit}: {p}"
                    );
                }
                if limit == 3 {
                    counts[want.count as usize] += 1;
                    clashes += usize::from(want.givens_clash);
                    guessed += usize::from(want.guesses >= 10);
                }
            }
        }
        // Every outcome is exercised: none, unique, several, a clash, long searches.
        assert!(counts.iter().all(|&n| n >= 10), "{counts:?}");
        assert!(
            clashes >= 10 && guessed >= 20,
            "{clashes} clashes, {guessed} long"
        );
        for k in Kernel::ALL {
            assert_eq!(solve_with(&puzzles[0], 1, k).is_ok(), k.available());
        }
    }

    /// Runs over the real data sets when `../shared/data` is present:
    /// `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn data_files_agree_with_the_reference() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
        for (file, n) in [
            ("top1465.txt", 100),
            ("17_clue.txt", 40),
            ("serg_benchmark.txt", 300),
            ("forum_hardest_1905_11plus.txt", 10),
        ] {
            let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
                eprintln!("skipping {file}: not found under {}", dir.display());
                continue;
            };
            let puzzles = text
                .lines()
                .filter(|l| !l.starts_with('#') && l.len() >= 81)
                .map(|l| grid(&l[..81]))
                .take(n);
            for p in puzzles {
                check_against_reference(&p);
            }
        }
    }
}
