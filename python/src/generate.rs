//! `_native.generate`: the `generate` command's puzzles into numpy arrays
//! ([`sudoku_batch::generate::generate`], the same rows `sudoku-batch generate` writes for
//! the same options and seed).

use std::collections::HashSet;
use std::sync::Arc;

use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use sudoku_batch::batch::{self, BatchError, Cancelled};
use sudoku_batch::generate::symmetry::Symmetry;
use sudoku_batch::generate::{self as gen, Bins, Exclude, GenerateConfig, Options};
use sudoku_batch::Grid;

use super::input::Puzzles;
use super::run;

/// Canonical forms of the puzzles passed as `exclude`.
struct Forms(HashSet<Grid>);

impl Exclude for Forms {
    fn excludes_puzzle(&self, form: &Grid) -> bool {
        self.0.contains(form)
    }

    fn excludes_solution(&self, _form: &Grid) -> bool {
        false
    }
}

/// `n` puzzles: `(puzzles (n, 81) u8, solutions (n, 81) u8, clues (n,) u32, rating (n,)
/// f64 (NaN without a target), bin (n,) i64, seed (n,) u64, complete bool)`; fewer than
/// `n` rows, with `complete` False, when a bin spent its budget.
#[pyfunction]
#[pyo3(signature = (n, seed, minimal, symmetry, clues, rating, samples, rating_seed, exclude, budget, threads))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn generate<'py>(
    py: Python<'py>,
    n: u64,
    seed: u64,
    minimal: bool,
    symmetry: &str,
    clues: (u32, u32),
    rating: Option<&str>,
    samples: u32,
    rating_seed: u64,
    exclude: Option<&Bound<'py, PyAny>>,
    budget: Option<u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let symmetry = Symmetry::from_name(symmetry).ok_or_else(|| {
        let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
        PyValueError::new_err(format!(
            "symmetry {symmetry:?}: expected one of {}",
            names.join(", ")
        ))
    })?;
    if !(17..=81).contains(&clues.0) || clues.0 > clues.1 || clues.1 > 81 {
        return Err(PyValueError::new_err(format!(
            "clues ({}, {}): expected 17 <= min <= max <= 81",
            clues.0, clues.1
        )));
    }
    let bins = rating
        .map(Bins::parse)
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("rating {e}")))?;
    let excluded = match exclude {
        Some(e) => Some(Puzzles::extract(e)?.grids("exclude")?),
        None => None,
    };
    let opts = run::options(2, threads)?;
    let rows = usize::try_from(n).unwrap_or(usize::MAX);
    let (rows, sum) = run::run(py, rows, opts, |o| {
        let exclude: Option<Arc<dyn Exclude>> = match &excluded {
            Some(grids) => Some(Arc::new(Forms(
                batch::canonical_many(grids, o)?.into_iter().collect(),
            ))),
            None => None,
        };
        let options = Options {
            symmetry,
            minimal,
            clues,
            rating: bins.as_ref().map(|_| (samples, rating_seed)),
            grids: None,
            exclude,
            cancel: o.cancel.clone().unwrap_or_default(),
        };
        let threads = o.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            usize::from,
        );
        let mut cfg = GenerateConfig::new(n, seed, options.clone(), threads);
        cfg.bins = bins.clone();
        cfg.budget = budget.unwrap_or(cfg.budget);
        let (rows, sum) =
            gen::generate(&cfg, &options).map_err(|e| BatchError::Threads(format!("{e:#}")))?;
        if sum.interrupted {
            return Err(BatchError::Cancelled(Cancelled));
        }
        Ok((rows, sum))
    })?;
    let mut puzzles = Vec::with_capacity(rows.len() * 81);
    let mut solutions = Vec::with_capacity(rows.len() * 81);
    for r in &rows {
        puzzles.extend_from_slice(&r.candidate.puzzle.0);
        solutions.extend_from_slice(&r.candidate.solution.0);
    }
    let col = |f: &dyn Fn(&gen::Row) -> i64| -> Vec<i64> { rows.iter().map(f).collect() };
    (
        super::cells_array(py, puzzles)?,
        super::cells_array(py, solutions)?,
        PyArray1::from_vec(py, rows.iter().map(|r| r.candidate.clues).collect()),
        PyArray1::from_vec(
            py,
            rows.iter()
                .map(|r| r.candidate.rating.unwrap_or(f64::NAN))
                .collect(),
        ),
        PyArray1::from_vec(py, col(&|r| r.bin as i64)),
        PyArray1::from_vec(py, rows.iter().map(|r| r.candidate.seed).collect()),
        sum.complete(),
    )
        .into_pyobject(py)
}
