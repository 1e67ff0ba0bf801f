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
//! **Bounded memory.** Each column is spooled as it comes, row by row, in a compact form
//! (grids two cells a byte, whole numbers as differences from the row before, a word
//! repeated from the row before as one byte, the Shah layout's rows two values a byte: about
//! 180 bytes a trace row, where the arrays take 460). The spools stay in memory until
//! together they pass 128 MiB, then all move to unnamed temporary files (in `TMPDIR`)
//! behind 1 MiB buffers: a temporary file's write, read-back and page-cache cost was most of
//! what `.npz` cost over CSV on small tables. [`TableWriter::finish`] then writes each
//! array's header and its values, unspooled on the way, so memory stays at the budget and a
//! few buffers whatever the row count. The zip is written as a stream (sizes after each
//! entry), so standard output works as well as a file.

mod spool;

use std::io;

use npyz::WriterBuilder;

use super::table::{Column, Kind, TableWriter, Value};
use super::Target;
use crate::grid::CELLS;
use spool::Spool;

/// Bytes the spools of a table hold in memory before they all move to temporary files.
const SPOOL_MEMORY: usize = 128 << 20;

/// Spools every column, then writes the `.npz` on [`TableWriter::finish`].
pub(crate) struct NpzTable {
    out: Target,
    columns: &'static [Column],
    spools: Vec<Spool>,
    rows: u64,
    /// Bytes the spools may hold in memory ([`SPOOL_MEMORY`]).
    memory: usize,
    /// The spools have moved to temporary files.
    rolled: bool,
}

impl NpzTable {
    pub(crate) fn new(out: Target, columns: &'static [Column]) -> io::Result<NpzTable> {
        let spools = columns.iter().map(|c| Spool::new(c.kind)).collect();
        Ok(NpzTable {
            out,
            columns,
            spools,
            rows: 0,
            memory: SPOOL_MEMORY,
            rolled: false,
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
        if !self.rolled && self.spools.iter().map(Spool::in_memory).sum::<usize>() > self.memory {
            for spool in &mut self.spools {
                spool.roll()?;
            }
            self.rolled = true;
        }
        Ok(())
    }

    fn start_writeback(&self) {}

    fn finish(self: Box<Self>) -> io::Result<Target> {
        let NpzTable {
            out,
            columns,
            spools,
            rows,
            ..
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
    let header = match spool.kind() {
        Kind::Grid => header::<u8>(&[rows, CELLS as u64])?,
        Kind::Int => header::<i64>(&[rows])?,
        Kind::Float => header::<f64>(&[rows])?,
        Kind::Bool => header::<bool>(&[rows])?,
        Kind::Bytes(n) => header::<u8>(&[rows, n as u64])?,
        Kind::Text | Kind::Json | Kind::Steps => {
            let dtype = npyz::DType::Plain(
                format!("|S{}", spool.width().max(1))
                    .parse()
                    .expect("|S<n> is a valid type string"),
            );
            header_of::<[u8]>(dtype, &[rows])?
        }
    };
    w.write_all(&header)?;
    spool.write_values(w, rows)
}

/// The `.npy` header of an array of `T` (its default dtype: `|u1`, `<i8`, `<f8`, `|b1`) of
/// the given shape, as npyz writes it. The data that follows is the values' little-endian
/// bytes in row-major order, which the caller writes in one piece: npyz's own writer takes
/// one value at a time, which made `.npz` output 3x slower than CSV (81 cells a grid).
fn header<T: npyz::AutoSerialize>(shape: &[u64]) -> io::Result<Vec<u8>> {
    header_of::<T>(T::default_dtype(), shape)
}

/// The `.npy` header that npyz writes for an array of `T` stored as `dtype`, of `shape`.
fn header_of<T: npyz::Serialize + ?Sized>(
    dtype: npyz::DType,
    shape: &[u64],
) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let writer = npyz::WriteOptions::<T>::new()
        .dtype(dtype)
        .shape(shape)
        .writer(&mut out)
        .begin_nd()?;
    // Dropped before any value: npyz then writes nothing more (its count check fails
    // silently on drop), so `out` holds exactly the header.
    drop(writer);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::spool::ROWS_PER_BLOCK;
    use super::*;
    use std::fs::File;
    use std::io::Read;

    /// Values come back from the spools in order across block boundaries (more rows than
    /// [`ROWS_PER_BLOCK`], text blocks over the output block): grids unpacked, missing
    /// ones as zeros, words padded to the longest (over 255 bytes, so its length takes the
    /// long form), a missing word empty.
    #[test]
    fn spooled_columns_come_back_across_blocks() {
        spool_and_read_back(SPOOL_MEMORY);
    }

    /// The same with the spools moved to temporary files a few rows in: the bytes spooled
    /// in memory come first, then the rest.
    #[test]
    fn spools_moved_to_files_come_back_whole() {
        spool_and_read_back(4096);
    }

    fn spool_and_read_back(memory: usize) {
        const COLUMNS: &[Column] = &[
            Column {
                name: "puzzle",
                kind: Kind::Grid,
            },
            Column {
                name: "note",
                kind: Kind::Text,
            },
        ];
        let rows = ROWS_PER_BLOCK + 3;
        let grid = |i: usize| crate::grid::Grid(std::array::from_fn(|c| ((i + c) % 10) as u8));
        // The longest word: row 5, 10 + 300 bytes.
        let word = |i: usize| "ab".repeat(i % 7) + &"z".repeat(if i == 5 { 300 } else { 0 });
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.npz");
        let mut w = NpzTable::new(Target::create(path.to_str().unwrap()).unwrap(), COLUMNS)
            .map(Box::new)
            .unwrap();
        w.memory = memory;
        for i in 0..rows {
            let (g, t) = (grid(i), word(i));
            let row = match i % 5 {
                4 => [Value::Null, Value::Null],
                _ => [Value::Grid(&g), Value::Text(&t)],
            };
            w.write_row(&row).unwrap();
        }
        assert_eq!(w.rolled, memory < rows * 50);
        w.finish().unwrap().commit().unwrap();

        let mut zip = zip::ZipArchive::new(File::open(&path).unwrap()).unwrap();
        let mut array = |name: &str| {
            let mut bytes = Vec::new();
            zip.by_name(name).unwrap().read_to_end(&mut bytes).unwrap();
            npyz::NpyFile::new(io::Cursor::new(bytes)).unwrap()
        };
        let puzzles = array("puzzles.npy");
        assert_eq!(puzzles.shape(), [rows as u64, CELLS as u64]);
        let cells: Vec<u8> = puzzles.into_vec().unwrap();
        let notes = array("note.npy");
        assert_eq!(notes.dtype().descr(), "'|S310'");
        let notes: Vec<Vec<u8>> = notes.into_vec().unwrap();
        assert_eq!(notes.len(), rows);
        for i in 0..rows {
            let (g, t) = match i % 5 {
                4 => ([0; CELLS], String::new()),
                _ => (grid(i).0, word(i)),
            };
            assert_eq!(cells[i * CELLS..(i + 1) * CELLS], g, "row {i}");
            assert_eq!(notes[i], t.as_bytes(), "row {i}");
        }
    }

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
