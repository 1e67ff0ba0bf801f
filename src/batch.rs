//! In-memory batches: solve, canonicalise, rate, dedupe and compare many puzzles at once
//! on a rayon pool, with no I/O and no process-wide state (issue 31).
//!
//! Every function takes its puzzles as a slice and returns one result per row, in input
//! order; a row that is not a puzzle never stops the batch nor changes another row's result
//! (it comes back [`Status::Invalid`] with its reason). [`Options`] chooses the solution
//! limit, the pool (`threads: None` runs on rayon's global pool, which honours
//! `RAYON_NUM_THREADS`; `Some(n)` builds a pool of `n` threads for the call) and an optional
//! [`Cancel`] token, checked before each chunk of rows, so another thread (a Ctrl-C
//! handler, a Python signal check) can stop a long call, which then returns
//! [`BatchError::Cancelled`].
//!
//! Each row's work is the same code the commands run on a record: the `solve` command's
//! classification (`SolvedRecord::solve`), [`crate::canon::canonical`],
//! `rate`'s [`crate::dataset::rate::rate`], and the 96-bit class keys of `dedup` and
//! `overlap`.
//!
//! ```
//! use sudoku_batch::batch::{solve_texts, Options};
//! use sudoku_batch::Status;
//! let rows = [
//!     "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
//!     "not a puzzle",
//! ];
//! let out = solve_texts(&rows, &Options::default()).unwrap();
//! assert_eq!(out.status, [Status::Solved, Status::Invalid]);
//! assert_eq!(out.errors[1].as_deref(), Some("12 characters, expected 81; invalid character 'n' (character 1)"));
//! assert!(out.solutions[81..].iter().all(|&d| d == 0));
//! ```

use rayon::prelude::*;
use std::collections::HashMap;
use std::num::NonZeroUsize;

pub use crate::cancel::Cancel;
use crate::canon::minlex;
use crate::cmd::dedup::{key_of, Key};
use crate::dataset::rate::{rate, Rating};
use crate::grid::{Grid, ParseError, CELLS};
use crate::record::SolvedRecord;
use crate::report::Status;

/// Most rows between two looks at the [`Cancel`] token: a few milliseconds of solving.
const CHUNK: usize = 4096;

/// How a batch call runs.
///
/// ```
/// use sudoku_batch::batch::Options;
/// let o = Options::default();
/// assert_eq!((o.limit, o.threads, o.cancel.is_none()), (2, None, true));
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// Count solutions up to this many (a limit of 0 counts as 1): 1 stops at the first
    /// solution (status `Solved` even for a puzzle with several), 2 (the default) tells a
    /// unique puzzle from one with several.
    pub limit: u32,
    /// Worker threads: `None` runs on rayon's global pool (`RAYON_NUM_THREADS`, else one
    /// per CPU); `Some(n)` builds a pool of `n` threads for this call.
    pub threads: Option<NonZeroUsize>,
    /// Checked before each chunk of rows; once cancelled the call returns
    /// [`BatchError::Cancelled`] and no results.
    pub cancel: Option<Cancel>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limit: 2,
            threads: None,
            cancel: None,
        }
    }
}

/// A call stopped by its [`Cancel`] token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// Why a batch call returned no results (a bad row is never one: see the module docs).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The flat cell array's length is not a multiple of 81.
    #[error("{len} cells is not a whole number of 81-cell rows")]
    Shape {
        /// Length of the array given.
        len: usize,
    },
    /// The call's [`Cancel`] token was set.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    /// The thread pool asked for could not be built (the reason as rayon gives it).
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
}

/// What [`solve_many`] found: columns with one entry per input row, in input order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solved {
    /// `N * 81` cells, row-major, row `i` at `i * 81..(i + 1) * 81`: the first solution
    /// found, `1..=9` in every cell; all `0` where none was found.
    pub solutions: Vec<u8>,
    /// What happened to each row.
    pub status: Vec<Status>,
    /// Solutions counted, up to [`Options::limit`] (0 for an invalid row).
    pub counts: Vec<u32>,
    /// Guesses the solver made (see [`crate::solver::Solution::guesses`]).
    pub guesses: Vec<u32>,
    /// Solver time per row, nanoseconds, monotonic clock (0 for a row that did not parse).
    pub nanos: Vec<u64>,
    /// Why a row is [`Status::Invalid`] (its parse error, or the clashing givens); `None`
    /// for every other row.
    pub errors: Vec<Option<String>>,
}

impl Solved {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.status.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.status.is_empty()
    }

    /// Row `i`'s solution, when one was found.
    ///
    /// # Panics
    /// When `i >= self.len()`.
    pub fn solution(&self, i: usize) -> Option<Grid> {
        let cells = &self.solutions[i * CELLS..(i + 1) * CELLS];
        (cells[0] != 0).then(|| Grid(cells.try_into().expect("a row is 81 cells")))
    }
}

