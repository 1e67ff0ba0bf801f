//! Bounded blocks of a stream: what lets standard input, pipes, `--no-mmap` and compressed
//! inputs be read with memory bounded whatever their size.
//!
//! The decoded bytes are read into one buffer of about [`BLOCK`] bytes, cut after the last
//! line end in it (for CSV, the last line end outside quotes), so a block holds whole records
//! and the readers of [`super::reader`] run over it as over a memory map. When the readers
//! have used a block, its bytes are dropped and the partial line after the cut is kept for
//! the next one. A line longer than a block makes the block grow to hold it.
//!
//! **A shard of a stream** (`--shard K/N`) is read by reading and skipping: the cuts are the
//! byte offsets of [`super::range`] in the decoded bytes, so a compressed file gives exactly
//! the shards of its plain copy. They need the decoded length first, which [`super::Dataset`]
//! measures by reading a file once more (so standard input and pipes cannot be sharded).

use std::io::{self, Read};

use sha2::{Digest, Sha256};

use super::layout::Layout;
use super::range::{count_records, next_line_start};
use super::reader::Cursor;
use super::record::count_newlines;
use super::source::Stream;

/// Bytes a block holds at least (unless the input ends first), and read at a time.
pub const BLOCK: usize = 1 << 20;

/// A stream read in blocks that end at a record boundary.
pub(crate) struct Blocks {
    pub(crate) stream: Stream,
    buf: Vec<u8>,
    /// End of the current block in `buf`: a line start, or the end of the input.
    end: usize,
    /// Decoded offset of `buf[0]` in the input.
    base: u64,
    eof: bool,
    /// Cut only outside double quotes (CSV).
    quotes: bool,
    /// Bytes a block holds at least ([`BLOCK`] unless a test says otherwise).
    size: usize,
    /// Where the scan for a cut stands: bytes of `buf` scanned, whether inside quotes, the
    /// last cut found, and the last line end whatever the quotes.
    scan: (usize, bool, usize, usize),
    hasher: Option<Sha256>,
    /// A shard: the decoded offsets `[from, to)` of the line starts to read.
    shard: Option<(u64, u64)>,
    /// The shard's end has been reached: no more records.
    pub(crate) done: bool,
}

impl Blocks {
    /// Reads the first block of `stream` (of at least `size` bytes; cut outside quotes until
    /// [`Blocks::set_quotes`] says otherwise). `hash`: keep a SHA-256 of every byte read. A
    /// CSV block is cut at a line end inside quotes (an unclosed quote) once it holds 16
    /// times `size` bytes without a line end outside them, so memory stays bounded.
    pub(crate) fn new(stream: Stream, size: usize, hash: bool) -> io::Result<Blocks> {
        let mut b = Blocks {
            stream,
            buf: Vec::new(),
            end: 0,
            base: 0,
            eof: false,
            quotes: true,
            size: size.max(1),
            scan: (0, false, 0, 0),
            hasher: hash.then(Sha256::new),
            shard: None,
            done: false,
        };
        b.advance(0)?;
        Ok(b)
    }

    /// The current block.
    pub(crate) fn block(&self) -> &[u8] {
        &self.buf[..self.end]
    }

    /// Whether the input has been read to its end (the current block is the last).
    pub(crate) fn at_eof(&self) -> bool {
        self.eof
    }

    /// Cuts blocks only outside double quotes (CSV) or at any line end (lines).
    pub(crate) fn set_quotes(&mut self, quotes: bool) {
        self.quotes = quotes;
    }

    /// Reads a shard only: line starts at decoded offsets in `[from, to)`.
    pub(crate) fn set_shard(&mut self, from: u64, to: u64) {
        self.shard = Some((from, to));
    }

    /// Drops the first `used` bytes of the block and reads the next block.
    ///
    /// # Errors
    /// A read (or decompression) error of the stream.
    pub(crate) fn advance(&mut self, used: usize) -> io::Result<()> {
        if let Some(h) = &mut self.hasher {
            h.update(&self.buf[..used]);
        }
        self.buf.drain(..used);
        self.base += used as u64;
        self.scan = (0, false, 0, 0);
        loop {
            self.scan_cuts();
            if self.eof {
                self.end = self.buf.len();
                return Ok(());
            }
            if self.buf.len() >= self.size && self.scan.2 > 0 {
                self.end = self.scan.2;
                return Ok(());
            }
            if self.buf.len() >= 16 * self.size && self.scan.3 > 0 {
                // An unclosed quote: its rows are invalid whatever happens, and memory stays
                // bounded if the block is cut at a line end anyway.
                self.end = self.scan.3;
                return Ok(());
            }
            let old = self.buf.len();
            self.buf.resize(old + self.size, 0);
            let n = loop {
                match self.stream.reader.read(&mut self.buf[old..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.buf.truncate(old);
                        return Err(e);
                    }
                }
            };
            self.buf.truncate(old + n);
            self.eof = n == 0;
        }
    }

    /// Scans the bytes read since the last scan for line ends that may end a block.
    fn scan_cuts(&mut self) {
        let (from, mut quoted, mut cut, mut any) = self.scan;
        let new = &self.buf[from..];
        if self.quotes {
            for i in memchr::memchr2_iter(b'"', b'\n', new) {
                match new[i] {
                    b'"' => quoted = !quoted,
                    _ => {
                        any = from + i + 1;
                        if !quoted {
                            cut = any;
                        }
                    }
                }
            }
        } else if let Some(i) = memchr::memrchr(b'\n', new) {
            cut = from + i + 1;
            any = cut;
        }
        self.scan = (self.buf.len(), quoted, cut, any);
    }

    /// Applies the shard to the block at `cursor`: skips the lines before it (counting their
    /// lines and records into `cursor`) and returns where the cursor must stop in the block.
    pub(crate) fn clip(&mut self, cursor: &mut Cursor, layout: &Layout) -> usize {
        let Some((from, to)) = self.shard else {
            return self.end;
        };
        let block = &self.buf[..self.end];
        let pos = cursor.pos();
        let from = usize::try_from(from.saturating_sub(self.base)).unwrap_or(usize::MAX);
        if pos < from {
            let skip_to = next_line_start(block, from.min(block.len())).max(pos);
            let skipped = &block[pos..skip_to];
            cursor.skip(count_newlines(skipped), count_records(skipped, layout));
            cursor.set_pos(skip_to);
        }
        let to = usize::try_from(to.saturating_sub(self.base)).unwrap_or(usize::MAX);
        if to < block.len() {
            self.done = true;
            return next_line_start(block, to).max(cursor.pos());
        }
        self.end
    }

    /// Reads the rest of the input after the cursor's position, counting its records, and
    /// returns that count (for numbering the next input after a shard).
    ///
    /// # Errors
    /// A read error of the stream.
    pub(crate) fn count_rest(&mut self, pos: usize, layout: &Layout) -> io::Result<u64> {
        let mut n = count_records(&self.buf[pos..self.end], layout);
        let mut used = self.end;
        while !self.eof {
            self.advance(used)?;
            n += count_records(self.block(), layout);
            used = self.end;
        }
        self.advance(used)?;
        Ok(n)
    }

    /// The SHA-256 of every byte read, lowercase hex; `None` unless the input was read to its
    /// end.
    pub(crate) fn sha256(&mut self) -> Option<String> {
        if !self.eof {
            return None;
        }
        let mut h = self.hasher.take()?;
        h.update(&self.buf);
        Some(super::hex(&h.finalize()))
    }
}
