//! `sudoku_batch._native`: the extension module under the `sudoku_batch` Python package
//! (issue 31). Each function here is a thin bridge from Python objects to the library's
//! public core ([`sudoku_batch::batch`] and the grid, isomorph and dataset functions);
//! `sudoku_batch/__init__.py` adds the keyword defaults, input normalisation and result
//! classes users see, and documents shapes and dtypes.

mod generate;
mod input;
mod read;
mod run;
mod trace;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use sudoku_batch::batch::{self, Solved};
use sudoku_batch::isomorph::CODE_LEN;
use sudoku_batch::{augment_pair, Grid, Isomorph};

use input::{Puzzles, CELLS};

/// An `(N, 81)` array from `N * 81` cells (no copy).
fn cells_array(py: Python<'_>, cells: Vec<u8>) -> PyResult<Bound<'_, PyArray2<u8>>> {
    let n = cells.len() / CELLS;
    PyArray1::from_vec(py, cells).reshape([n, CELLS])
}

/// The cells of every grid, row-major: `grids.len() * 81` values.
fn flatten(grids: &[Grid]) -> Vec<u8> {
    let mut cells = Vec::with_capacity(grids.len() * CELLS);
    for g in grids {
        cells.extend_from_slice(&g.0);
    }
    cells
}

/// Row indices as `int64`, `-1` for none.
fn index_array(py: Python<'_>, found: Vec<Option<usize>>) -> Bound<'_, PyArray1<i64>> {
    let v = found
        .into_iter()
        .map(|i| i.map_or(-1, |i| i64::try_from(i).expect("a row index fits in i64")))
        .collect();
    PyArray1::from_vec(py, v)
}

/// Solves every puzzle: `(solutions (N, 81) u8, status (N,) u8, counts (N,) u32,
/// guesses (N,) u32, nanos (N,) u64, errors {row: reason})`.
#[pyfunction]
#[pyo3(signature = (puzzles, limit, threads))]
fn solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    limit: u32,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let rows = Puzzles::extract(puzzles)?;
    let n = rows.len();
    let opts = run::options(limit, threads)?;
    let solved = match &rows {
        Puzzles::Cells(a) => {
            let cells = a.as_slice().expect("checked C-contiguous on extraction");
            run::run(py, n, opts, |o| batch::solve_cells(cells, o))?
        }
        _ => {
            let (texts, reasons) = rows.texts();
            let mut solved = run::run(py, n, opts, |o| batch::solve_texts(&texts, o))?;
            for (i, why) in reasons {
                solved.errors[i] = Some(why);
            }
            solved
        }
    };
    solved_tuple(py, solved)
}

/// The columns of a [`Solved`] as numpy arrays, and its errors as a dict by row.
fn solved_tuple(py: Python<'_>, s: Solved) -> PyResult<Bound<'_, PyTuple>> {
    let status: Vec<u8> = s.status.iter().map(|st| st.code()).collect();
    let errors = PyDict::new(py);
    for (i, e) in s.errors.into_iter().enumerate() {
        if let Some(e) = e {
            errors.set_item(i, e)?;
        }
    }
    (
        cells_array(py, s.solutions)?,
        PyArray1::from_vec(py, status),
        PyArray1::from_vec(py, s.counts),
        PyArray1::from_vec(py, s.guesses),
        PyArray1::from_vec(py, s.nanos),
        errors,
    )
        .into_pyobject(py)
}

/// The minlex form of every puzzle, `(N, 81) u8`.
#[pyfunction]
#[pyo3(signature = (puzzles, threads))]
fn canonical<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let grids = Puzzles::extract(puzzles)?.grids("puzzles")?;
    let opts = run::options(2, threads)?;
    let forms = run::run(py, grids.len(), opts, |o| batch::canonical_many(&grids, o))?;
    cells_array(py, flatten(&forms))
}

/// `rate` of every puzzle: `(rating f64, min u32, median f64, max u32, singles_only bool,
/// rated bool)`, each `(N,)`; NaN / 0 / False where `rated` is False.
#[pyfunction]
#[pyo3(signature = (puzzles, samples, seed, threads))]
fn rate<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    samples: u32,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let grids = Puzzles::extract(puzzles)?.grids("puzzles")?;
    let opts = run::options(2, threads)?;
    let rated = run::run(py, grids.len(), opts, |o| {
        batch::rate_many(&grids, samples, seed, o)
    })?;
    let col = |f: &dyn Fn(&sudoku_batch::Rating) -> f64| -> Vec<f64> {
        rated
            .iter()
            .map(|r| r.as_ref().map_or(f64::NAN, f))
            .collect()
    };
    let rating = col(&|r| r.rating);
    let median = col(&|r| r.median);
    let min: Vec<u32> = rated
        .iter()
        .map(|r| r.as_ref().map_or(0, |r| r.min))
        .collect();
    let max: Vec<u32> = rated
        .iter()
        .map(|r| r.as_ref().map_or(0, |r| r.max))
        .collect();
    let singles: Vec<bool> = rated
        .iter()
        .map(|r| r.as_ref().is_some_and(|r| r.singles_only))
        .collect();
    let ok: Vec<bool> = rated.iter().map(Option::is_some).collect();
    (
        PyArray1::from_vec(py, rating),
        PyArray1::from_vec(py, min),
        PyArray1::from_vec(py, median),
        PyArray1::from_vec(py, max),
        PyArray1::from_vec(py, singles),
        PyArray1::from_vec(py, ok),
    )
        .into_pyobject(py)
}

