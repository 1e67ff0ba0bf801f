//! One column of an `.npz` table between its rows and its array: spooled in a compact form
//! (in memory, or in a temporary file once the table's spools pass their budget), then
//! written out as the array's data bytes.
//!
//! The compact form exists because every spooled byte is fresh memory (or page cache) the
//! kernel has to hand out and zero, which cost more than the tracing itself on large tables:
//!
//! | column kind | spooled as | array bytes |
//! |---|---|---|
//! | grid | two cells a byte, the 81st alone (41 bytes) | 81 |
//! | whole number | the difference from the row before, zigzag, LEB128 (1 byte for a count or a row number) | 8 |
//! | word | its length (one byte, or 255 and a `u64`) and its bytes; one byte (254) when the row before had the same word | the longest word |
//! | bytes (`n` wide) | a tag 0, the first value and the other `n - 1` two a byte when all of them are below 16 (the Shah layout's rows); else a tag 1 and the `n` values | `n` |
//! | real number, flag | the array's own bytes | 8, 1 |

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, Write};

use crate::grid::CELLS;
use crate::output::table::{Kind, Value};

/// Bytes buffered per column on the way to its temporary file, and on the way back. Four
/// columns take 4 MiB; 64 KiB buffers cost 3% more time (2M rows, `augment`).
pub(super) const SPOOL_BUFFER: usize = 1 << 20;

/// Bytes of a grid in its spool: two cells a byte, the low nibble first; the 81st cell
/// alone in the last byte.
const PACKED: usize = CELLS.div_ceil(2);

/// Bytes of array values made at a time on the way out: a block small enough to stay in
/// cache while it is written, so that writing an array touches no fresh memory (1 MiB
/// blocks were fresh pages for every column).
const OUT_BLOCK: usize = 1 << 16;

/// Grids unpacked at a time on the way out (an [`OUT_BLOCK`] of cells).
pub(super) const ROWS_PER_BLOCK: usize = OUT_BLOCK / CELLS;

/// A word's length in a text spool: one byte below [`SAME_WORD`], else this byte and the
/// length as a little-endian `u64`.
const LONG_WORD: u8 = u8::MAX;

/// In a text spool: the row before's word again.
const SAME_WORD: u8 = u8::MAX - 1;

/// A bytes row spooled two values a byte after its first ([`pack_pairs`]).
const PACKED_ROW: u8 = 0;
/// A bytes row spooled as it is (a value after the first is 16 or more).
const RAW_ROW: u8 = 1;

/// `g` (cells `0..=9`, as every [`crate::grid::Grid`] holds) two cells a byte. Written on
/// little-endian pairs, `lo | hi << 8`, so that the compiler makes it vector code: with
/// `lo < 16`, the low byte of `pair | pair >> 4` is `lo | hi << 4`.
fn pack(g: &[u8; CELLS]) -> [u8; PACKED] {
    debug_assert!(g.iter().all(|&c| c <= 9), "a grid cell above 9: {g:?}");
    let mut p = [0u8; PACKED];
    pack_pairs(g, &mut p);
    p
}

/// Values below 16 two a byte, the first of each pair in the low nibble; an odd last
/// value alone in the last byte. `out` is `values.len().div_ceil(2)` bytes.
fn pack_pairs(values: &[u8], out: &mut [u8]) {
    let pairs = values.chunks_exact(2);
    let odd = pairs.remainder().first().copied();
    for (byte, pair) in out.iter_mut().zip(pairs) {
        let pair = u16::from_le_bytes([pair[0], pair[1]]);
        *byte = (pair | pair >> 4) as u8;
    }
    if let Some(last) = odd {
        out[values.len() / 2] = last;
    }
}

/// The values that [`pack_pairs`] made `packed` into, written to `out` (as many as it holds).
fn unpack_pairs(packed: &[u8], out: &mut [u8]) {
    let n = out.len();
    let mut pairs = out.chunks_exact_mut(2);
    for (pair, &byte) in (&mut pairs).zip(packed) {
        pair[0] = byte & 0x0F;
        pair[1] = byte >> 4;
    }
    if let [last] = pairs.into_remainder() {
        *last = packed[n / 2];
    }
}

