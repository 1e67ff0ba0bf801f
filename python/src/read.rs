//! `read(path)`: any input the CLI reads (puzzle-per-line text, CSV, JSON Lines, NumPy,
//! compressed or UTF-16 forms of them), through the library's [`Dataset`], as batches of
//! numpy arrays.

use numpy::PyArray1;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sudoku_batch::input::RawRecord;
use sudoku_batch::{Dataset, InputError, ReadOptions};

use crate::input::CELLS;

/// An iterator over the records of one input, `batch_size` at a time; each batch is a
/// dict of columns (see `sudoku_batch.read`).
#[pyclass(unsendable, module = "sudoku_batch._native")]
pub(crate) struct Reader {
    /// `None` once the input is read to its end.
    data: Option<Dataset>,
    batch: usize,
    records: Vec<RawRecord>,
}

/// An input error with its causes, as the CLI prints them (`path: reason: cause`).
fn input_error(e: InputError) -> PyErr {
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(&e);
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    match e {
        InputError::Io { .. } | InputError::Directory { .. } => PyOSError::new_err(text),
        _ => PyValueError::new_err(text),
    }
}

#[pymethods]
impl Reader {
    /// Opens `path` (never memory-mapped: a file changed under a map would fault).
    #[new]
    #[pyo3(signature = (path, batch_size, puzzle_column=None, solution_column=None, no_header=false, delimiter=None))]
    fn new(
        path: &str,
        batch_size: usize,
        puzzle_column: Option<String>,
        solution_column: Option<String>,
        no_header: bool,
        delimiter: Option<char>,
    ) -> PyResult<Reader> {
        if batch_size == 0 {
            return Err(PyValueError::new_err("batch_size must be at least 1"));
        }
        let mut opts = ReadOptions {
            mmap: false,
            ..ReadOptions::default()
        };
        opts.layout.puzzle_column = puzzle_column;
        opts.layout.solution_column = solution_column;
        opts.layout.no_header = no_header;
        opts.layout.delimiter = match delimiter {
            None => None,
            Some(c) if c.is_ascii() => Some(c as u8),
            Some(c) => {
                return Err(PyValueError::new_err(format!(
                    "delimiter must be one ASCII character, not {c:?}"
                )))
            }
        };
        let data = Dataset::open(path, &opts).map_err(input_error)?;
        Ok(Reader {
            data: Some(data),
            batch: batch_size,
            records: Vec::new(),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(data) = self.data.as_mut() else {
            return Ok(None);
        };
        let (records, batch) = (&mut self.records, self.batch);
        py.detach(|| data.fill(records, batch))
            .map_err(input_error)?;
        if self.records.is_empty() {
            let mut data = self.data.take().expect("matched Some above");
            data.finish().map_err(input_error)?;
            return Ok(None);
        }
        let n = self.records.len();
        let mut puzzles = vec![0u8; n * CELLS];
        let mut valid = Vec::with_capacity(n);
        let mut record = Vec::with_capacity(n);
        let mut line = Vec::with_capacity(n);
        let errors = PyDict::new(py);
        let has_solutions = self.records.iter().any(|r| r.solution.is_some());
        let mut solutions = vec![0u8; if has_solutions { n * CELLS } else { 0 }];
        let solution_errors = PyDict::new(py);
        for (i, r) in self.records.iter().enumerate() {
            record.push(r.record as i64);
            line.push(r.line as i64);
            match &r.puzzle {
                Ok(g) => {
                    puzzles[i * CELLS..(i + 1) * CELLS].copy_from_slice(&g.0);
                    valid.push(true);
                }
                Err(e) => {
                    errors.set_item(i, e.to_string())?;
                    valid.push(false);
                }
            }
            match &r.solution {
                Some(Ok(g)) => solutions[i * CELLS..(i + 1) * CELLS].copy_from_slice(&g.0),
                Some(Err(e)) => solution_errors.set_item(i, e.to_string())?,
                None => {}
            }
        }
        let batch = PyDict::new(py);
        batch.set_item("record", PyArray1::from_vec(py, record))?;
        batch.set_item("line", PyArray1::from_vec(py, line))?;
        batch.set_item("puzzles", crate::cells_array(py, puzzles)?)?;
        batch.set_item("valid", PyArray1::from_vec(py, valid))?;
        batch.set_item("errors", errors)?;
        if has_solutions {
            batch.set_item("solutions", crate::cells_array(py, solutions)?)?;
            batch.set_item("solution_errors", solution_errors)?;
        } else {
            batch.set_item("solutions", py.None())?;
            batch.set_item("solution_errors", PyDict::new(py))?;
        }
        Ok(Some(batch))
    }
}
