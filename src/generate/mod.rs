//! `generate`: new puzzles with exactly one solution, optionally minimal, symmetric, within a
//! range of givens, to a target distribution of difficulty, and never an isomorph of a
//! held-out set (issue 34).
//!
//! A run is a sequence of *candidates*. Each is built from its own seed
//! ([`draw::candidate_seed`]) by [`candidate`]:
//! 1. a solution grid: a random one ([`sample`], random diagonal boxes, then randomized
//!    backtracking; its module docs say
//!    how far from uniform that is), or one of the grids of `--from-solutions`;
//! 2. givens removed an orbit of `--symmetry` at a time in an order drawn from the seed,
//!    each while the puzzle stays unique ([`dig`]); with `--clues MIN..MAX` removal stops at
//!    `MIN` givens (without `--minimal`) and a puzzle above `MAX` is rejected;
//! 3. filters: with `--minimal` every given is checked non-removable on the finished puzzle
//!    ([`dig::is_minimal_with`]: a second solution without it, checked, or solves); with
//!    `--exclude` the puzzle's canonical form (and with
//!    `--exclude-solutions` its solution grid's) must not be one of the excluded files';
//! 4. with `--rating`, the puzzle's `rate` score ([`crate::dataset::rate::sample_guesses`]).
//!
//! [`run`] takes candidates in blocks of [`run::BLOCK`] output rows: block `b` tries its
//! candidates `0, 1, 2, ...` in order and keeps each that passes the filters and whose bin
//! still has room in the block's quota ([`bins::Bins::quotas`]), until the quotas are full
//! or the block's share of `--budget` is spent. Candidates are built in parallel and kept in
//! order, so the output is the same at any thread count; blocks depend on nothing but their
//! number, so `--shard K/N` (whole blocks) gives disjoint parts whose union is the
//! unsharded run.

pub mod bins;
pub mod dig;
pub mod draw;
pub mod run;
pub mod sample;
pub mod symmetry;

use std::sync::Arc;

use crate::canon::minlex;
use crate::dataset::rate::{sample_guesses, SampleMode};
use crate::grid::Grid;
use draw::Draw;
use symmetry::Symmetry;

pub use bins::{Bin, Bins};
pub use run::{generate, generate_rows, run_generate, GenerateConfig, GenerateSummary, Row};

/// Canonical forms a generated puzzle must not have: `--exclude`'s files, read by the
/// caller (the command reads them with `overlap`'s keys).
pub trait Exclude: Send + Sync {
    /// Whether a puzzle whose canonical form ([`minlex`]) is `form` is excluded.
    fn excludes_puzzle(&self, form: &Grid) -> bool;
    /// Whether a solution grid whose canonical form is `form` is excluded
    /// (`--exclude-solutions`); always false when only puzzles are excluded.
    fn excludes_solution(&self, form: &Grid) -> bool;
}

/// What a candidate must be, and how it is rated.
#[derive(Clone)]
pub struct Options {
    /// The symmetry of the givens' pattern.
    pub symmetry: Symmetry,
    /// Keep only puzzles from which no single given can be removed.
    pub minimal: bool,
    /// Givens, inclusive: `(MIN, MAX)`, `17 <= MIN <= MAX <= 81`.
    pub clues: (u32, u32),
    /// Rate each puzzle: `rate`'s `(samples, seed)`.
    pub rating: Option<(u32, u64)>,
    /// The solution grids to dig from (`--from-solutions`), with the 0-based record each
    /// came from; `None`: random grids.
    pub grids: Option<Arc<Vec<(Grid, u64)>>>,
    /// Canonical forms to keep out.
    pub exclude: Option<Arc<dyn Exclude>>,
    /// Checked between chunks of candidates: once cancelled, the run stops with the rows
    /// found so far and [`GenerateSummary::interrupted`]
    /// set (the binary cancels it on Ctrl-C).
    pub cancel: crate::cancel::Cancel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            symmetry: Symmetry::None,
            minimal: false,
            clues: (17, 81),
            rating: None,
            grids: None,
            exclude: None,
            cancel: crate::cancel::Cancel::new(),
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("symmetry", &self.symmetry)
            .field("minimal", &self.minimal)
            .field("clues", &self.clues)
            .field("rating", &self.rating)
            .field("grids", &self.grids.as_ref().map(|g| g.len()))
            .field("exclude", &self.exclude.is_some())
            .finish()
    }
}

