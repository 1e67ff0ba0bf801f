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

use std::io::{self, Write};

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

/// The array name of column `c`: grid columns in the plural (`puzzle` → `puzzles`,
/// `minlex` → `minlexes`).
pub fn array_name(c: &Column) -> String {
    match c.kind {
        Kind::Grid if c.name.ends_with(['s', 'x']) => format!("{}es", c.name),
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
    let mut w = io::BufWriter::with_capacity(1 << 16, w);
    match buf {
        Buffer::Grid(cells) => {
            w.write_all(&header::<u8>(&[rows, CELLS as u64])?)?;
            w.write_all(cells)?;
        }
        Buffer::Int(v) => {
            w.write_all(&header::<i64>(&[rows])?)?;
            v.iter().try_for_each(|x| w.write_all(&x.to_le_bytes()))?;
        }
        Buffer::Float(v) => {
            w.write_all(&header::<f64>(&[rows])?)?;
            v.iter().try_for_each(|x| w.write_all(&x.to_le_bytes()))?;
        }
        Buffer::Bool(v) => {
            w.write_all(&header::<bool>(&[rows])?)?;
            v.iter().try_for_each(|&x| w.write_all(&[u8::from(x)]))?;
        }
        Buffer::Text(bytes, ends) => write_text(&mut w, bytes, ends, rows)?,
    }
    w.flush()
}

/// The `.npy` header of an array of `T` (its default dtype: `|u1`, `<i8`, `<f8`, `|b1`) of
/// the given shape, as npyz writes it. The data that follows is the values' little-endian
/// bytes in row-major order, which the caller writes in one piece: npyz's own writer takes
/// one value at a time, which made `.npz` output 3x slower than CSV (81 cells a grid).
fn header<T: npyz::AutoSerialize>(shape: &[u64]) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let writer = npyz::WriteOptions::<T>::new()
        .default_dtype()
        .shape(shape)
        .writer(&mut out)
        .begin_nd()?;
    // Dropped before any value: npyz then writes nothing more (its count check fails
    // silently on drop), so `out` holds exactly the header.
    drop(writer);
    Ok(out)
}

/// Writes a text column as fixed-width byte strings (`|S<w>`, w = the longest value, at
/// least 1), each padded with NUL bytes as numpy does.
fn write_text<W: io::Write>(w: &mut W, bytes: &[u8], ends: &[usize], rows: u64) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The headers are those numpy expects: magic, version, a dict with the dtype and
    /// shape, padded so the data starts at a multiple of 64 bytes.
    #[test]
    fn headers_name_dtype_and_shape() {
        for (h, descr, shape) in [
            (header::<u8>(&[3, 81]).unwrap(), "'|u1'", "(3,81,)"),
            (header::<i64>(&[5]).unwrap(), "'<i8'", "(5,)"),
            (header::<f64>(&[0]).unwrap(), "'<f8'", "(0,)"),
            (header::<bool>(&[2]).unwrap(), "'|b1'", "(2,)"),
        ] {
            assert_eq!(&h[..6], b"\x93NUMPY");
            assert_eq!(h.len() % 64, 0, "{h:?}");
            let text = String::from_utf8_lossy(&h[10..]);
            assert!(text.contains(&format!("'descr': {descr}")), "{text}");
            let tight = text.replace(' ', "");
            assert!(tight.contains(&format!("'shape':{shape}")), "{text}");
            assert!(text.ends_with('\n'));
        }
    }
}
