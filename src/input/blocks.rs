//! Bounded blocks of a stream: what lets standard input, pipes, `--no-mmap` and compressed
//! inputs be read with memory bounded whatever their size.
//!
//! The decoded bytes are read into one buffer of about [`BLOCK`] bytes, cut after the last
//! line end in it (for CSV, the last line end outside quotes), so a block holds whole records
//! and the readers of [`super::reader`] run over it as over a memory map. When the readers
//! have used a block, its bytes are dropped and the partial line after the cut is kept for
//! the next one. A line longer than a block makes the block grow to hold it, up to
//! [`MAX_LINE`]: of a longer line only the first `MAX_LINE + 1` bytes are kept (the rest is
//! read and dropped up to its line end), which is all the readers need to call it one
//! `invalid` record (see [`super::record`]), so memory stays bounded whatever the line.
//!
//! **A live input** (standard input, a pipe, a terminal: [`super::source::Reader::Live`])
//! may pause, and a block is then handed over early: when a read would wait, the whole
//! records that have arrived make the block, so a slow producer's puzzles are worked on as
//! they come. The first block, which the layout is worked out on,
//! waits for [`FIRST_LINES`] lines (or the end), so the sniffing judges a CSV by its usual
//! sample. A wait for more bytes ends when the stop flag (Ctrl-C) is set: the stream is
//! then read no further, and a line cut short by it is dropped, not read as a record.
//!
//! **A shard of a stream** (`--shard K/N`) is read by reading and skipping: the cuts are the
//! byte offsets of [`super::range`] in the decoded bytes, so a compressed file gives exactly
//! the shards of its plain copy. They need the decoded length first, which [`super::Dataset`]
//! measures by reading a file once more (so standard input and pipes cannot be sharded).

use crate::cancel::Cancel;
use std::io;

use sha2::{Digest, Sha256};

use super::layout::Layout;
use super::range::boundary;
use super::reader::Cursor;
use super::record::{cr_run_end, csv_row, MAX_LINE, QUOTE_WINDOW};
use super::source::Stream;

/// Bytes a block holds at least (unless the input ends first, or a live input pauses), and
/// read at a time.
pub const BLOCK: usize = 1 << 20;

/// Lines the first block of a live input holds before it is handed over while the producer
/// pauses: the header and the data rows the sniffing judges a CSV's columns on.
pub const FIRST_LINES: usize = super::sniff::SAMPLE_ROWS + 1;

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
    /// The last lone `\r` line end outside quotes that the scan found (quotes mode, before
    /// the layout is known): CSV rows end there too (see `record::csv_line`).
    lone_cr: usize,
    /// Where the line the scan stands in starts (quotes mode): a lone `\r` ends no `#`
    /// comment line, which the `csv` crate reads to its `\n`.
    line_start: usize,
    /// The input is known to be CSV, with this delimiter and row width: blocks are cut at
    /// row ends as the reader reads rows ([`csv_row`]).
    csv: Option<(u8, Option<usize>)>,
    /// Where the walk over CSV rows stands in `buf` (a row start; CSV only), and the length
    /// `buf` must reach before that row is judged again when it needed more bytes: twice as
    /// many past the row's start each time, so a long row costs a linear scan, not one per
    /// read.
    row: usize,
    retry_at: usize,
    /// The current block was cut at a lone `\r` before the layout was known.
    cut_at_lone_cr: bool,
    hasher: Option<Sha256>,
    /// Bytes at the start of `buf` already hashed (the kept start of a long line).
    hashed: usize,
    /// Bytes of a long line dropped from `buf`, and where in `buf` they stood (right after
    /// the kept start of the line): decoded offsets past that point are shifted by them.
    hidden: (usize, u64),
    /// A shard: the decoded offsets `[from, to)` of the line starts to read.
    shard: Option<(u64, u64)>,
    /// The shard's end has been reached: no more records.
    pub(crate) done: bool,
    /// Once set, a wait for a live input's bytes is given up ([`super::ReadOptions::stop`]).
    stop: Cancel,
    /// The stop flag ended a wait: the stream is read no further.
    stopped: bool,
    /// Lines a block must hold to be handed over while a live input pauses.
    early: usize,
}