/// A whole number's difference from the one before, zigzag-folded (small differences of
/// either sign are small numbers).
fn zigzag(value: i64, before: i64) -> u64 {
    let d = value.wrapping_sub(before);
    ((d << 1) ^ (d >> 63)) as u64
}

/// The value that [`zigzag`] folded against `before`.
fn unzigzag(z: u64, before: i64) -> i64 {
    let d = (z >> 1) as i64 ^ -((z & 1) as i64);
    before.wrapping_add(d)
}

/// One column's values so far, in memory until the table's spools pass their budget, then
/// in a temporary file.
pub(super) struct Spool {
    kind: Kind,
    store: Store,
    /// The longest word so far (text columns), bytes.
    width: usize,
    /// The last whole number spooled (whole-number columns).
    last: i64,
    /// The last word spooled (text columns).
    last_word: Vec<u8>,
    /// A short bytes row, padded to its width, on its way to the spool.
    row: Vec<u8>,
    /// A bytes row two values a byte, on its way to the spool.
    packed: Vec<u8>,
}

impl Spool {
    pub(super) fn new(kind: Kind) -> Spool {
        Spool {
            kind,
            store: Store::Memory(Vec::new()),
            width: 0,
            last: 0,
            last_word: Vec::new(),
            row: Vec::new(),
            packed: Vec::new(),
        }
    }

    /// The column's kind.
    pub(super) fn kind(&self) -> Kind {
        self.kind
    }

    /// The longest word spooled (text columns), bytes.
    pub(super) fn width(&self) -> usize {
        self.width
    }

    pub(super) fn push(&mut self, v: &Value<'_>) -> io::Result<()> {
        let f = &mut self.store;
        match (self.kind, v) {
            (Kind::Grid, Value::Grid(g)) => f.write_all(&pack(&g.0)),
            (Kind::Grid, _) => f.write_all(&[0; PACKED]),
            (Kind::Int, v) => {
                let n = match v {
                    Value::Int(n) => i64::try_from(*n).unwrap_or(i64::MAX),
                    _ => -1,
                };
                let mut z = zigzag(n, self.last);
                self.last = n;
                while z >= 0x80 {
                    f.push(z as u8 | 0x80)?;
                    z >>= 7;
                }
                f.push(z as u8)
            }
            (Kind::Float, Value::Float(x)) => f.write_all(&x.to_le_bytes()),
            (Kind::Float, _) => f.write_all(&f64::NAN.to_le_bytes()),
            (Kind::Bytes(width), v) => {
                let b = match v {
                    Value::Bytes(b) => &b[..b.len().min(width)],
                    _ => &[],
                };
                // A full row is read where it is; a short or missing one padded first.
                let row = if b.len() == width {
                    b
                } else {
                    self.row.clear();
                    self.row.extend_from_slice(b);
                    self.row.resize(width, 0);
                    &self.row
                };
                match row.split_first() {
                    Some((&first, rest)) if rest.iter().fold(0, |a, &x| a | x) < 16 => {
                        let packed = &mut self.packed;
                        packed.resize(rest.len().div_ceil(2), 0);
                        pack_pairs(rest, packed);
                        f.write_all(&[PACKED_ROW, first])?;
                        f.write_all(packed)
                    }
                    _ => {
                        f.write_all(&[RAW_ROW])?;
                        f.write_all(row)
                    }
                }
            }
            (Kind::Text | Kind::Json | Kind::Steps, v) => {
                let json = v.json_text();
                let t = match (v, &json) {
                    (Value::Text(t), _) => t.as_bytes(),
                    (_, Some(j)) => j.as_bytes(),
                    _ => b"",
                };
                if t == self.last_word.as_slice() {
                    return f.push(SAME_WORD);
                }
                self.width = self.width.max(t.len());
                self.last_word.clear();
                self.last_word.extend_from_slice(t);
                match u8::try_from(t.len()) {
                    Ok(n) if n < SAME_WORD => f.push(n)?,
                    _ => {
                        f.write_all(&[LONG_WORD])?;
                        f.write_all(&(t.len() as u64).to_le_bytes())?;
                    }
                }
                f.write_all(t)
            }
            (Kind::Bool, v) => f.push(u8::from(matches!(v, Value::Bool(true)))),
        }
    }

