//! `_native.trace`: the `trace` command's per-puzzle summary, Shah et al. rows and (on
//! request) steps as JSON, as numpy arrays ([`sudoku_batch::batch::trace_many`]).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use sudoku_batch::batch;
use sudoku_batch::trace::{json, shah, Outcome};

use super::input::Puzzles;
use super::run;

/// Status codes, as `solve` gives them.
const SOLVED: u8 = 0;
const MULTIPLE: u8 = 1;
const UNSOLVABLE: u8 = 2;
const INVALID: u8 = 3;

/// Traces of `N` puzzles: `(status (N,) u8, solutions (N, 81) u8, hardest_code (N,) i16 (-1:
/// no step), steps, placements, eliminations, guesses, backtracks, max_depth (N,) u32 each,
/// shah (N, 325) u8, steps_json list[str] or None)`.
#[pyfunction]
#[pyo3(signature = (puzzles, placements_only, with_json, threads))]
pub(crate) fn trace<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    placements_only: bool,
    with_json: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let grids = Puzzles::extract(puzzles)?.grids("puzzles")?;
    let opts = run::options(2, threads)?;
    let traced = run::run(py, grids.len(), opts, |o| batch::trace_many(&grids, o))?;
    let n = traced.len();
    let mut status = Vec::with_capacity(n);
    let mut solutions = Vec::with_capacity(n * 81);
    let mut shah_rows = Vec::with_capacity(n * shah::WIDTH);
    let mut cols: [Vec<u32>; 6] = Default::default();
    let mut hardest = Vec::with_capacity(n);
    let mut texts = Vec::new();
    for (puzzle, (t, count)) in grids.iter().zip(&traced) {
        status.push(match (t.outcome, count) {
            (Some(Outcome::Solved), 1) => SOLVED,
            (Some(Outcome::Solved), _) => MULTIPLE,
            (Some(Outcome::Clash), _) => INVALID,
            _ => UNSOLVABLE,
        });
        if t.outcome == Some(Outcome::Solved) {
            solutions.extend_from_slice(&t.grid.0);
        } else {
            solutions.extend_from_slice(&[0; 81]);
        }
        shah_rows.extend_from_slice(&shah::encode(puzzle, t));
        let s = t.summary();
        hardest.push(s.hardest.map_or(-1, |h| i16::from(h.code())));
        let values = [
            s.steps,
            s.placements,
            s.eliminations,
            s.guesses,
            s.backtracks,
            s.max_depth,
        ];
        for (c, v) in cols.iter_mut().zip(values) {
            c.push(v);
        }
        if with_json {
            let mut text = String::new();
            json::steps_json(t, placements_only, &mut text);
            texts.push(text);
        }
    }
    let [steps, placements, eliminations, guesses, backtracks, max_depth] = cols;
    let shah_array = PyArray1::from_vec(py, shah_rows).reshape([n, shah::WIDTH])?;
    let steps_json: Bound<'py, PyAny> = if with_json {
        PyList::new(py, texts)?.into_any()
    } else {
        py.None().into_bound(py)
    };
    (
        PyArray1::from_vec(py, status),
        super::cells_array(py, solutions)?,
        PyArray1::from_vec(py, hardest),
        PyArray1::from_vec(py, steps),
        PyArray1::from_vec(py, placements),
        PyArray1::from_vec(py, eliminations),
        PyArray1::from_vec(py, guesses),
        PyArray1::from_vec(py, backtracks),
        PyArray1::from_vec(py, max_depth),
        shah_array,
        steps_json,
    )
        .into_pyobject(py)
}