impl Blocks {
    /// Reads the first block of `stream` (of at least `size` bytes; cut outside quotes until
    /// [`Blocks::set_lines`] says otherwise). `hash`: keep a SHA-256 of every byte read. A
    /// CSV block is cut at a line end inside quotes (an unclosed quote) once it holds 16
    /// times `size` bytes without a line end outside them, so memory stays bounded. `stop`:
    /// once set, a live input is read no further.
    pub(crate) fn new(stream: Stream, size: usize, hash: bool, stop: Cancel) -> io::Result<Blocks> {
        let mut b = Blocks {
            stream,
            buf: Vec::new(),
            end: 0,
            base: 0,
            eof: false,
            quotes: true,
            size: size.max(1),
            scan: (0, false, 0, 0),
            lone_cr: 0,
            line_start: 0,
            csv: None,
            row: 0,
            retry_at: 0,
            cut_at_lone_cr: false,
            hasher: hash.then(Sha256::new),
            hashed: 0,
            hidden: (0, 0),
            shard: None,
            done: false,
            stop,
            stopped: false,
            early: FIRST_LINES,
        };
        b.advance(0)?;
        b.early = 1;
        Ok(b)
    }

    /// The current block.
    pub(crate) fn block(&self) -> &[u8] {
        &self.buf[..self.end]
    }

    /// All the bytes the stream holds: the current block and the bytes read after it. A CSV
    /// row in the block was judged on these ([`csv_row`] may look up to
    /// [`super::record::QUOTE_WINDOW`] bytes past a row's start), so the reader judges it on
    /// them too and reads it as the cut did.
    pub(crate) fn buffered(&self) -> &[u8] {
        &self.buf
    }

    /// Whether the input has been read to its end (the current block is the last).
    pub(crate) fn at_eof(&self) -> bool {
        self.eof
    }

    /// Whether the stop flag ended the reading (the current block is the last).
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether the next block can be read without waiting for a live input's producer.
    pub(crate) fn ready(&mut self) -> bool {
        self.stream.reader.ready()
    }

    /// The input is lines (or JSON Lines): blocks are cut at any `\n`, and a lone `\r` ends
    /// no line. A first block cut at a lone `\r` before the layout was known (no `\n` for
    /// [`MAX_LINE`] bytes: CSV rows, it seemed) is cut again: its start is one line over the
    /// cap, read as a mapped file reads it, not two records that put every later line one
    /// further off.
    ///
    /// # Errors
    /// A read (or decompression) error of the stream.
    pub(crate) fn set_lines(&mut self) -> io::Result<()> {
        self.quotes = false;
        if std::mem::take(&mut self.cut_at_lone_cr) {
            self.advance(0)?;
        }
        Ok(())
    }

