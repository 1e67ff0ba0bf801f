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
//! **Bounded memory.** Each column is spooled as it comes, row by row: numbers and flags as
//! the little-endian bytes the array will hold, grids two cells a byte (41 bytes, not 81),
//! each word after its length (the width of a word array is known only at the end). The
//! spools stay in memory until together they pass 128 MiB, then all move to
//! unnamed temporary files (in `TMPDIR`) behind 1 MiB buffers: a temporary file's write,
//! read-back and page-cache cost was most of what `.npz` cost over CSV on small tables.
//! [`TableWriter::finish`] then writes each array's header and copies its spool into the
//! archive, unpacking grids and padding words on the way, so memory stays at the budget and
//! a few buffers whatever the row count (disk: about 60% of the archive's size). The zip is
//! written as a stream (sizes after each entry), so standard output works as well as a file.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};

use npyz::WriterBuilder;

use super::table::{Column, Kind, TableWriter, Value};
use super::Target;
use crate::grid::CELLS;

/// Bytes buffered per column on the way to its spool, and on the way back. Four columns
/// take 4 MiB; 64 KiB buffers cost 3% more time (2M rows, `augment`).
const SPOOL_BUFFER: usize = 1 << 20;

/// Bytes of a grid in its spool: two cells a byte, the low nibble first; the 81st cell
/// alone in the last byte.
const PACKED: usize = CELLS.div_ceil(2);

/// Grids unpacked at a time in [`TableWriter::finish`] (648 KiB of array).
const ROWS_PER_BLOCK: usize = 1 << 13;

/// `g` (cells `0..=9`, as every [`crate::grid::Grid`] holds) two cells a byte. Written on
/// little-endian pairs, `lo | hi << 8`, so that the compiler makes it vector code: with
/// `lo < 16`, the low byte of `pair | pair >> 4` is `lo | hi << 4`.
fn pack(g: &[u8; CELLS]) -> [u8; PACKED] {
    debug_assert!(g.iter().all(|&c| c <= 9), "a grid cell above 9: {g:?}");
    let mut p = [0u8; PACKED];
    for (byte, pair) in p.iter_mut().zip(g.chunks_exact(2)) {
        let pair = u16::from_le_bytes([pair[0], pair[1]]);
        *byte = (pair | pair >> 4) as u8;
    }
    p[PACKED - 1] = g[CELLS - 1];
    p
}

/// The 81 cells that [`pack`] made `p` into, written to `out`.
fn unpack(p: &[u8; PACKED], out: &mut [u8; CELLS]) {
    for (pair, &byte) in out.chunks_exact_mut(2).zip(p) {
        pair[0] = byte & 0x0F;
        pair[1] = byte >> 4;
    }
    out[CELLS - 1] = p[PACKED - 1];
}

/// Bytes the spools of a table hold in memory before they all move to temporary files.
const SPOOL_MEMORY: usize = 128 << 20;

/// One column's values so far, in memory until the table's spools pass [`SPOOL_MEMORY`],
/// then in a temporary file.
struct Spool {
    kind: Kind,
    store: Store,
    /// The longest word so far (text columns), bytes.
    width: usize,
}

/// A word's length in a text spool: one byte below this, else this byte and the length as
/// a little-endian `u64`.
const LONG_WORD: u8 = u8::MAX;

impl Spool {
    fn new(kind: Kind) -> Spool {
        Spool {
            kind,
            store: Store::Memory(Vec::new()),
            width: 0,
        }
    }

    fn push(&mut self, v: &Value<'_>) -> io::Result<()> {
        let f = &mut self.store;
        match (self.kind, v) {
            (Kind::Grid, Value::Grid(g)) => f.write_all(&pack(&g.0)),
            (Kind::Grid, _) => f.write_all(&[0; PACKED]),
            (Kind::Int, Value::Int(n)) => {
                f.write_all(&i64::try_from(*n).unwrap_or(i64::MAX).to_le_bytes())
            }
            (Kind::Int, _) => f.write_all(&(-1i64).to_le_bytes()),
            (Kind::Float, Value::Float(x)) => f.write_all(&x.to_le_bytes()),
            (Kind::Float, _) => f.write_all(&f64::NAN.to_le_bytes()),
            (Kind::Bytes(width), v) => {
                let b = match v {
                    Value::Bytes(b) => &b[..b.len().min(width)],
                    _ => &[],
                };
                f.write_all(b)?;
                // Zero padding to the array's width, a block at a time.
                let mut pad = width - b.len();
                while pad > 0 {
                    let n = pad.min(ZEROS.len());
                    f.write_all(&ZEROS[..n])?;
                    pad -= n;
                }
                Ok(())
            }
            (Kind::Text | Kind::Json | Kind::Steps, v) => {
                let json = v.json_text();
                let t = match (v, &json) {
                    (Value::Text(t), _) => t.as_bytes(),
                    (_, Some(j)) => j.as_bytes(),
                    _ => b"",
                };
                self.width = self.width.max(t.len());
                match u8::try_from(t.len()) {
                    Ok(n) if n < LONG_WORD => f.write_all(&[n])?,
                    _ => {
                        f.write_all(&[LONG_WORD])?;
                        f.write_all(&(t.len() as u64).to_le_bytes())?;
                    }
                }
                f.write_all(t)
            }
            (Kind::Bool, v) => f.write_all(&[u8::from(matches!(v, Value::Bool(true)))]),
        }
    }

    /// Bytes held in memory (0 once in a file).
    fn in_memory(&self) -> usize {
        match &self.store {
            Store::Memory(bytes) => bytes.len(),
            Store::File(_) => 0,
        }
    }