/// For each test row, the index of a train row it is an isomorph of, `-1` for none.
#[pyfunction]
#[pyo3(signature = (train, test, threads))]
fn overlap<'py>(
    py: Python<'py>,
    train: &Bound<'py, PyAny>,
    test: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let train = Puzzles::extract(train)?.grids("train")?;
    let test = Puzzles::extract(test)?.grids("test")?;
    let opts = run::options(2, threads)?;
    let rows = train.len() + test.len();
    let found = run::run(py, rows, opts, |o| batch::overlap(&train, &test, o))?;
    Ok(index_array(py, found))
}

/// For each row, the index of the first earlier row it is an isomorph of, `-1` for none.
#[pyfunction]
#[pyo3(signature = (puzzles, threads))]
fn dedupe<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let grids = Puzzles::extract(puzzles)?.grids("puzzles")?;
    let opts = run::options(2, threads)?;
    let found = run::run(py, grids.len(), opts, |o| batch::dedupe(&grids, o))?;
    Ok(index_array(py, found))
}

/// `k` isomorphs of each (puzzle, solution) pair, row `i` keyed `key_start + i`:
/// `(puzzles (N*k, 81) u8, solutions (N*k, 81) u8, codes (N*k*31,) u8, source (N*k,) i64)`.
#[pyfunction]
#[pyo3(signature = (puzzles, solutions, k, seed, key_start))]
fn augment<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    solutions: &Bound<'py, PyAny>,
    k: u32,
    seed: u64,
    key_start: u64,
) -> PyResult<Bound<'py, PyTuple>> {
    let puzzles = Puzzles::extract(puzzles)?.grids("puzzles")?;
    let solutions = Puzzles::extract(solutions)?.grids("solutions")?;
    if puzzles.len() != solutions.len() {
        return Err(PyValueError::new_err(format!(
            "{} puzzles but {} solutions",
            puzzles.len(),
            solutions.len()
        )));
    }
    let (p, s, codes, source) = py.detach(|| {
        let rows = puzzles.len() * k as usize;
        let mut p = Vec::with_capacity(rows * CELLS);
        let mut s = Vec::with_capacity(rows * CELLS);
        let mut codes = Vec::with_capacity(rows * CODE_LEN);
        let mut source = Vec::with_capacity(rows);
        for (i, (puzzle, solution)) in puzzles.iter().zip(&solutions).enumerate() {
            for (q, t, iso) in augment_pair(puzzle, solution, k, seed, key_start + i as u64) {
                p.extend_from_slice(&q.0);
                s.extend_from_slice(&t.0);
                let mut code = [0u8; CODE_LEN];
                iso.write_code(&mut code);
                codes.extend_from_slice(&code);
                source.push(i as i64);
            }
        }
        (p, s, codes, source)
    });
    (
        cells_array(py, p)?,
        cells_array(py, s)?,
        PyArray1::from_vec(py, codes),
        PyArray1::from_vec(py, source),
    )
        .into_pyobject(py)
}

