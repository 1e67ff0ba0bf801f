//! The line and CSV readers (JSON Lines are read as lines: `jsonl.rs`): turn a block of
//! input bytes into [`super::RawRecord`]s.
//!
//! A reader is a cursor: a byte position in the current block plus the counters that go on
//! from block to block (line, record, the CSV row width). A block always starts and ends at
//! a record boundary (a line start), so a block boundary never splits a record: the whole
//! memory map of a file is one block; a stream is read in bounded blocks cut at line ends
//! (see [`super::source`]).

use std::sync::Arc;

use super::chunk::{CsvColumns, LineParser, RawChunk};
use super::jsonl::JsonColumns;
use super::layout::Layout;
use super::record::{count_newlines, data_line, MAX_LINE};

/// Where a reader stands, for either layout.
pub(crate) enum Cursor {
    Lines(LineCursor),
    Csv(CsvCursor),
}

impl Cursor {
    /// A cursor at byte `pos` of the first block, where 1-based line `line` starts and the
    /// next record gets number `record`. `keep_text`: lines records keep their puzzle and
    /// solution fields as read (see [`super::RawRecord::fields`]).
    pub(crate) fn new(
        layout: &Layout,
        pos: usize,
        line: u64,
        record: u64,
        keep_text: bool,
    ) -> Cursor {
        match layout {
            Layout::Lines { .. } | Layout::Columns { .. } => Cursor::Lines(LineCursor {
                pos,
                line: line.saturating_sub(1),
                record,
                parser: Arc::new(LineParser {
                    field: match layout {
                        Layout::Lines { field } => *field,
                        _ => 0,
                    },
                    keep_text,
                    json: JsonColumns::of(layout),
                }),
            }),
            Layout::Csv {
                header,
                puzzle,
                solution,
                delimiter,
            } => Cursor::Csv(CsvCursor {
                delimiter: *delimiter,
                pos,
                line,
                record,
                columns: Arc::new(CsvColumns {
                    puzzle: *puzzle,
                    solution: *solution,
                }),
                expected_fields: header.as_ref().map(Vec::len),
            }),
        }
    }

    /// Appends up to `max - out.len()` records read from `block[pos..]` to `out`, for
    /// [`RawChunk::parse`] to parse: lines as bytes, CSV rows as fields.
    ///
    /// # Errors
    /// Only an error of the CSV reader; bad records are records with an error.
    pub(crate) fn fill(
        &mut self,
        block: &[u8],
        out: &mut RawChunk,
        max: usize,
    ) -> Result<(), csv::Error> {
        match self {
            Cursor::Lines(c) => {
                c.fill(block, out, max);
                Ok(())
            }
            Cursor::Csv(c) => c.fill(block, out, max),
        }
    }

    /// Byte position in the current block.
    pub(crate) fn pos(&self) -> usize {
        match self {
            Cursor::Lines(c) => c.pos,
            Cursor::Csv(c) => c.pos,
        }
    }

    /// Moves to byte `pos` of the current block (or of a new block), lines and records
    /// counted on.
    pub(crate) fn set_pos(&mut self, pos: usize) {
        match self {
            Cursor::Lines(c) => c.pos = pos,
            Cursor::Csv(c) => c.pos = pos,
        }
    }

    /// Counts `lines` physical lines and `records` records as passed without reading them
    /// (the part of a stream before a shard).
    pub(crate) fn skip(&mut self, lines: u64, records: u64) {
        match self {
            Cursor::Lines(c) => {
                c.line += lines;
                c.record += records;
            }
            Cursor::Csv(c) => {
                c.line += lines;
                c.record += records;
            }
        }
    }

    /// The number the next record will get.
    pub(crate) fn next_record(&self) -> u64 {
        match self {
            Cursor::Lines(c) => c.record,
            Cursor::Csv(c) => c.record,
        }
    }

    /// Counts records from `record` on (before the first is read).
    pub(crate) fn set_next_record(&mut self, record: u64) {
        match self {
            Cursor::Lines(c) => c.record = record,
            Cursor::Csv(c) => c.record = record,
        }
    }
}