/// Solves every puzzle, counting solutions up to `opts.limit`.
///
/// # Errors
/// [`BatchError::Cancelled`] when `opts.cancel` is set during the call,
/// [`BatchError::Threads`] when `opts.threads` asks for a pool that cannot be built.
///
/// ```
/// use sudoku_batch::batch::{solve_many, Options};
/// use sudoku_batch::{Grid, Status};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// let out = solve_many(&[p, Grid::EMPTY], &Options::default()).unwrap();
/// assert_eq!(out.status, [Status::Solved, Status::Multiple]);
/// assert_eq!(out.counts, [1, 2]);
/// assert!(out.solution(0).unwrap().keeps_givens(&p));
/// ```
pub fn solve_many(puzzles: &[Grid], opts: &Options) -> Result<Solved, BatchError> {
    solve_rows(puzzles.len(), opts, |i| Ok(puzzles[i]))
}

/// [`solve_many`] over a flat array of `N * 81` cell values (an `(N, 81)` integer array:
/// `0` = empty, `1..=9` = digit, row-major). A row holding a value above 9 is
/// [`Status::Invalid`], its error naming the cell; the other rows are unaffected.
///
/// # Errors
/// [`BatchError::Shape`] when `cells.len()` is not a multiple of 81; otherwise as
/// [`solve_many`].
///
/// ```
/// use sudoku_batch::batch::{solve_cells, BatchError, Options};
/// let out = solve_cells(&[0u8; 2 * 81], &Options { limit: 1, ..Options::default() }).unwrap();
/// assert!(out.solution(1).unwrap().is_complete_valid());
/// assert!(matches!(solve_cells(&[0u8; 80], &Options::default()), Err(BatchError::Shape { len: 80 })));
/// ```
pub fn solve_cells(cells: &[u8], opts: &Options) -> Result<Solved, BatchError> {
    if !cells.len().is_multiple_of(CELLS) {
        return Err(BatchError::Shape { len: cells.len() });
    }
    solve_rows(cells.len() / CELLS, opts, |i| {
        Grid::from_cells(&cells[i * CELLS..(i + 1) * CELLS])
    })
}

/// [`solve_many`] over puzzle texts, each read by [`Grid::parse`] (81 characters, `1-9`,
/// blanks `.`, `0`, `_`). A text that does not parse is [`Status::Invalid`] with the
/// parse error as its reason; the other rows are unaffected.
///
/// # Errors
/// As [`solve_many`].
///
/// ```
/// use sudoku_batch::batch::{solve_texts, Options};
/// let out = solve_texts(&[".".repeat(81)], &Options::default()).unwrap();
/// assert_eq!(out.counts, [2]);
/// ```
pub fn solve_texts<S: AsRef<[u8]> + Sync>(
    texts: &[S],
    opts: &Options,
) -> Result<Solved, BatchError> {
    solve_rows(texts.len(), opts, |i| Grid::parse(texts[i].as_ref()))
}

/// The minlex form of every puzzle ([`crate::canon::minlex`]; any grid, clashing or not).
///
/// # Errors
/// As [`solve_many`].
///
/// ```
/// use sudoku_batch::batch::{canonical_many, Options};
/// use sudoku_batch::{minlex, Grid, Isomorph};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// let forms = canonical_many(&[p, Isomorph::keyed(1, 2, 3).apply(&p)], &Options::default()).unwrap();
/// assert_eq!(forms, [minlex(&p), minlex(&p)]);
/// ```
pub fn canonical_many(puzzles: &[Grid], opts: &Options) -> Result<Vec<Grid>, BatchError> {
    map_rows(puzzles.len(), opts, |i| minlex(&puzzles[i]))
}

/// The `rate` command's rating of every puzzle ([`rate`]: `samples` isomorphs drawn under
/// `seed`); `None` for a puzzle without exactly one solution.
///
/// # Errors
/// As [`solve_many`].
///
/// ```
/// use sudoku_batch::batch::{rate_many, Options};
/// use sudoku_batch::{rate, Grid};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// let r = rate_many(&[p, Grid::EMPTY], 4, 9, &Options::default()).unwrap();
/// assert_eq!(r, [rate(&p, 4, 9), None]);
/// ```
pub fn rate_many(
    puzzles: &[Grid],
    samples: u32,
    seed: u64,
    opts: &Options,
) -> Result<Vec<Option<Rating>>, BatchError> {
    map_rows(puzzles.len(), opts, |i| rate(&puzzles[i], samples, seed))
}

/// The `trace` command's trace of every puzzle ([`crate::trace::trace`]: steps with named
/// techniques, guesses and backtracks, the grid reached) with the puzzle's solution count
/// up to 2 ([`crate::trace::Trace::solution_count`]), as `trace` tells `solved` from
/// `multiple`; one `(trace, count)` per row, in input order.
///
/// # Errors
/// [`BatchError::Cancelled`] when `opts.cancel` is set; [`BatchError::Threads`] when a pool
/// of `opts.threads` cannot start.
pub fn trace_many(
    puzzles: &[Grid],
    opts: &Options,
) -> Result<Vec<(crate::trace::Trace, u32)>, BatchError> {
    map_rows(puzzles.len(), opts, |i| {
        let t = crate::trace::trace(&puzzles[i]);
        let count = t.solution_count(&puzzles[i]);
        (t, count)
    })
}