/// Row `i` of `grids` transformed by transform code `i` (its inverse when `inverse`);
/// `codes` is `N * 31` ASCII bytes.
#[pyfunction]
#[pyo3(signature = (grids, codes, inverse))]
fn apply_transforms<'py>(
    py: Python<'py>,
    grids: &Bound<'py, PyAny>,
    codes: PyReadonlyArray1<'py, u8>,
    inverse: bool,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let grids = Puzzles::extract(grids)?.grids("grids")?;
    let codes = codes.as_slice()?;
    if codes.len() != grids.len() * CODE_LEN {
        return Err(PyValueError::new_err(format!(
            "{} grids but {} transform codes",
            grids.len(),
            codes.len() / CODE_LEN
        )));
    }
    let isos = codes
        .chunks_exact(CODE_LEN)
        .enumerate()
        .map(|(i, code)| {
            let parsed = std::str::from_utf8(code)
                .map_err(|_| format!("{code:?}: not ASCII"))
                .and_then(|c| c.parse::<Isomorph>().map_err(|e| e.to_string()));
            parsed
                .map(|iso| if inverse { iso.inverse() } else { iso })
                .map_err(|e| PyValueError::new_err(format!("transforms row {i}: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let out = py.detach(|| {
        let mut out = Vec::with_capacity(grids.len() * CELLS);
        for (g, iso) in grids.iter().zip(&isos) {
            out.extend_from_slice(&iso.apply(g).0);
        }
        out
    });
    cells_array(py, out)
}

/// Every row as 81 characters, `blank` for an empty cell.
#[pyfunction]
#[pyo3(signature = (grids, blank))]
fn to_strings<'py>(
    py: Python<'py>,
    grids: &Bound<'py, PyAny>,
    blank: char,
) -> PyResult<Bound<'py, PyList>> {
    if !blank.is_ascii() || blank.is_ascii_digit() && blank != '0' {
        return Err(PyValueError::new_err(format!(
            "blank must be one ASCII character other than 1-9, not {blank:?}"
        )));
    }
    let grids = Puzzles::extract(grids)?.grids("grids")?;
    let texts = grids.iter().map(|g| {
        let mut text = [0u8; CELLS];
        g.write_digits(&mut text);
        for b in &mut text {
            if *b == b'0' {
                *b = blank as u8;
            }
        }
        String::from_utf8(text.to_vec()).expect("digits and an ASCII blank")
    });
    PyList::new(py, texts)
}

/// Texts (or any puzzle form) as an `(N, 81) u8` array; `ValueError` naming the first
/// row that is not a puzzle.
#[pyfunction]
fn from_strings<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let grids = Puzzles::extract(texts)?.grids("strings")?;
    cells_array(py, flatten(&grids))
}

/// For the benchmarks only: nanoseconds (monotonic clock) that the core's `solve_cells`
/// takes on an `(N, 81)` `uint8` array, timed inside the call, so `solve`'s wall time less
/// this is the Python side's overhead (argument reading, result arrays, GIL hand-offs).
#[pyfunction]
#[pyo3(signature = (puzzles, limit, threads))]
fn time_core<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    limit: u32,
    threads: Option<usize>,
) -> PyResult<u64> {
    let rows = Puzzles::extract(puzzles)?;
    let Puzzles::Cells(a) = &rows else {
        return Err(PyValueError::new_err(
            "time_core takes an (N, 81) uint8 array",
        ));
    };
    let cells = a.as_slice().expect("checked C-contiguous on extraction");
    let opts = run::options(limit, threads)?;
    run::run(py, rows.len(), opts, |o| {
        let start = std::time::Instant::now();
        batch::solve_cells(cells, o)?;
        Ok(u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX))
    })
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate, m)?)?;
    m.add_function(wrap_pyfunction!(trace::trace, m)?)?;
    m.add_function(wrap_pyfunction!(overlap, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe, m)?)?;
    m.add_function(wrap_pyfunction!(augment, m)?)?;
    m.add_function(wrap_pyfunction!(apply_transforms, m)?)?;
    m.add_function(wrap_pyfunction!(to_strings, m)?)?;
    m.add_function(wrap_pyfunction!(from_strings, m)?)?;
    m.add_function(wrap_pyfunction!(time_core, m)?)?;
    m.add_function(wrap_pyfunction!(run::after_fork_child, m)?)?;
    m.add_function(wrap_pyfunction!(run::fork_fallback, m)?)?;
    m.add_class::<read::Reader>()?;
    m.add("SOLVER_KERNEL", sudoku_batch::solver::kernel())?;
    Ok(())
}