    /// The input is CSV with `delimiter` and rows of `width` fields (when known): blocks are
    /// cut at row ends as the reader reads rows ([`csv_row`]: outside quotes, at `\n` and at
    /// lone `\r` line ends, an unclosed quote judged as the reader judges it), and the first
    /// block, cut by counting quotes before the layout was known, is cut again so. Before
    /// the layout is known, a block is cut at a lone `\r` only when no `\n` came for
    /// [`MAX_LINE`] bytes.
    ///
    /// # Errors
    /// A read (or decompression) error of the stream.
    pub(crate) fn set_csv(&mut self, delimiter: u8, width: Option<usize>) -> io::Result<()> {
        self.quotes = true;
        self.csv = Some((delimiter, width));
        self.cut_at_lone_cr = false;
        self.advance(0)
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
            h.update(&self.buf[self.hashed.min(used)..used]);
        }
        self.hashed = self.hashed.saturating_sub(used);
        self.buf.drain(..used);
        self.base += used as u64;
        // A long line is read whole or not at all: once it is used, its dropped bytes are
        // behind the new start of `buf`.
        if self.hidden.1 > 0 && used >= self.hidden.0 {
            self.base += self.hidden.1;
            self.hidden = (0, 0);
        }
        self.scan = (0, false, 0, 0);
        self.lone_cr = 0;
        self.line_start = 0;
        self.row = 0;
        self.retry_at = 0;
        loop {
            self.scan_cuts();
            if self.eof {
                self.end = self.buf.len();
                return Ok(());
            }
            let cut = self.scan.2;
            // Stopped: the line after the last cut may be cut short, so it is dropped.
            if self.stopped || (self.buf.len() >= self.size && cut > 0) {
                self.end = cut;
                return Ok(());
            }
            if cut > 0 && self.holds_lines(cut) && !self.stream.reader.ready() {
                // A live input's producer paused: what has arrived is worked on now.
                self.end = cut;
                return Ok(());
            }
            if self.csv.is_none() && self.buf.len() >= 16 * self.size && self.scan.3 > 0 {
                // An unclosed quote: its rows are invalid whatever happens, and memory stays
                // bounded if the block is cut at a line end anyway.
                self.end = self.scan.3;
                return Ok(());
            }
            if self.scan.3 == 0 && self.buf.len() > MAX_LINE + 1 && self.lone_cr > 0 {
                // No `\n` yet, but lone `\r`s: CSV rows with classic Mac OS line ends
                // (the layout is not known yet), not one long line; if the input turns out
                // to be lines, `set_lines` cuts the block again.
                self.end = self.lone_cr;
                self.cut_at_lone_cr = self.csv.is_none();
                return Ok(());
            }
            if self.scan.3 == 0 && self.buf.len() > MAX_LINE + 1 {
                self.drop_long_line()?;
                continue;
            }
            let n = self.read_more()?;
            self.eof = n == 0 && !self.stopped;
        }
    }

    /// Whether `buf[..cut]` holds [`Blocks::early`] lines.
    fn holds_lines(&self, cut: usize) -> bool {
        self.early <= 1
            || memchr::memchr_iter(b'\n', &self.buf[..cut])
                .nth(self.early - 1)
                .is_some()
    }

    /// Reads up to [`Blocks::size`] more bytes onto the end of `buf`; how many (0 at the end,
    /// or when the stop flag ended the wait: then [`Blocks::stopped`] is set).
    fn read_more(&mut self) -> io::Result<usize> {
        let read = self
            .stream
            .reader
            .append(&mut self.buf, self.size, self.stop.flag())?;
        self.stopped |= read.is_none();
        Ok(read.unwrap_or(0))
    }

    /// `buf` is the start of one line longer than [`MAX_LINE`] (it starts at a line start
    /// and holds no line end): keeps its first `MAX_LINE + 1` bytes, and reads and drops the
    /// rest of the line up to its line end (kept, with what follows) or the end of the input.
    /// The dropped bytes are hashed in their place and counted in [`Blocks::hidden`].
    fn drop_long_line(&mut self) -> io::Result<()> {
        let keep = MAX_LINE + 1;
        if let Some(h) = &mut self.hasher {
            h.update(&self.buf[self.hashed..]);
        }
        self.hashed = keep;
        let mut dropped = (self.buf.len() - keep) as u64;
        self.buf.truncate(keep);
        loop {
            let n = self.read_more()?;
            let new = &self.buf[keep..];
            let line_end = memchr::memchr(b'\n', new).unwrap_or(new.len());
            if let Some(h) = &mut self.hasher {
                h.update(&new[..line_end]);
            }
            dropped += line_end as u64;
            self.buf.drain(keep..keep + line_end);
            if n == 0 || self.buf.len() > keep {
                self.eof = n == 0 && !self.stopped;
                break;
            }
        }
        self.hidden = (keep, dropped);
        self.scan = (keep, false, 0, 0);
        self.lone_cr = 0;
        self.line_start = 0;
        self.row = 0;
        self.retry_at = 0;
        Ok(())
    }

    /// The position in `buf` of decoded offset `offset` (a long line's dropped bytes all
    /// stand at the point they were dropped from).
    fn buf_pos(&self, offset: u64) -> usize {
        let rel = offset.saturating_sub(self.base);
        let (at, hidden) = self.hidden;
        let rel = if hidden > 0 && rel > at as u64 {
            rel.saturating_sub(hidden).max(at as u64)
        } else {
            rel
        };
        usize::try_from(rel).unwrap_or(usize::MAX)
    }

    /// Scans the bytes read since the last scan for line ends that may end a block.
    fn scan_cuts(&mut self) {
        if let Some((delimiter, width)) = self.csv {
            // Whole rows, as the reader reads them; a row not judged yet needs more bytes
            // (at most [`super::record::QUOTE_WINDOW`] past its start).
            while self.row < self.buf.len() && (self.eof || self.buf.len() >= self.retry_at) {
                match csv_row(&self.buf, self.row, delimiter, width, self.eof) {
                    Some(row) => self.row = row.next(),
                    None => {
                        let held = self.buf.len() - self.row;
                        let more = (2 * held).max(self.size).min(QUOTE_WINDOW + 1);
                        self.retry_at = self.row + more;
                        break;
                    }
                }
            }
            self.scan = (self.buf.len(), false, self.row, self.row);
            return;
        }
        let (from, mut quoted, mut cut, mut any) = self.scan;
        let mut upto = self.buf.len();
        let new = &self.buf[from..];
        if self.quotes {
            // The end of the run of CRs last looked at: the CRs before it are done.
            let mut crs = 0;
            for i in memchr::memchr3_iter(b'"', b'\n', b'\r', new) {
                if i < crs {
                    continue;
                }
                // CRs that run up to a `\n` belong to its line end (`record::cr_run_end`).
                let run = match new[i] {
                    b'\r' => cr_run_end(new, i),
                    _ => i + 1,
                };
                match (new[i], new.get(run)) {
                    (b'"', _) => quoted = !quoted,
                    (b'\r', Some(b'\n')) => crs = run,
                    (b'\r', None) => {
                        // Whether a `\n` follows is not known yet: look again next time.
                        upto = from + i;
                        break;
                    }
                    (b'\r', Some(_)) => {
                        crs = run;
                        let comment = self.buf.get(self.line_start) == Some(&b'#');
                        if !quoted && !comment {
                            self.lone_cr = from + run;
                            self.line_start = from + run;
                        }
                    }
                    _ => {
                        any = from + i + 1;
                        if !quoted {
                            cut = any;
                            self.line_start = any;
                        }
                    }
                }
            }
        } else if let Some(i) = memchr::memrchr(b'\n', new) {
            cut = from + i + 1;
            any = cut;
        }
        self.scan = (upto, quoted, cut, any);
    }

    /// Applies the shard to the block at `cursor`: skips the lines before it (counting their
    /// lines and records into `cursor`) and returns where the cursor must stop in the block.
    pub(crate) fn clip(&mut self, cursor: &mut Cursor, layout: &Layout) -> usize {
        let Some((from, to)) = self.shard else {
            return self.end;
        };
        let block = &self.buf[..self.end];
        let pos = cursor.pos();
        let from = self.buf_pos(from);
        if pos < from {
            let (skip_to, records) = boundary(block, layout, pos, from.min(block.len()));
            cursor.skip(block, pos..skip_to, records);
            cursor.set_pos(skip_to);
        }
        let to = self.buf_pos(to);
        if to < block.len() {
            self.done = true;
            return boundary(block, layout, cursor.pos(), to).0;
        }
        self.end
    }

    /// Reads the rest of the input after the cursor's position, counting its records, and
    /// returns that count (for numbering the next input after a shard).
    ///
    /// # Errors
    /// A read error of the stream.
    pub(crate) fn count_rest(&mut self, pos: usize, layout: &Layout) -> io::Result<u64> {
        let mut n = boundary(&self.buf[..self.end], layout, pos, self.end).1;
        let mut used = self.end;
        while !self.eof && !self.stopped {
            self.advance(used)?;
            n += boundary(self.block(), layout, 0, self.end).1;
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
        h.update(&self.buf[self.hashed.min(self.buf.len())..]);
        Some(super::hex(&h.finalize()))
    }
}