/// A puzzle that passed every filter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The puzzle (`[u8; 81]`, row-major, 0 = blank), with exactly one solution.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Its givens.
    pub clues: u32,
    /// Its `rate` score, when rated.
    pub rating: Option<f64>,
    /// The 0-based record of `--from-solutions` its solution came from.
    pub source: Option<u64>,
    /// The seed it was built from ([`candidate`] rebuilds it).
    pub seed: u64,
    /// Solver calls spent on it (digging, the minimality check, rating).
    pub solves: u32,
}

/// Why a candidate was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rejected {
    /// More givens than `--clues` allows.
    Clues,
    /// A given could be removed (`--minimal`).
    NotMinimal,
    /// Its canonical form is in an `--exclude` file.
    Excluded,
    /// Its solution grid's canonical form is in an `--exclude` file (`--exclude-solutions`).
    ExcludedSolution,
}

impl Rejected {
    /// Every reason, in the order the summary lists them.
    pub const ALL: [Rejected; 4] = [
        Rejected::Clues,
        Rejected::NotMinimal,
        Rejected::Excluded,
        Rejected::ExcludedSolution,
    ];

    /// The reason as the summary and the report name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Rejected::Clues => "clues",
            Rejected::NotMinimal => "not-minimal",
            Rejected::Excluded => "excluded",
            Rejected::ExcludedSolution => "excluded-solution",
        }
    }
}

/// Builds the candidate of `seed` (`ordinal`: its place in the run, which picks its grid
/// from `--from-solutions`: grid `ordinal mod grids`); see the module docs for the steps.
/// The same `(seed, ordinal, opts)` always gives the same result.
///
/// # Errors
/// [`Rejected`]: which filter it failed.
pub fn candidate(seed: u64, ordinal: u64, opts: &Options) -> Result<Candidate, Rejected> {
    let mut draw = Draw::new(seed);
    let (solution, source) = match &opts.grids {
        Some(grids) if !grids.is_empty() => {
            let (g, record) = grids[(ordinal % grids.len() as u64) as usize];
            (g, Some(record))
        }
        _ => (sample::random_solution(&mut draw), None),
    };
    if let Some(ex) = &opts.exclude {
        if ex.excludes_solution(&minlex(&solution)) {
            return Err(Rejected::ExcludedSolution);
        }
    }
    let mut order: Vec<&[u8]> = opts
        .symmetry
        .cached_orbits()
        .iter()
        .map(Vec::as_slice)
        .collect();
    draw.shuffle(&mut order);
    let (min, max) = opts.clues;
    let dug = dig::dig(&solution, &order, if opts.minimal { 0 } else { min });
    let (puzzle, mut solves) = (dug.puzzle, dug.solves);
    let clues = puzzle.clues();
    if clues > max || clues < min {
        return Err(Rejected::Clues);
    }
    if opts.minimal {
        let (minimal, checks) = dig::is_minimal_with(&puzzle, &solution, &dug.witnesses);
        solves += checks;
        if !minimal {
            return Err(Rejected::NotMinimal);
        }
    }
    if let Some(ex) = &opts.exclude {
        if ex.excludes_puzzle(&minlex(&puzzle)) {
            return Err(Rejected::Excluded);
        }
    }
    let rating = opts.rating.map(|(samples, rate_seed)| {
        solves += samples;
        let (guesses, count) = sample_guesses(&puzzle, samples, rate_seed, SampleMode::Unique);
        debug_assert_eq!(count, 1, "a dug puzzle is unique");
        guesses.map_or(f64::NAN, |g| g.rating)
    });
    Ok(Candidate {
        puzzle,
        solution,
        clues,
        rating,
        source,
        seed,
        solves,
    })
}