    /// Bytes held in memory (0 once in a file).
    pub(super) fn in_memory(&self) -> usize {
        match &self.store {
            Store::Memory(bytes) => bytes.len(),
            Store::File(_) => 0,
        }
    }

    /// Moves the spool's bytes from memory to a temporary file, where the rest will go.
    pub(super) fn roll(&mut self) -> io::Result<()> {
        if let Store::Memory(bytes) = &self.store {
            let mut file = BufWriter::with_capacity(SPOOL_BUFFER, tempfile::tempfile()?);
            file.write_all(bytes)?;
            self.store = Store::File(file);
        }
        Ok(())
    }

    /// Writes the column's `rows` values to `w` as its array's data bytes (little-endian,
    /// row-major; words padded with NUL bytes to at least [`Spool::width`], 1 at least).
    ///
    /// # Errors
    /// Reading the temporary file or writing `w`; `InvalidData` if the spool holds fewer
    /// values than `rows`.
    pub(super) fn write_values<W: Write>(self, w: &mut W, rows: u64) -> io::Result<()> {
        let Spool {
            kind, store, width, ..
        } = self;
        let r = match store {
            Store::Memory(bytes) => Unspool {
                buf: bytes,
                at: 0,
                file: None,
            },
            Store::File(file) => {
                let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
                file.rewind()?;
                Unspool {
                    buf: Vec::new(),
                    at: 0,
                    file: Some(file),
                }
            }
        };
        write_values(w, kind, width, r, rows)
    }
}

/// A spool's bytes on the way out: all of them (a spool in memory), or its temporary file a
/// buffer's worth at a time. Values are decoded from the slice in hand, so that a value
/// costs a bounds check, not a call through a reader.
struct Unspool {
    buf: Vec<u8>,
    /// Bytes of `buf` already taken.
    at: usize,
    /// The rest of the spool, after `buf`.
    file: Option<File>,
}

impl Unspool {
    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.buf.len() - self.at < n {
            self.refill(n)?;
        }
        let bytes = &self.buf[self.at..self.at + n];
        self.at += n;
        Ok(bytes)
    }

    fn byte(&mut self) -> io::Result<u8> {
        Ok(self.take(1)?[0])
    }

    /// Reads the file until `buf` holds `n` bytes past `at` (or the file ends: an error).
    #[cold]
    fn refill(&mut self, n: usize) -> io::Result<()> {
        self.buf.drain(..self.at);
        self.at = 0;
        if let Some(file) = &mut self.file {
            while self.buf.len() < n {
                let old = self.buf.len();
                self.buf.resize(old + SPOOL_BUFFER.max(n), 0);
                let got = file.read(&mut self.buf[old..])?;
                self.buf.truncate(old + got);
                if got == 0 {
                    break;
                }
            }
        }
        if self.buf.len() < n {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a spool ended early",
            ));
        }
        Ok(())
    }

    /// Copies the rest to `w` as it is.
    fn copy_to<W: Write>(self, w: &mut W) -> io::Result<()> {
        w.write_all(&self.buf[self.at..])?;
        match self.file {
            Some(mut file) => io::copy(&mut file, w).map(drop),
            None => Ok(()),
        }
    }
}

