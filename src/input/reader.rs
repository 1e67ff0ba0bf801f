//! The line and CSV readers (JSON Lines are read as lines: `jsonl.rs`): turn a block of
//! input bytes into [`super::RawRecord`]s.
//!
//! A reader is a cursor: a byte position in the current block plus the counters that go on
//! from block to block (line, record, the CSV row width). A block always starts and ends at
//! a record boundary (a line start), so a block boundary never splits a record: the whole
//! memory map of a file is one block; a stream is read in bounded blocks cut at line ends
//! (see [`super::source`]).

use std::ops::Range;
use std::sync::Arc;

use super::chunk::{CsvColumns, LineParser, RawChunk, Row};
use super::jsonl::JsonColumns;
use super::layout::Layout;
use super::record::{
    count_csv_line_ends, count_newlines, crate_row, csv_line, csv_row, data_line, is_csv_data_line,
    split_fields, RowEnd, Unclosed, MAX_LINE,
};
use crate::grid::ParseError;

/// Where a reader stands, for either layout.
pub(crate) enum Cursor {
    Lines(LineCursor),
    Csv(CsvCursor),
}

impl Cursor {
    /// A cursor at byte `pos` of the first block, where 1-based line `line` starts and the
    /// next record gets number `record`. `keep_text`: lines records keep their puzzle and
    /// solution fields and their line as read (see [`super::RawRecord::fields`]).
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
                        Layout::Lines { field, .. } => *field,
                        _ => 0,
                    },
                    paired: matches!(layout, Layout::Lines { paired: true, .. }),
                    keep_text,
                    json: JsonColumns::of(layout),
                }),
            }),
            Layout::Csv {
                header,
                puzzle,
                solution,
                delimiter,
                width,
            } => Cursor::Csv(CsvCursor {
                delimiter: *delimiter,
                pos,
                line,
                record,
                columns: Arc::new(CsvColumns {
                    puzzle: *puzzle,
                    solution: *solution,
                    delimiter: *delimiter,
                }),
                expected_fields: width.or(header.as_ref().map(Vec::len)),
                width: width.or(header.as_ref().map(Vec::len)),
                header: header.clone(),
                first: header.is_none() && record == 0,
            }),
        }
    }

    /// Appends up to `max - out.len()` records read from `block[pos..stop]` to `out`, for
    /// [`RawChunk::parse`] to parse: lines as bytes, CSV rows as fields. The bytes after
    /// `stop` (the rest of a shard's input, or of a stream's buffer) are only looked at:
    /// they may decide where a CSV row with a quoted line break ends, wherever a shard or a
    /// block ends. `eof`: `block` ends where the input does.
    ///
    /// # Errors
    /// Only an error of the CSV reader; bad records are records with an error.
    pub(crate) fn fill(
        &mut self,
        block: &[u8],
        stop: usize,
        eof: bool,
        out: &mut RawChunk,
        max: usize,
    ) -> Result<(), csv::Error> {
        match self {
            Cursor::Lines(c) => {
                c.fill(&block[..stop], out, max);
                Ok(())
            }
            Cursor::Csv(c) => {
                // Plain rows are cut like lines; from a row with a quote the csv crate reads
                // on, and a row with an unclosed quote stops it: the next one starts on the
                // line after that row's first.
                loop {
                    c.fill_plain(&block[..stop], out, max);
                    if out.len() >= max || c.pos >= stop {
                        return Ok(());
                    }
                    if !c.fill_to_unclosed_quote(block, stop, eof, out, max)? || out.len() >= max {
                        return Ok(());
                    }
                }
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

    /// Counts the physical lines of `block[skipped]` and `records` records as passed without
    /// reading them (the part of a stream before a shard): lines end at `\n`, and in a CSV at
    /// a lone `\r` too, as the reader counts them.
    pub(crate) fn skip(&mut self, block: &[u8], skipped: Range<usize>, records: u64) {
        match self {
            Cursor::Lines(c) => {
                c.line += count_newlines(&block[skipped]);
                c.record += records;
            }
            Cursor::Csv(c) => {
                c.line += count_csv_line_ends(block, skipped);
                c.record += records;
                c.first &= records == 0;
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

/// Reads a CSV input. A row that is one physical line with no quote and no lone `\r` (every
/// row of the usual datasets) is cut like a line and its text copied into the chunk; from the
/// first line that is not, the `csv` crate reads (where a row ends then depends on the quotes
/// before it), with one reader per call over the rest of the block (a block starts at a line
/// start, and the crate's reader holds no state across records that a fresh reader would
/// miss). Either way the chunk's [`CsvColumns`] splits or parses the fields later, outside
/// the engine's read lock ([`super::chunk`]).
pub(crate) struct CsvCursor {
    pos: usize,
    /// 1-based line that starts at `pos` (counted here from line ends, a lone `\r` included
    /// as the crate ends rows there, since the csv crate's own count does not fit CRLF).
    line: u64,
    record: u64,
    columns: Arc<CsvColumns>,
    expected_fields: Option<usize>,
    /// The rows' width as the layout knows it (the header's, or the sniffed one): what a row
    /// over several lines must have ([`csv_row`]), the same for every shard.
    width: Option<usize>,
    /// The header's column names, to name a field in a message.
    header: Option<Vec<String>>,
    delimiter: u8,
    /// The next row is the first of an input without a header (see
    /// [`RawChunk::push_row`]).
    first: bool,
}

impl CsvCursor {
    /// Takes rows from `block[pos..]` while each is one plain line, as the `csv` crate would
    /// read it: with no `"` the crate's rows are the physical lines that are not empty or `#`
    /// comments, its fields the text between delimiters, and a `\r` ends a row only before
    /// the `\n`. Stops at `max` records or at the first line that holds a quote or another
    /// `\r`.
    fn fill_plain(&mut self, block: &[u8], out: &mut RawChunk, max: usize) {
        while out.len() < max && self.pos < block.len() {
            let rest = &block[self.pos..];
            // The line's end, looked for no further than its first CR: a lone CR sends the
            // row to the crate, and a block of CR-only line ends is not searched to its end
            // for a `\n` at every row.
            let (end, next) = match memchr::memchr2(b'\n', b'\r', rest) {
                Some(i) if rest[i] == b'\n' => (i, i + 1),
                Some(i) if rest.get(i + 1) == Some(&b'\n') => (i + 1, i + 2),
                Some(_) => return,
                None => (rest.len(), rest.len()),
            };
            let line = &rest[..end];
            let row = line.strip_suffix(b"\r").unwrap_or(line);
            if memchr::memchr2(b'"', b'\r', row).is_some() {
                return;
            }
            let at = self.line;
            self.pos += next;
            // A `\n` ends the line, and so does a `\r` that ends the block without one (a
            // lone CR: blocks and shards are cut after one, never inside a CRLF).
            self.line += u64::from(next > end || line.ends_with(b"\r"));
            if !is_csv_data_line(line) {
                continue;
            }
            let (row, expected) = if row.len() > MAX_LINE {
                // As the crate's path below: one invalid record with empty fields.
                let n = *self.expected_fields.get_or_insert(1);
                (Row::Fields(vec![""; n].into(), Some(too_long())), n)
            } else {
                let fields = || memchr::memchr_iter(self.delimiter, row).count() + 1;
                (
                    Row::Text(row),
                    *self.expected_fields.get_or_insert_with(fields),
                )
            };
            let first = std::mem::take(&mut self.first);
            out.push_row(&self.columns, self.record, at, row, expected, first);
            self.record += 1;
        }
    }

    /// Reads rows from `block[pos..stop]` until `max` records, `stop`, or a row with an
    /// unclosed quote ([`csv_row`]; then that row's first line is one invalid record, the
    /// cursor goes on at the line after it, so the rows the quote would swallow are read as
    /// rows, and this returns true) or a line longer than [`MAX_LINE`] (one invalid record,
    /// or none when its first bytes are blank or a comment; the same, and true). Where each
    /// row ends is judged first, in all of `block`
    /// (a row may be judged on bytes past `stop`, so every shard judges it as the whole run
    /// does); the `csv` crate then reads the fields of the rows judged whole.
    fn fill_to_unclosed_quote(
        &mut self,
        block: &[u8],
        stop: usize,
        eof: bool,
        out: &mut RawChunk,
        max: usize,
    ) -> Result<bool, csv::Error> {
        let start = self.pos.min(stop);
        // The rows to read, up to the first unclosed quote or line longer than MAX_LINE.
        let (mut end, mut rows, mut halt) = (start, 0, None);
        while end < stop && out.len() + rows < max {
            let (line, next) = csv_line(block, end);
            if line.strip_suffix(b"\r").unwrap_or(line).len() > MAX_LINE {
                // Read here, not by the crate: it would copy all of a mapped line (hundreds
                // of MB) where a stream holds its first MAX_LINE + 1 bytes, and a quote left
                // open in it would run the crate's field on over the rows after it.
                halt = Some(Halt::TooLong { start: end, next });
                break;
            }
            if !is_csv_data_line(line) {
                end = next;
                continue;
            }
            match csv_row(block, end, self.delimiter, self.width, eof) {
                Some(RowEnd::Unclosed { next, column, why }) => {
                    halt = Some(Halt::Unclosed {
                        start: end,
                        next,
                        column,
                        why,
                    });
                    break;
                }
                row => end = row.map_or(next, |r| r.next()),
            }
            rows += 1;
        }
        let end = end.min(stop);
        let body = &block[start..end];
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
        // Line ends in `body[a..b]` (none when out of order or past its end), looking at
        // the block after it for the `\n` of a CRLF.
        let lines_in = |a: u64, b: u64| {
            let (a, b) = ((a as usize).min(body.len()), (b as usize).min(body.len()));
            count_csv_line_ends(block, start + a..start + b.max(a))
        };
        let mut all = true;
        while out.len() < max {
            if !rdr.read_byte_record(&mut rec)? {
                break;
            }
            let pos = rec.position().map_or(line_at.0, csv::Position::byte);
            let (at, row) = crate_row(body, pos as usize, rdr.position().byte() as usize);
            let at = at as u64;
            line_at = (at, line_at.1 + lines_in(line_at.0, at));
            let Some(row) = row else {
                continue; // a line of blanks: no record, as on the plain path
            };
            let mut error = None;
            if row.strip_suffix(b"\r").unwrap_or(row).len() > MAX_LINE {
                // One huge row: a stream keeps only its first bytes (see record.rs), so its
                // fields are not known; it is one invalid record either way, with as many
                // empty fields as a row should have.
                rec = csv::ByteRecord::from(vec![""; self.expected_fields.unwrap_or(1)]);
                error = Some(too_long());
            }
            let expected = *self.expected_fields.get_or_insert(rec.len());
            out.push_row(
                &self.columns,
                self.record,
                line_at.1,
                Row::Fields(rec, error),
                expected,
                std::mem::take(&mut self.first),
            );
            self.record += 1;
            rec = out.spare();
            all = out.len() < max;
        }
        let used = match all || rdr.is_done() {
            true => body.len(),
            false => (rdr.position().byte() as usize).min(body.len()),
        };
        self.line = line_at.1 + lines_in(line_at.0.min(used as u64), used as u64);
        self.pos = start + used;
        let Some(halt) = halt.filter(|_| used == body.len() && out.len() < max) else {
            out.give_back(rec);
            return Ok(false);
        };
        let (row_start, next) = halt.span();
        let first = &block[row_start..next];
        let first = first.strip_suffix(b"\n").unwrap_or(first);
        let row = match halt {
            Halt::Unclosed { column, why, .. } => Some((
                split_line(first, self.delimiter),
                self.unclosed_quote(column, &why),
            )),
            // As on the plain path: one invalid record with as many empty fields as a row
            // should have, or no record when its first bytes are blank or a comment.
            Halt::TooLong { .. } => is_csv_data_line(first).then(|| {
                (
                    vec![""; self.expected_fields.unwrap_or(1)].into(),
                    too_long(),
                )
            }),
        };
        if let Some((fields, error)) = row {
            let expected = *self.expected_fields.get_or_insert(fields.len());
            out.push_row(
                &self.columns,
                self.record,
                self.line,
                Row::Fields(fields, Some(error)),
                expected,
                std::mem::take(&mut self.first),
            );
            self.record += 1;
        }
        out.give_back(rec);
        self.line += count_csv_line_ends(block, row_start..next);
        self.pos = next;
        Ok(true)
    }

    /// The error of a row whose quote in 0-based field `column` is taken as unclosed.
    fn unclosed_quote(&self, column: usize, why: &Unclosed) -> ParseError {
        let field = match self.header.as_ref().and_then(|h| h.get(column)) {
            Some(name) => format!("{name} (column {})", column + 1),
            None => format!("column {}", column + 1),
        };
        ParseError::UnclosedQuote {
            field,
            why: why.describe(self.line),
        }
    }
}

/// Where the CSV reader hands a row over from the `csv` crate to [`CsvCursor`]'s own code:
/// `start..next` is the row's first line, with its line end.
enum Halt {
    /// The row's quote in 0-based field `column` is taken as unclosed ([`csv_row`]).
    Unclosed {
        start: usize,
        next: usize,
        column: usize,
        why: Unclosed,
    },
    /// The line is longer than [`MAX_LINE`] (in a stream, only its first `MAX_LINE + 1`
    /// bytes are there).
    TooLong { start: usize, next: usize },
}

impl Halt {
    /// The row's first line: its start, and where the next line starts.
    fn span(&self) -> (usize, usize) {
        match *self {
            Halt::Unclosed { start, next, .. } | Halt::TooLong { start, next } => (start, next),
        }
    }
}

/// The fields of one physical CSV line split at `delimiter` as written, quotes and all:
/// the record of a row whose quote is not closed on its line.
fn split_line(line: &[u8], delimiter: u8) -> csv::ByteRecord {
    let mut rec = csv::ByteRecord::new();
    split_fields(
        line.strip_suffix(b"\r").unwrap_or(line),
        delimiter,
        &mut rec,
    );
    rec
}

fn too_long() -> ParseError {
    ParseError::LineTooLong { limit: MAX_LINE }
}

#[cfg(test)]
mod tests {
    use crate::grid::fixtures::{P, S};
    use crate::input::chunk::for_each_parsed;
    use crate::input::record::MAX_LINE;
    use crate::input::{Dataset, ReadOptions};

    /// A record as read: record, line, fields, puzzle (or error), solution (or error).
    type Read = (u64, u64, Vec<Vec<u8>>, String, String);

    /// Every record of `data`, read in takes of `max` records each parsed after the take.
    fn read(data: Dataset, max: usize) -> Vec<Read> {
        let mut all = Vec::new();
        for_each_parsed(data, max, |r| {
            let fields = r.fields.as_ref().unwrap().iter().map(<[u8]>::to_vec);
            all.push((
                r.record,
                r.line,
                fields.collect(),
                format!("{:?}", r.puzzle),
                format!("{:?}", r.solution),
            ));
        });
        all
    }

    /// A CSV of `n` rows drawn by a seeded generator from `kinds` (see the match), each
    /// ending in LF or CRLF, the last maybe with no line end.
    fn csv_text(seed: u64, n: usize, kinds: u64) -> String {
        let mut x = seed;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let mut text = String::from("puzzle,solution\n");
        for _ in 0..n {
            text += &match next(kinds) {
                0 | 1 => format!("{P},{S}"),
                2 => P.to_string(),
                3 => format!("{P},{S},x"),
                4 => String::new(),
                5 => "# a comment, 2 fields".into(),
                6 => "   ".into(),
                7 => format!("{}x,{S}", &P[1..]),
                8 => ",,".into(),
                9 => format!("{P};{S}"),
                // Rows only the csv crate reads right.
                10 => format!("\"{P}\",{S}"),
                11 => format!("{P},\"{S}\n\""),
                12 => format!("{P}\r{S}"),
                13 => "#\" a comment with a quote".into(),
                _ => format!("{P},{S}\"x"),
            };
            text += if next(2) == 0 { "\n" } else { "\r\n" };
        }
        if next(2) == 0 {
            text.truncate(text.trim_end().len());
        }
        text
    }

    /// Issue "engine read path": a plain row (no quote, no lone CR), cut as a line and
    /// split after the take, gives what the `csv` crate gives, record and line numbers
    /// included, in any takes and blocks, also mixed with rows only the crate reads right.
    #[test]
    fn plain_csv_rows_read_as_the_csv_crate_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let path = path.to_str().unwrap();
        let huge = format!("{P},{}\n", "z".repeat(MAX_LINE));
        for (seed, kinds) in [
            (1, 10),
            (2, 10),
            (3, 13),
            (4, 13),
            (5, 15),
            (6, 15),
            (7, 11),
        ] {
            let mut text = csv_text(seed, 300, kinds);
            if seed == 3 {
                text.insert_str(text.find('\n').unwrap() + 1, &huge);
            }
            // A first data line with a quote sends the whole take to the csv crate.
            let at = text.find('\n').unwrap() + 1;
            let forced = format!("{}#\"\n{}", &text[..at], &text[at..]);
            let opts = ReadOptions::default();
            let forced = Dataset::from_bytes("t.csv", forced.into_bytes(), &opts).unwrap();
            let want: Vec<Read> = read(forced, usize::MAX)
                .into_iter()
                .map(|(r, l, f, p, s)| (r, l - 1, f, p, s))
                .collect();
            assert!(want.len() > 150, "{}", want.len());
            for max in [1, 7, 1000] {
                let data = Dataset::from_bytes("t.csv", text.clone().into_bytes(), &opts);
                assert_eq!(
                    read(data.unwrap(), max),
                    want,
                    "seed {seed}, takes of {max}"
                );
            }
            if kinds > 13 {
                // A stream's blocks are cut at line ends outside quotes, counting every
                // `"`: a quote inside a field or a comment throws the count off (not this
                // reader's business), so those inputs are read whole only.
                continue;
            }
            // A block of `b` bytes is cut inside quotes once it holds 16 `b` bytes with no
            // line end outside them: a row with a quoted line end needs `b` of 64 or more.
            let blocks: &[usize] = if kinds > 11 {
                &[64, 1 << 20]
            } else {
                &[1, 64, 1 << 20]
            };
            std::fs::write(path, &text).unwrap();
            for &block in blocks {
                let opts = ReadOptions {
                    block,
                    mmap: false,
                    ..ReadOptions::default()
                };
                let data = Dataset::open(path, &opts).unwrap();
                assert_eq!(read(data, 5), want, "seed {seed}, blocks of {block} bytes");
            }
        }
    }
}
