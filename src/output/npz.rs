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
//! **Bounded memory.** Each column is spooled as it comes, row by row, to an unnamed
//! temporary file (in `TMPDIR`) through a 64 KiB buffer: the cells, numbers and flags as the
//! little-endian bytes the array will hold, each word with its length before it (the width
//! of a word array is known only at the end). [`TableWriter::finish`] then writes each array's
//! header and copies its spool into the archive, so memory stays at a few buffers whatever
//! the row count (disk: about the size of the archive). The zip is written as a stream (sizes
//! after each entry), so standard output works as well as a file.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};

use npyz::WriterBuilder;

use super::table::{Column, Kind, TableWriter, Value};
use super::Target;
use crate::grid::CELLS;

/// Bytes buffered per column before they go to its spool.
const SPOOL_BUFFER: usize = 1 << 16;

/// One column's values so far, in a temporary file.
struct Spool {
    kind: Kind,
    file: BufWriter<File>,
    /// The longest word so far (text columns), bytes.
    width: usize,
}

impl Spool {
    fn new(kind: Kind) -> io::Result<Spool> {
        Ok(Spool {
            kind,
            file: BufWriter::with_capacity(SPOOL_BUFFER, tempfile::tempfile()?),
            width: 0,
        })
    }

    fn push(&mut self, v: &Value<'_>) -> io::Result<()> {
        let f = &mut self.file;
        match (self.kind, v) {
            (Kind::Grid, Value::Grid(g)) => f.write_all(&g.0),
            (Kind::Grid, _) => f.write_all(&[0; CELLS]),
            (Kind::Int, Value::Int(n)) => {
                f.write_all(&i64::try_from(*n).unwrap_or(i64::MAX).to_le_bytes())
            }
            (Kind::Int, _) => f.write_all(&(-1i64).to_le_bytes()),
            (Kind::Float, Value::Float(x)) => f.write_all(&x.to_le_bytes()),
            (Kind::Float, _) => f.write_all(&f64::NAN.to_le_bytes()),
            (Kind::Text, v) => {
                let t = match v {
                    Value::Text(t) => t.as_bytes(),
                    _ => b"",
                };
                self.width = self.width.max(t.len());
                f.write_all(&(t.len() as u64).to_le_bytes())?;
                f.write_all(t)
            }
            (Kind::Bool, v) => f.write_all(&[u8::from(matches!(v, Value::Bool(true)))]),
        }
    }
}

/// Spools every column, then writes the `.npz` on [`TableWriter::finish`].
pub(crate) struct NpzTable {
    out: Target,
    columns: &'static [Column],
    spools: Vec<Spool>,
    rows: u64,
}

impl NpzTable {
    pub(crate) fn new(out: Target, columns: &'static [Column]) -> io::Result<NpzTable> {
        let spools = columns
            .iter()
            .map(|c| Spool::new(c.kind))
            .collect::<io::Result<_>>()?;
        Ok(NpzTable {
            out,
            columns,
            spools,
            rows: 0,
        })
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
        for (spool, v) in self.spools.iter_mut().zip(row) {
            spool.push(v)?;
        }
        self.rows += 1;
        Ok(())
    }

    fn start_writeback(&self) {}

    fn finish(self: Box<Self>) -> io::Result<Target> {
        let NpzTable {
            out,
            columns,
            spools,
            rows,
        } = *self;
        let mut zip = zip::ZipWriter::new_stream(out);
        for (col, spool) in columns.iter().zip(spools) {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .large_file(true);
            zip.start_file(format!("{}.npy", array_name(col)), options)
                .map_err(io::Error::other)?;
            write_array(&mut zip, spool, rows)?;
        }
        let stream = zip.finish().map_err(io::Error::other)?;
        Ok(stream.into_inner())
    }
}

/// Writes one spooled column as a `.npy` array of `rows` rows into `w`.
fn write_array<W: io::Write>(w: &mut W, spool: Spool, rows: u64) -> io::Result<()> {
    let (kind, width) = (spool.kind, spool.width);
    let mut file = spool
        .file
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?;
    file.rewind()?;
    let mut data = BufReader::with_capacity(SPOOL_BUFFER, file);
    let mut w = BufWriter::with_capacity(SPOOL_BUFFER, w);
    match kind {
        Kind::Grid => w.write_all(&header::<u8>(&[rows, CELLS as u64])?)?,
        Kind::Int => w.write_all(&header::<i64>(&[rows])?)?,
        Kind::Float => w.write_all(&header::<f64>(&[rows])?)?,
        Kind::Bool => w.write_all(&header::<bool>(&[rows])?)?,
        Kind::Text => return write_text(&mut w, &mut data, width, rows),
    }
    io::copy(&mut data, &mut w)?;
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

/// Writes a spooled text column (each word after its length) as fixed-width byte strings
/// (`|S<w>`, w = the longest value, at least 1), each padded with NUL bytes as numpy does.
fn write_text<W: io::Write, R: Read>(
    w: &mut W,
    data: &mut R,
    width: usize,
    rows: u64,
) -> io::Result<()> {
    let dtype = npyz::DType::Plain(
        format!("|S{}", width.max(1))
            .parse()
            .expect("|S<n> is a valid type string"),
    );
    let mut a = npyz::WriteOptions::<[u8]>::new()
        .dtype(dtype)
        .shape(&[rows])
        .writer(w)
        .begin_nd()?;
    let mut word = Vec::new();
    for _ in 0..rows {
        let mut len = [0u8; 8];
        data.read_exact(&mut len)?;
        word.resize(u64::from_le_bytes(len) as usize, 0);
        data.read_exact(&mut word)?;
        a.push(&word)?;
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