/// [`Spool::write_values`] from the spool's bytes in `r`.
fn write_values<W: Write>(
    w: &mut W,
    kind: Kind,
    width: usize,
    mut r: Unspool,
    rows: u64,
) -> io::Result<()> {
    match kind {
        Kind::Grid => write_grids(w, &mut r, rows),
        Kind::Int => write_ints(w, &mut r, rows),
        Kind::Bytes(n) => write_byte_rows(w, &mut r, n, rows),
        Kind::Text | Kind::Json | Kind::Steps => write_text(w, &mut r, width, rows),
        // The spool holds the array's bytes.
        Kind::Float | Kind::Bool => r.copy_to(w),
    }
}

/// Flushes `block` to `w` once it holds a buffer's worth.
fn flush_full<W: Write>(w: &mut W, block: &mut Vec<u8>) -> io::Result<()> {
    if block.len() >= OUT_BLOCK {
        w.write_all(block)?;
        block.clear();
    }
    Ok(())
}

/// Writes a spooled grid column (41 bytes a grid) as `rows` × 81 cells, a block at a time.
fn write_grids<W: Write>(w: &mut W, r: &mut Unspool, rows: u64) -> io::Result<()> {
    let mut cells = vec![0u8; ROWS_PER_BLOCK * CELLS];
    let mut left = rows;
    while left > 0 {
        let n = left.min(ROWS_PER_BLOCK as u64) as usize;
        let block = r.take(n * PACKED)?;
        let cells = &mut cells[..n * CELLS];
        for (p, out) in block
            .chunks_exact(PACKED)
            .zip(cells.chunks_exact_mut(CELLS))
        {
            unpack_pairs(p, out);
        }
        w.write_all(cells)?;
        left -= n as u64;
    }
    Ok(())
}

/// Writes a spooled whole-number column as `rows` little-endian `i64`.
fn write_ints<W: Write>(w: &mut W, r: &mut Unspool, rows: u64) -> io::Result<()> {
    let mut block = Vec::with_capacity(OUT_BLOCK + 8);
    let mut last = 0i64;
    for _ in 0..rows {
        let mut b = r.byte()?;
        let (mut z, mut shift) = (u64::from(b & 0x7F), 7);
        while b >= 0x80 {
            b = r.byte()?;
            z |= u64::from(b & 0x7F) << shift;
            shift += 7;
        }
        last = unzigzag(z, last);
        block.extend_from_slice(&last.to_le_bytes());
        flush_full(w, &mut block)?;
    }
    w.write_all(&block)
}

/// Writes a spooled bytes column as `rows` rows of `width` values.
fn write_byte_rows<W: Write>(
    w: &mut W,
    r: &mut Unspool,
    width: usize,
    rows: u64,
) -> io::Result<()> {
    let mut block = Vec::with_capacity(OUT_BLOCK + width);
    let packed = width.saturating_sub(1).div_ceil(2);
    for _ in 0..rows {
        let start = block.len();
        block.resize(start + width, 0);
        let row = &mut block[start..];
        match r.byte()? {
            PACKED_ROW => {
                row[0] = r.byte()?;
                unpack_pairs(r.take(packed)?, &mut row[1..]);
            }
            _ => row.copy_from_slice(r.take(width)?),
        }
        flush_full(w, &mut block)?;
    }
    w.write_all(&block)
}

/// Writes a spooled text column as fixed-width byte strings (at least `width` wide, and 1),
/// each padded with NUL bytes as numpy does, a block of rows at a time (npyz's writer takes
/// one value at a time: 6% of the run).
fn write_text<W: Write>(w: &mut W, r: &mut Unspool, width: usize, rows: u64) -> io::Result<()> {
    let width = width.max(1);
    let mut block = Vec::with_capacity(OUT_BLOCK + width);
    let mut word = Vec::new();
    for _ in 0..rows {
        let len = match r.byte()? {
            SAME_WORD => None,
            LONG_WORD => {
                let long = r.take(8)?.try_into().expect("8 bytes");
                Some(u64::from_le_bytes(long) as usize)
            }
            n => Some(usize::from(n)),
        };
        if let Some(len) = len {
            word.clear();
            word.extend_from_slice(r.take(len)?);
        }
        let start = block.len();
        block.extend_from_slice(&word);
        block.resize(start + width, 0);
        flush_full(w, &mut block)?;
    }
    w.write_all(&block)
}

