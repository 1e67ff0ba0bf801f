//! Puzzles as Python hands them over: an `(N, 81)` `uint8` array, a list of texts, or an
//! Arrow string array, read in place (no copy of a numpy array or an Arrow buffer).
//!
//! `sudoku_batch/__init__.py` turns every other form (lists of lists, other integer
//! dtypes, `(N, 9, 9)` arrays, numpy string arrays) into one of these three first.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyList, PyString};
use pyo3_arrow::input::AnyArray;
use sudoku_batch::{Grid, ParseError};

/// The cells of one row: 81 values `0..=9`, row-major, 0 = empty.
pub(crate) const CELLS: usize = 81;

/// One list element.
pub(crate) enum Item {
    Str(PyBackedStr),
    Bytes(PyBackedBytes),
    /// Not text: why the row is invalid.
    Other(String),
}

/// The rows of one call's puzzles argument.
pub(crate) enum Puzzles<'py> {
    /// An `(N, 81)` C-contiguous `uint8` array.
    Cells(PyReadonlyArray2<'py, u8>),
    /// A list of `str` or `bytes`, one puzzle each (other elements are invalid rows).
    List(Vec<Item>),
    /// The chunks of an Arrow string (or binary) array.
    Arrow(Vec<ArrayRef>),
}

impl<'py> Puzzles<'py> {
    /// Reads `obj`: a `uint8` ndarray, a `list`, or an object with `__arrow_c_array__` /
    /// `__arrow_c_stream__`.
    ///
    /// # Errors
    /// `TypeError` for anything else, or an Arrow array not of strings; `ValueError` for
    /// an array not shaped `(N, 81)` or not C-contiguous.
    pub(crate) fn extract(obj: &Bound<'py, PyAny>) -> PyResult<Puzzles<'py>> {
        if let Ok(cells) = obj.extract::<PyReadonlyArray2<'py, u8>>() {
            let shape = cells.shape();
            if shape[1] != CELLS {
                return Err(PyValueError::new_err(format!(
                    "puzzle array has shape ({}, {}), expected (N, 81)",
                    shape[0], shape[1]
                )));
            }
            if !cells.is_c_contiguous() {
                return Err(PyValueError::new_err(
                    "puzzle array is not C-contiguous (numpy.ascontiguousarray makes it so)",
                ));
            }
            return Ok(Puzzles::Cells(cells));
        }
        if let Ok(list) = obj.cast::<PyList>() {
            let items = list
                .iter()
                .map(|item| {
                    if let Ok(s) = item.cast::<PyString>() {
                        s.clone().try_into().map(Item::Str)
                    } else if let Ok(b) = item.cast::<PyBytes>() {
                        Ok(Item::Bytes(b.clone().into()))
                    } else {
                        let kind = item.get_type().name()?;
                        Ok(Item::Other(format!("expected a str, got {kind}")))
                    }
                })
                .collect::<PyResult<_>>()?;
            return Ok(Puzzles::List(items));
        }
        let py = obj.py();
        if obj.hasattr(pyo3::intern!(py, "__arrow_c_array__"))?
            || obj.hasattr(pyo3::intern!(py, "__arrow_c_stream__"))?
        {
            let any: AnyArray = obj.extract()?;
            let chunked = any.into_chunked_array()?;
            let (chunks, field) = chunked.into_inner();
            if !is_text(field.data_type()) {
                return Err(PyTypeError::new_err(format!(
                    "an Arrow array of puzzles must hold strings (Utf8, LargeUtf8, Utf8View) \
                     or binary, not {}",
                    field.data_type()
                )));
            }
            return Ok(Puzzles::Arrow(chunks));
        }
        let kind = obj.get_type().name()?;
        Err(PyTypeError::new_err(format!(
            "puzzles must be an (N, 81) uint8 array, a list of 81-character strings or an \
             Arrow string array, not {kind}"
        )))
    }

    /// Number of rows.
    pub(crate) fn len(&self) -> usize {
        match self {
            Puzzles::Cells(a) => a.shape()[0],
            Puzzles::List(items) => items.len(),
            Puzzles::Arrow(chunks) => chunks.iter().map(|c| c.len()).sum(),
        }
    }

    /// The rows as texts (for [`Puzzles::List`] and [`Puzzles::Arrow`]), with the reason of
    /// every row that holds no text (a list element not `str`/`bytes`, an Arrow null): such
    /// a row is given as empty text, and its reason replaces the parse error.
    pub(crate) fn texts(&self) -> (Vec<&[u8]>, Vec<(usize, String)>) {
        let mut texts = Vec::with_capacity(self.len());
        let mut reasons = Vec::new();
        match self {
            Puzzles::Cells(_) => {}
            Puzzles::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    texts.push(match item {
                        Item::Str(s) => s.as_bytes(),
                        Item::Bytes(b) => b.as_ref(),
                        Item::Other(why) => {
                            reasons.push((i, why.clone()));
                            b"".as_slice()
                        }
                    });
                }
            }
            Puzzles::Arrow(chunks) => {
                for chunk in chunks {
                    let before = texts.len();
                    push_arrow_texts(chunk.as_ref(), &mut texts);
                    for j in 0..chunk.len() {
                        if chunk.is_null(j) {
                            reasons.push((before + j, "null".to_string()));
                        }
                    }
                }
            }
        }
        (texts, reasons)
    }

    /// Every row as a [`Grid`], or `ValueError` naming the first row (0-based) that is not
    /// one, as `what row I: reason`.
    ///
    /// # Errors
    /// `ValueError` for the first row that does not parse.
    pub(crate) fn grids(&self, what: &str) -> PyResult<Vec<Grid>> {
        let bad = |i: usize, e: &dyn std::fmt::Display| {
            PyValueError::new_err(format!("{what} row {i}: {e}"))
        };
        match self {
            Puzzles::Cells(a) => {
                let cells = a.as_slice().expect("checked C-contiguous on extraction");
                cells
                    .chunks_exact(CELLS)
                    .enumerate()
                    .map(|(i, row)| Grid::from_cells(row).map_err(|e| bad(i, &e)))
                    .collect()
            }
            _ => {
                let (texts, reasons) = self.texts();
                if let Some((i, why)) = reasons.first() {
                    return Err(bad(*i, why));
                }
                texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| Grid::parse(t).map_err(|e: ParseError| bad(i, &e)))
                    .collect()
            }
        }
    }
}

/// Whether an Arrow type holds text this module reads.
fn is_text(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
    )
}

/// Appends the values of one chunk (empty for a null), borrowed from its buffers.
fn push_arrow_texts<'a>(chunk: &'a dyn Array, out: &mut Vec<&'a [u8]>) {
    let value = |v: Option<&'a [u8]>| v.unwrap_or(b"");
    match chunk.data_type() {
        DataType::Utf8 => out.extend(
            chunk
                .as_string::<i32>()
                .iter()
                .map(|v| value(v.map(str::as_bytes))),
        ),
        DataType::LargeUtf8 => out.extend(
            chunk
                .as_string::<i64>()
                .iter()
                .map(|v| value(v.map(str::as_bytes))),
        ),
        DataType::Utf8View => out.extend(
            chunk
                .as_string_view()
                .iter()
                .map(|v| value(v.map(str::as_bytes))),
        ),
        DataType::Binary => out.extend(chunk.as_binary::<i32>().iter().map(value)),
        DataType::LargeBinary => out.extend(chunk.as_binary::<i64>().iter().map(value)),
        DataType::BinaryView => out.extend(chunk.as_binary_view().iter().map(value)),
        _ => unreachable!("the type was checked by is_text on extraction"),
    }
}