/// Reads a lines input: finds its data lines and numbers them; the chunk's
/// [`LineParser`] parses them later, outside the engine's read lock ([`super::chunk`]).
pub(crate) struct LineCursor {
    pos: usize,
    /// Physical lines passed so far.
    line: u64,
    record: u64,
    parser: Arc<LineParser>,
}

impl LineCursor {
    fn fill(&mut self, block: &[u8], out: &mut RawChunk, max: usize) {
        while out.len() < max && self.pos < block.len() {
            let rest = &block[self.pos..];
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            self.pos += (end + 1).min(rest.len());
            self.line += 1;
            let Some(line) = data_line(&rest[..end]) else {
                continue;
            };
            let text = (end <= MAX_LINE).then_some(line);
            out.push_line(&self.parser, self.record, self.line, text);
            self.record += 1;
        }
    }
}

/// Reads a CSV input with the `csv` crate, one reader per call over the rest of the block
/// (a block starts at a line start, and the crate's reader holds no state across records
/// that a fresh reader would miss). The crate finds the rows (where a row ends depends on
/// the quotes before it, so this is serial); the chunk's [`CsvColumns`] parses their
/// fields later, outside the engine's read lock ([`super::chunk`]).
pub(crate) struct CsvCursor {
    pos: usize,
    /// 1-based line that starts at `pos` (counted here from newline bytes, since the csv
    /// crate's own count does not fit CRLF).
    line: u64,
    record: u64,
    columns: Arc<CsvColumns>,
    expected_fields: Option<usize>,
    delimiter: u8,
}

impl CsvCursor {
    fn fill(&mut self, block: &[u8], out: &mut RawChunk, max: usize) -> Result<(), csv::Error> {
        let body = &block[self.pos.min(block.len())..];
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .comment(Some(b'#'))
            .delimiter(self.delimiter)
            .from_reader(body);
        // Rows are read into the buffers of records already consumed: no allocation.
        let mut rec = out.spare();
        // A byte offset in `body` and the 1-based line that starts there.
        let mut line_at = (0u64, self.line);
        while out.len() < max && rdr.read_byte_record(&mut rec)? {
            // The csv crate may place a record's start on the `\n` of the previous CRLF, or
            // before blank lines and `#` comment lines that it skipped.
            let mut at = rec.position().map_or(line_at.0, csv::Position::byte);
            loop {
                match body.get(at as usize) {
                    Some(b'\r' | b'\n') => at += 1,
                    Some(b'#') => {
                        let rest = &body[at as usize..];
                        at += memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n + 1) as u64;
                    }
                    _ => break,
                }
            }
            let skipped = body.get(line_at.0 as usize..at as usize).unwrap_or(&[]);
            line_at = (at, line_at.1 + count_newlines(skipped));
            let end = (rdr.position().byte() as usize).min(body.len());
            let row = body.get(at as usize..end).unwrap_or(&[]);
            let row = row.strip_suffix(b"\n").unwrap_or(row);
            let too_long = row.strip_suffix(b"\r").unwrap_or(row).len() > MAX_LINE;
            if too_long {
                // One huge row: a stream keeps only its first bytes (see record.rs), so its
                // fields are not known; it is one invalid record either way, with as many
                // empty fields as a row should have.
                rec = csv::ByteRecord::from(vec![""; self.expected_fields.unwrap_or(1)]);
            }
            let expected = *self.expected_fields.get_or_insert(rec.len());
            out.push_row(
                &self.columns,
                self.record,
                line_at.1,
                rec,
                expected,
                too_long,
            );
            self.record += 1;
            rec = out.spare();
        }
        out.give_back(rec);
        let used = rdr.position().byte().min(body.len() as u64);
        let tail = body
            .get(line_at.0.min(used) as usize..used as usize)
            .unwrap_or(&[]);
        self.line = line_at.1 + count_newlines(tail);
        self.pos += used as usize;
        Ok(())
    }
}