/// Where a spool's bytes are: in memory (written straight into the vector, no buffer
/// between), or in an unnamed temporary file behind a buffer.
enum Store {
    Memory(Vec<u8>),
    File(BufWriter<File>),
}

impl Store {
    fn push(&mut self, byte: u8) -> io::Result<()> {
        match self {
            Store::Memory(v) => {
                v.push(byte);
                Ok(())
            }
            Store::File(f) => f.write_all(&[byte]),
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
        unpack_pairs(&p, &mut out);
        assert_eq!(out, g);
    }

    /// Differences of either sign, the extremes and the wrap between them come back.
    #[test]
    fn zigzag_differences_come_back() {
        let values = [0, 1, -1, 5, 4, i64::MAX, i64::MIN, -1, 1 << 40, 0];
        let mut before = 0;
        for v in values {
            assert_eq!(unzigzag(zigzag(v, before), before), v);
            before = v;
        }
        assert_eq!(zigzag(7, 6), 2);
        assert_eq!(zigzag(5, 6), 1);
    }

    /// Every kind's values come back as the array's bytes: whole numbers (missing: −1;
    /// above `i64::MAX`: `i64::MAX`), bytes rows packed and raw (a value of 16 or more after
    /// the first, an odd width, a short row padded, a missing row as zeros), words repeated
    /// and long.
    #[test]
    fn each_kind_comes_back_as_its_array_bytes() {
        let ints = [
            Value::Int(3),
            Value::Null,
            Value::Int(u64::MAX),
            Value::Int(0),
            Value::Int(1 << 50),
            Value::Int(2),
        ];
        let expect: Vec<u8> = [3i64, -1, i64::MAX, 0, 1 << 50, 2]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(round_trip(Kind::Int, &ints), expect);

        let rows: [&[u8]; 5] = [
            &[200, 1, 2, 15, 0],
            &[1, 16, 0],
            &[9, 9, 9, 9, 9, 9],
            &[],
            &[],
        ];
        let mut values: Vec<Value> = rows.iter().map(|&r| Value::Bytes(r)).collect();
        values[4] = Value::Null;
        let expect: Vec<u8> = [
            [200, 1, 2, 15, 0],
            [1, 16, 0, 0, 0],
            [9, 9, 9, 9, 9],
            [0; 5],
            [0; 5],
        ]
        .concat();
        assert_eq!(round_trip(Kind::Bytes(5), &values), expect);

        let long = "x".repeat(300);
        let words = ["ab", "ab", "", "", &long, &long, "ab"];
        let mut values: Vec<Value> = words.iter().map(|&w| Value::Text(w)).collect();
        values.push(Value::Null);
        let got = round_trip(Kind::Text, &values);
        assert_eq!(got.len(), 300 * values.len());
        for (i, w) in words.iter().chain(&[""]).enumerate() {
            let cell = &got[i * 300..(i + 1) * 300];
            assert_eq!(&cell[..w.len()], w.as_bytes(), "row {i}");
            assert!(cell[w.len()..].iter().all(|&b| b == 0), "row {i}");
        }
    }

    /// `values` spooled (in memory, and rolled to a file after the second) and written
    /// back; both ways give the same bytes.
    fn round_trip(kind: Kind, values: &[Value<'_>]) -> Vec<u8> {
        let mut outs = Vec::new();
        for roll_after in [None, Some(2)] {
            let mut s = Spool::new(kind);
            for (i, v) in values.iter().enumerate() {
                if roll_after == Some(i) {
                    s.roll().unwrap();
                }
                s.push(v).unwrap();
            }
            let mut out = Vec::new();
            s.write_values(&mut out, values.len() as u64).unwrap();
            outs.push(out);
        }
        assert_eq!(outs[0], outs[1]);
        outs.pop().unwrap()
    }
}