/// For each puzzle, the index of the first earlier puzzle it is an isomorph of (equal
/// included), or `None` for the first of its class: the rows `sudoku-batch dedup --iso`
/// drops are the `Some` ones. Classes are compared by the 96-bit key of the minlex form,
/// as `dedup` does (two different classes share a key with probability below n²/2^97).
///
/// # Errors
/// As [`solve_many`].
///
/// ```
/// use sudoku_batch::batch::{dedupe, Options};
/// use sudoku_batch::{Grid, Isomorph};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// let rows = [p, Grid::EMPTY, Isomorph::keyed(5, 0, 0).apply(&p), p];
/// assert_eq!(dedupe(&rows, &Options::default()).unwrap(), [None, None, Some(0), Some(0)]);
/// ```
pub fn dedupe(puzzles: &[Grid], opts: &Options) -> Result<Vec<Option<usize>>, BatchError> {
    let keys = class_keys(puzzles, opts)?;
    let mut first: HashMap<Key, usize> = HashMap::with_capacity(keys.len());
    Ok(keys
        .iter()
        .enumerate()
        .map(|(i, k)| match first.entry(*k) {
            std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
                None
            }
        })
        .collect())
}

/// For each `test` puzzle, the index of the first `train` puzzle it is an isomorph of
/// (equal included), or `None`: the leak `sudoku-batch overlap` reports as `exact` or
/// `isomorph`. Keys as [`dedupe`].
///
/// # Errors
/// As [`solve_many`].
///
/// ```
/// use sudoku_batch::batch::{overlap, Options};
/// use sudoku_batch::{Grid, Isomorph};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// let test = [Grid::EMPTY, Isomorph::keyed(5, 0, 0).apply(&p)];
/// assert_eq!(overlap(&[Grid::EMPTY, p], &test, &Options::default()).unwrap(), [Some(0), Some(1)]);
/// ```
pub fn overlap(
    train: &[Grid],
    test: &[Grid],
    opts: &Options,
) -> Result<Vec<Option<usize>>, BatchError> {
    let train_keys = class_keys(train, opts)?;
    let mut first: HashMap<Key, usize> = HashMap::with_capacity(train_keys.len());
    for (i, k) in train_keys.iter().enumerate().rev() {
        first.insert(*k, i);
    }
    let test_keys = class_keys(test, opts)?;
    Ok(test_keys.iter().map(|k| first.get(k).copied()).collect())
}

/// The class key of every puzzle: the key of its minlex form.
fn class_keys(puzzles: &[Grid], opts: &Options) -> Result<Vec<Key>, BatchError> {
    map_rows(puzzles.len(), opts, |i| key_of(&minlex(&puzzles[i])))
}

/// Solves rows `0..n`, `row(i)` giving row `i`'s puzzle or why it is none, into columns.
fn solve_rows<F>(n: usize, opts: &Options, row: F) -> Result<Solved, BatchError>
where
    F: Fn(usize) -> Result<Grid, ParseError> + Sync,
{
    let limit = opts.limit;
    let records = map_rows(n, opts, |i| {
        let mut res = SolvedRecord::at(i as u64, i as u64 + 1);
        match row(i) {
            Ok(p) => res.solve(&p, limit),
            Err(e) => res.error = Some(e),
        }
        res
    })?;
    let mut out = Solved {
        solutions: vec![0; n * CELLS],
        status: Vec::with_capacity(n),
        counts: Vec::with_capacity(n),
        guesses: Vec::with_capacity(n),
        nanos: Vec::with_capacity(n),
        errors: Vec::with_capacity(n),
    };
    for (r, cells) in records
        .into_iter()
        .zip(out.solutions.chunks_exact_mut(CELLS))
    {
        if let Some(g) = r.solution {
            cells.copy_from_slice(&g.0);
        }
        out.status.push(r.status);
        out.counts.push(r.solutions);
        out.guesses.push(r.guesses);
        out.nanos.push(r.solve_ns);
        out.errors.push(r.error.map(|e| e.to_string()));
    }
    Ok(out)
}

/// `work(i)` for every row `i` in `0..n`, in input order, on the pool `opts` names, looking
/// at the cancel token before each chunk of rows.
fn map_rows<T, F>(n: usize, opts: &Options, work: F) -> Result<Vec<T>, BatchError>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    let run = || -> Result<Vec<T>, BatchError> {
        // Chunks small enough that a short batch still spreads over every thread.
        let per_thread = n.div_ceil(rayon::current_num_threads() * 4);
        let chunk = per_thread.clamp(1, CHUNK);
        let chunks: Vec<Vec<T>> = (0..n.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                if opts.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                    return Err(Cancelled);
                }
                Ok((c * chunk..n.min((c + 1) * chunk)).map(&work).collect())
            })
            .collect::<Result<_, Cancelled>>()?;
        Ok(chunks.into_iter().flatten().collect())
    };
    match opts.threads {
        None => run(),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.get())
            .thread_name(|i| format!("sudoku-batch-{i}"))
            .build()
            .map_err(|e| BatchError::Threads(e.to_string()))?
            .install(run),
    }
}

#[cfg(test)]
mod tests;
