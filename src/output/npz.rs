//! numpy `.npz` output for tables: an uncompressed zip (as `numpy.savez` writes) holding one
//! `.npy` array per column, N rows each, so `numpy.load(path)["puzzles"]` is an N×81 `uint8`
//! array with 0 for a blank.
//!
//! | column kind | array | dtype | missing value |
//! |---|---|---|---|
//! | grid (`puzzle`) | `puzzles`, N×81 (the name + `s`) | `uint8`, 0 = blank | all zeros |
//! | whole number | same name, N | `int64` | −1 |
//! | real number | same name, N | `float64` | NaN |
//! | word or path | same name, N | byte string (`S` dtype, as wide as the longest value) | empty |
//! | flag | same name, N | `bool` | false |
//!
//! An array is written whole, column after column, so every row is held in memory until the
//! end: 81 bytes per grid column, 8 per number, the text's length per word. The zip is
//! written as a stream (sizes after each entry), so standard output works as well as a file.

use std::io;

use npyz::WriterBuilder;

use super::table::{Column, Kind, TableWriter, Value};
use super::Target;
use crate::grid::CELLS;

/// One column's values so far.
enum Buffer {
    /// Row-major N×81 cells.
    Grid(Vec<u8>),
    Int(Vec<i64>),
    Float(Vec<f64>),
    /// All values end to end, and where each ends.
    Text(Vec<u8>, Vec<usize>),
    Bool(Vec<bool>),
}

/// Buffers every row, then writes the `.npz` on [`TableWriter::finish`].
pub(crate) struct NpzTable {
    out: Target,
    columns: &'static [Column],
    buffers: Vec<Buffer>,
    rows: u64,
}

impl NpzTable {
    pub(crate) fn new(out: Target, columns: &'static [Column]) -> NpzTable {
        let buffers = columns
            .iter()
            .map(|c| match c.kind {
                Kind::Grid => Buffer::Grid(Vec::new()),
                Kind::Int => Buffer::Int(Vec::new()),
                Kind::Float => Buffer::Float(Vec::new()),
                Kind::Text => Buffer::Text(Vec::new(), Vec::new()),
                Kind::Bool => Buffer::Bool(Vec::new()),
            })
            .collect();
        NpzTable {
            out,
            columns,
            buffers,
            rows: 0,
        }
    }
}

/// The array name of column `c`: grid columns in the plural (`puzzle` → `puzzles`).
pub fn array_name(c: &Column) -> String {
    match c.kind {
        Kind::Grid => format!("{}s", c.name),
        _ => c.name.to_string(),
    }
}

impl TableWriter for NpzTable {
    fn write_row(&mut self, row: &[Value<'_>]) -> io::Result<()> {
        for (buf, v) in self.buffers.iter_mut().zip(row) {
            match (buf, v) {
                (Buffer::Grid(b), Value::Grid(g)) => b.extend_from_slice(&g.0),
                (Buffer::Grid(b), _) => b.extend_from_slice(&[0; CELLS]),
                (Buffer::Int(b), Value::Int(n)) => b.push(i64::try_from(*n).unwrap_or(i64::MAX)),
                (Buffer::Int(b), _) => b.push(-1),
                (Buffer::Float(b), Value::Float(x)) => b.push(*x),
                (Buffer::Float(b), _) => b.push(f64::NAN),
                (Buffer::Text(b, ends), v) => {
                    if let Value::Text(t) = v {
                        b.extend_from_slice(t.as_bytes());
                    }
                    ends.push(b.len());
                }
                (Buffer::Bool(b), v) => b.push(matches!(v, Value::Bool(true))),
            }
        }
        self.rows += 1;
        Ok(())
    }

    fn start_writeback(&self) {}

    fn finish(self: Box<Self>) -> io::Result<Target> {
        let NpzTable {
            out,
            columns,
            buffers,
            rows,
        } = *self;
        let mut zip = zip::ZipWriter::new_stream(out);
        for (col, buf) in columns.iter().zip(&buffers) {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .large_file(true);
            zip.start_file(format!("{}.npy", array_name(col)), options)
                .map_err(io::Error::other)?;
            write_array(&mut zip, buf, rows)?;
        }
        let stream = zip.finish().map_err(io::Error::other)?;
        Ok(stream.into_inner())
    }
}

/// Writes one column as a `.npy` array of `rows` rows into `w`.
fn write_array<W: io::Write>(w: &mut W, buf: &Buffer, rows: u64) -> io::Result<()> {
    let w = io::BufWriter::with_capacity(1 << 16, w);
    match buf {
        Buffer::Grid(cells) => {
            let mut a = npyz::WriteOptions::<u8>::new()
                .default_dtype()
                .shape(&[rows, CELLS as u64])
                .writer(w)
                .begin_nd()?;
            a.extend(cells.iter().copied())?;
            a.finish()
        }
        Buffer::Int(v) => column(w, v, rows),
        Buffer::Float(v) => column(w, v, rows),
        Buffer::Bool(v) => column(w, v, rows),
        Buffer::Text(bytes, ends) => {
            let mut start = 0;
            let width = ends
                .iter()
                .map(|&e| {
                    let len = e - start;
                    start = e;
                    len
                })
                .max()
                .unwrap_or(0)
                .max(1);
            let dtype = npyz::DType::Plain(
                format!("|S{width}")
                    .parse()
                    .expect("|S<n> is a valid type string"),
            );
            let mut a = npyz::WriteOptions::<[u8]>::new()
                .dtype(dtype)
                .shape(&[rows])
                .writer(w)
                .begin_nd()?;
            let mut start = 0;
            for &e in ends {
                a.push(&bytes[start..e])?;
                start = e;
            }
            a.finish()
        }
    }
}

/// A 1-D array of `rows` plain values.
fn column<W: io::Write, T: npyz::AutoSerialize + Copy>(
    w: W,
    values: &[T],
    rows: u64,
) -> io::Result<()> {
    let mut a = npyz::WriteOptions::<T>::new()
        .default_dtype()
        .shape(&[rows])
        .writer(w)
        .begin_nd()?;
    a.extend(values.iter().copied())?;
    a.finish()
}
