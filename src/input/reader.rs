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
use super::record::{count_newlines, data_line, is_csv_data_line, MAX_LINE};
use crate::grid::ParseError;

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
                header: header.clone(),
            }),
        }
    }

    /// Appends up to `max - out.len()` records read from `block[pos..stop]` to `out`, for
    /// [`RawChunk::parse`] to parse: lines as bytes, CSV rows as fields. The bytes after
    /// `stop` (the rest of a shard's input) are only looked at: the line after a CSV row
    /// whose quote is not closed decides what it is, wherever a shard ends.
    ///
    /// # Errors
    /// Only an error of the CSV reader; bad records are records with an error.
    pub(crate) fn fill(
        &mut self,
        block: &[u8],
        stop: usize,
        out: &mut RawChunk,
        max: usize,
    ) -> Result<(), csv::Error> {
        match self {
            Cursor::Lines(c) => {
                c.fill(&block[..stop], out, max);
                Ok(())
            }
            Cursor::Csv(c) => {
                // A row with an unclosed quote stops a reader: the next one starts on the
                // line after that row's first.
                while c.fill_to_unclosed_quote(block, stop, out, max)? && out.len() < max {}
                Ok(())
            }
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
    /// The header's column names, to name a field in a message.
    header: Option<Vec<String>>,
    delimiter: u8,
}

impl CsvCursor {
    /// Reads rows from `block[pos..stop]` until `max` records, `stop`, or a row with an
    /// unclosed quote ([`CsvCursor::unclosed_quote`]; then true, with the cursor on the line
    /// after the row's first, so the rows the quote would swallow are read as rows).
    fn fill_to_unclosed_quote(
        &mut self,
        block: &[u8],
        stop: usize,
        out: &mut RawChunk,
        max: usize,
    ) -> Result<bool, csv::Error> {
        let start = self.pos.min(stop);
        let body = &block[start..stop];
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
        let mut resync = None;
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
            let mut error = None;
            if row.strip_suffix(b"\r").unwrap_or(row).len() > MAX_LINE {
                // One huge row: a stream keeps only its first bytes (see record.rs), so its
                // fields are not known; it is one invalid record either way, with as many
                // empty fields as a row should have.
                rec = csv::ByteRecord::from(vec![""; self.expected_fields.unwrap_or(1)]);
                error = Some(ParseError::LineTooLong { limit: MAX_LINE });
            } else if memchr::memchr(b'\n', rec.as_slice()).is_some() {
                // A quoted field holds a line break: judge the row by its first line and the
                // line after it, in the whole input (not only up to `stop`), so every shard
                // judges it as the whole run does.
                let row_start = start + at as usize;
                if let Some((e, next)) = self.unclosed_quote(&rec, block, row_start) {
                    rec = split_line(&block[row_start..next - 1], self.delimiter);
                    error = Some(e);
                    resync = Some(next - start);
                }
            }
            let expected = *self.expected_fields.get_or_insert(rec.len());
            out.push_row(&self.columns, self.record, line_at.1, rec, expected, error);
            self.record += 1;
            rec = out.spare();
            if resync.is_some() {
                break;
            }
        }
        out.give_back(rec);
        let used = match resync {
            Some(next) => next.min(body.len()),
            None => rdr.position().byte().min(body.len() as u64) as usize,
        };
        let tail = body
            .get((line_at.0 as usize).min(used)..used)
            .unwrap_or(&[]);
        self.line = line_at.1 + count_newlines(tail);
        self.pos = start + used;
        Ok(resync.is_some())
    }

    /// For a row starting at `block[row_start..]` whose fields (`rec`, as the crate read
    /// them) hold a line break: when the next data line after the row's first line reads as
    /// a row of this file (as many delimiters as a row has; in a one-column file any data
    /// line), the quote is taken as unclosed, and this gives the row's error and where the
    /// line after its first starts. `None` for quoted line breaks in other text (a note over
    /// two lines), which is read as the crate reads it.
    fn unclosed_quote(
        &self,
        rec: &csv::ByteRecord,
        block: &[u8],
        row_start: usize,
    ) -> Option<(ParseError, usize)> {
        let rest = &block[row_start..];
        let next = row_start + memchr::memchr(b'\n', rest)? + 1;
        let first = &block[row_start..next - 1];
        let delimiters = |line: &[u8]| memchr::memchr_iter(self.delimiter, line).count();
        let needed = self
            .expected_fields
            .map_or_else(|| delimiters(first), |n| n.saturating_sub(1));
        let next_row = block[next..]
            .split(|&b| b == b'\n')
            .find(|l| is_csv_data_line(l))?;
        if delimiters(next_row) < needed {
            return None;
        }
        let column = rec
            .iter()
            .position(|f| f.contains(&b'\n'))
            .unwrap_or(rec.len().saturating_sub(1));
        let field = match self.header.as_ref().and_then(|h| h.get(column)) {
            Some(name) => format!("{name} (column {})", column + 1),
            None => format!("column {}", column + 1),
        };
        Some((ParseError::UnclosedQuote { field }, next))
    }
}

/// The fields of one physical CSV line split at `delimiter` as written, quotes and all:
/// the record of a row whose quote is not closed on its line.
fn split_line(line: &[u8], delimiter: u8) -> csv::ByteRecord {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut rec = csv::ByteRecord::new();
    for f in line.split(|&b| b == delimiter) {
        rec.push_field(f);
    }
    rec
}