    /// Moves the spool's bytes from memory to a temporary file, where the rest will go.
    fn roll(&mut self) -> io::Result<()> {
        if let Store::Memory(bytes) = &self.store {
            let mut file = BufWriter::with_capacity(SPOOL_BUFFER, tempfile::tempfile()?);
            file.write_all(bytes)?;
            self.store = Store::File(file);
        }
        Ok(())
    }

    /// The spooled bytes, from the first.
    fn reader(self) -> io::Result<Box<dyn Read>> {
        Ok(match self.store {
            Store::Memory(bytes) => Box::new(io::Cursor::new(bytes)),
            Store::File(file) => {
                let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
                file.rewind()?;
                Box::new(BufReader::with_capacity(SPOOL_BUFFER, file))
            }
        })
    }
}

/// Where a spool's bytes are: in memory (written straight into the vector, no buffer
/// between), or in an unnamed temporary file behind a buffer.
enum Store {
    Memory(Vec<u8>),
    File(BufWriter<File>),
}

impl Write for Store {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Store::Memory(v) => v.write(buf),
            Store::File(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Store::Memory(v) => {
                v.extend_from_slice(buf);
                Ok(())
            }
            Store::File(f) => f.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Store::Memory(_) => Ok(()),
            Store::File(f) => f.flush(),
        }
    }
}

/// Zeros to pad fixed-width byte rows with.
const ZEROS: [u8; 512] = [0; 512];

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
    let (kind, width) = (spool.kind, spool.width);
    let mut data = spool.reader()?;
    match kind {
        Kind::Grid => {
            w.write_all(&header::<u8>(&[rows, CELLS as u64])?)?;
            return write_grids(w, &mut data, rows);
        }
        Kind::Int => w.write_all(&header::<i64>(&[rows])?)?,
        Kind::Float => w.write_all(&header::<f64>(&[rows])?)?,
        Kind::Bool => w.write_all(&header::<bool>(&[rows])?)?,
        Kind::Bytes(n) => w.write_all(&header::<u8>(&[rows, n as u64])?)?,
        Kind::Text | Kind::Json | Kind::Steps => return write_text(w, &mut data, width, rows),
    }
    // The spool holds the array's bytes: copied through the reader's buffer, 1 MiB a write.
    io::copy(&mut data, w)?;
    Ok(())
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

/// Writes a spooled grid column (41 bytes a grid) as `rows` × 81 cells, a block at a time.
fn write_grids<W: io::Write, R: Read>(w: &mut W, data: &mut R, rows: u64) -> io::Result<()> {
    let mut packed = vec![0u8; ROWS_PER_BLOCK * PACKED];
    let mut cells = vec![0u8; ROWS_PER_BLOCK * CELLS];
    let mut left = rows;
    while left > 0 {
        let n = left.min(ROWS_PER_BLOCK as u64) as usize;
        let block = &mut packed[..n * PACKED];
        data.read_exact(block)?;
        let cells = &mut cells[..n * CELLS];
        for (p, out) in block
            .chunks_exact(PACKED)
            .zip(cells.chunks_exact_mut(CELLS))
        {
            unpack(
                p.try_into().expect("chunks of PACKED bytes"),
                out.try_into().expect("chunks of CELLS bytes"),
            );
        }
        w.write_all(cells)?;
        left -= n as u64;
    }
    Ok(())
}

/// Writes a spooled text column (each word after its length) as fixed-width byte strings
/// (`|S<w>`, w = the longest value, at least 1), each padded with NUL bytes as numpy does,
/// a block of rows at a time (npyz's writer takes one value at a time: 6% of the run).
fn write_text<W: io::Write, R: Read>(
    w: &mut W,
    data: &mut R,
    width: usize,
    rows: u64,
) -> io::Result<()> {
    let width = width.max(1);
    let dtype = npyz::DType::Plain(
        format!("|S{width}")
            .parse()
            .expect("|S<n> is a valid type string"),
    );
    w.write_all(&header_of::<[u8]>(dtype, &[rows])?)?;
    let mut block = Vec::with_capacity(ROWS_PER_BLOCK.saturating_mul(width).min(SPOOL_BUFFER));
    for _ in 0..rows {
        let mut len = [0u8; 1];
        data.read_exact(&mut len)?;
        let len = if len[0] == LONG_WORD {
            let mut long = [0u8; 8];
            data.read_exact(&mut long)?;
            u64::from_le_bytes(long) as usize
        } else {
            usize::from(len[0])
        };
        let start = block.len();
        block.resize(start + width, 0);
        data.read_exact(&mut block[start..start + len])?;
        if block.len() >= SPOOL_BUFFER {
            w.write_all(&block)?;
            block.clear();
        }
    }
    w.write_all(&block)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell comes back from the two-a-byte spool form, in order, the odd 81st too.
    #[test]
    fn grids_pack_two_cells_a_byte_and_unpack() {
        let mut g = [0u8; CELLS];
        for (i, c) in g.iter_mut().enumerate() {
            *c = (i * 7 % 10) as u8;
        }
        g[CELLS - 1] = 9;
        let p = pack(&g);
        assert_eq!(p[0], g[0] | (g[1] << 4));
        assert_eq!(p[PACKED - 1], 9);
        let mut out = [10u8; CELLS];
        unpack(&p, &mut out);
        assert_eq!(out, g);
    }

    /// Values come back from the spools in order across block boundaries (more rows than
    /// [`ROWS_PER_BLOCK`], text blocks over [`SPOOL_BUFFER`]): grids unpacked, missing
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
