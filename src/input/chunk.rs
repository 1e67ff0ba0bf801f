//! [`RawChunk`]: the records of one take from an input, and the split that keeps parsing out
//! of the reader's critical section.
//!
//! The batch engine takes records from an input under a lock ([`super::Dataset::take`]), so
//! whatever the take does is serial: on a many-core machine it caps the speed-up. A take of
//! a lines input (and of JSON Lines) therefore only finds the data lines, numbers them and
//! copies their bytes into the chunk; [`RawChunk::parse`], called by whoever holds the
//! chunk after letting go of the lock, turns them into [`RawRecord`]s. The bytes are copied
//! rather than borrowed because a stream's block is dropped as soon as it is used, and the
//! copy (about 82 bytes a record, one `memcpy`) costs a small part of what parsing did:
//! `dedup --iso` spent a fifth of its CPU time in the take before (BENCHMARKS.md, "The
//! engine's read path"). A CSV take does the same for a row that is one plain line (no
//! quote, no lone `\r`: every row of the usual datasets); a row with a quote is read by the
//! `csv` crate (where it ends depends on the quotes before it), into the field buffers of
//! records already consumed. [`RawChunk::parse`] splits the plain rows into fields and
//! parses both kinds. Parquet records are parsed in the take.

use std::sync::Arc;

use super::jsonl::{JsonColumns, Parsed};
use super::record::{line_fields, spanning_lines, split_fields, trim_artefacts, MAX_LINE};
use super::{RawRecord, PUZZLE_NAMES};
use crate::grid::{grid_line_hint, parse_cells, parse_solution, Grid, ParseError};

/// Records taken from an input in one [`super::Dataset::take`], in input order: parsed
/// already (Parquet), or until [`RawChunk::parse`] data lines as bytes (lines, JSON Lines)
/// and CSV rows as fields. Reuse one chunk for many takes: its buffers keep their capacity,
/// and the fields of the records it held are reused for the next ones.
#[derive(Debug, Default)]
pub struct RawChunk {
    records: Vec<RawRecord>,
    /// The taken lines' text, back to back (each trimmed as [`super::record::data_line`]
    /// trims it), or the plain CSV rows' text (without the line end).
    text: Vec<u8>,
    /// The taken lines not yet parsed, in input order.
    lines: Vec<Unparsed>,
    /// How the taken lines are parsed (set by the lines reader).
    parser: Option<Arc<LineParser>>,
    /// The taken CSV rows not yet parsed, in input order.
    rows: Vec<UnparsedRow>,
    /// How the taken rows are parsed (set by the CSV reader).
    columns: Option<Arc<CsvColumns>>,
    /// Field buffers of records cleared, to read and keep the next records' fields in.
    spare: Vec<csv::ByteRecord>,
}

/// A CSV row taken but not yet parsed.
#[derive(Debug)]
struct UnparsedRow {
    /// 0-based record number.
    record: u64,
    /// 1-based line where the row starts.
    line: u64,
    /// The fields as the reader found them; `None` for a plain row ([`Row::Text`]), whose
    /// text ends at `end` in [`RawChunk::text`] (it starts where the previous one ends).
    fields: Option<csv::ByteRecord>,
    end: usize,
    /// Fields a row should have (the header's, or the first row's).
    expected: usize,
    /// Invalid whatever its fields hold, found by the reader: longer than [`MAX_LINE`]
    /// (`fields` are empty), or an unclosed quote that swallowed rows (`fields` are its
    /// first line's).
    error: Option<ParseError>,
    /// The first row of an input read without a header ([`CsvColumns::parse`]).
    first: bool,
}

/// A CSV row as the take found it.
pub(crate) enum Row<'a> {
    /// Read by the `csv` crate, or made by the reader, with the row's error if the reader
    /// found one (see [`UnparsedRow::error`]).
    Fields(csv::ByteRecord, Option<ParseError>),
    /// A plain line (no quote, no lone `\r`, not longer than [`MAX_LINE`]) without its
    /// line end: its fields are the text between delimiters.
    Text(&'a [u8]),
}

/// A data line taken but not yet parsed.
#[derive(Debug)]
struct Unparsed {
    /// 0-based record number.
    record: u64,
    /// 1-based line.
    line: u64,
    /// End of its text in [`RawChunk::text`] (it starts where the previous one ends).
    end: usize,
    /// Longer than [`MAX_LINE`]: invalid whatever it holds, and its text is not kept.
    too_long: bool,
}

impl RawChunk {
    /// Records in the chunk, parsed or not.
    pub fn len(&self) -> usize {
        self.records.len() + self.lines.len() + self.rows.len()
    }

    /// Whether the take found no records (the end of the input or its shard).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Empties the chunk, keeping its buffers' capacity and its records' fields for the
    /// next take (until [`RawChunk::parse`] releases those the take did not use).
    pub fn clear(&mut self) {
        let fields = self.records.drain(..).filter_map(|r| r.fields);
        self.spare.extend(fields);
        self.spare
            .extend(self.rows.drain(..).filter_map(|r| r.fields));
        self.text.clear();
        self.lines.clear();
    }

    /// Parses the taken lines and rows into records (nothing to do for Parquet records).
    /// Call it outside the lock the take was made under: this is the work the split moves
    /// out of it.
    pub fn parse(&mut self) {
        if let Some(columns) = &self.columns {
            self.records.reserve(self.rows.len());
            let mut start = 0;
            for r in self.rows.drain(..) {
                let text = &self.text[start..r.end];
                start = r.end;
                let fields = r.fields.unwrap_or_else(|| {
                    let mut f = self.spare.pop().unwrap_or_default();
                    split_fields(text, columns.delimiter, &mut f);
                    f
                });
                let (puzzle, solution) = match r.error {
                    Some(e) => (Err(e), None),
                    None => columns.parse(&fields, r.expected, r.first),
                };
                self.records.push(RawRecord {
                    record: r.record,
                    line: r.line,
                    puzzle,
                    solution,
                    fields: Some(fields),
                });
            }
        }
        if let Some(parser) = &self.parser {
            self.records.reserve(self.lines.len());
            let mut start = 0;
            for l in self.lines.drain(..) {
                let (puzzle, solution, fields) = if l.too_long {
                    parser.too_long(&mut self.spare)
                } else {
                    parser.parse(&self.text[start..l.end], &mut self.spare)
                };
                start = l.end;
                self.records.push(RawRecord {
                    record: l.record,
                    line: l.line,
                    puzzle,
                    solution,
                    fields,
                });
            }
            self.text.clear();
        }
        // Field buffers this take did not reuse (all of them for JSON Lines and Parquet,
        // whose records bring their own) go, so a chunk never holds two sets.
        self.spare.clear();
    }

    /// The parsed records, in input order ([`RawChunk::parse`] first, else the lines taken
    /// are missing).
    pub fn records(&self) -> &[RawRecord] {
        &self.records
    }

    /// The parsed records, to fill or to take over.
    pub(crate) fn records_mut(&mut self) -> &mut Vec<RawRecord> {
        &mut self.records
    }

    /// A field buffer to read a row into: one of a cleared record, or a new one.
    pub(crate) fn spare(&mut self) -> csv::ByteRecord {
        self.spare.pop().unwrap_or_default()
    }

    /// Returns a field buffer [`RawChunk::spare`] gave and that was not used.
    pub(crate) fn give_back(&mut self, fields: csv::ByteRecord) {
        self.spare.push(fields);
    }

    /// Takes CSV row `row` (1-based line `line`, record `record`; `expected` fields a row
    /// should have; `first`: the first row of an input without a header). `columns` splits
    /// and parses it later.
    pub(crate) fn push_row(
        &mut self,
        columns: &Arc<CsvColumns>,
        record: u64,
        line: u64,
        row: Row,
        expected: usize,
        first: bool,
    ) {
        if self.columns.is_none() {
            self.columns = Some(Arc::clone(columns));
        }
        let (fields, error) = match row {
            Row::Fields(f, e) => (Some(f), e),
            Row::Text(text) => {
                self.text.extend_from_slice(text);
                (None, None)
            }
        };
        self.rows.push(UnparsedRow {
            record,
            line,
            fields,
            end: self.text.len(),
            expected,
            error,
            first,
        });
    }

    /// Takes data line `text` (1-based line `line`, record `record`); `None` for a line
    /// longer than [`MAX_LINE`], whose text is not kept. `parser` parses it later.
    pub(crate) fn push_line(
        &mut self,
        parser: &Arc<LineParser>,
        record: u64,
        line: u64,
        text: Option<&[u8]>,
    ) {
        if self.parser.is_none() {
            self.parser = Some(Arc::clone(parser));
        }
        self.text.extend_from_slice(text.unwrap_or_default());
        self.lines.push(Unparsed {
            record,
            line,
            end: self.text.len(),
            too_long: text.is_none(),
        });
    }
}

/// What a CSV puzzle field is when a tool made it no puzzle, named: a header row repeated
/// inside the file (CSV files joined with `cat`; not for the `first` row of a headerless
/// input, which has its own hint), or an Excel text formula `="..."` (written to keep a
/// spreadsheet from dropping leading zeros). `None` for any other field.
fn artefact(field: &[u8], first: bool) -> Option<ParseError> {
    if !first
        && PUZZLE_NAMES
            .iter()
            .any(|n| field.eq_ignore_ascii_case(n.as_bytes()))
    {
        return Some(ParseError::Record(format!(
            "a repeated header row ({:?} in the puzzle column): CSV files joined with `cat`? \
             not a puzzle",
            String::from_utf8_lossy(field)
        )));
    }
    let inner = field.strip_prefix(b"=\"")?.strip_suffix(b"\"")?;
    Some(ParseError::Record(format!(
        "an Excel text formula (=\"...\" around {} characters), not the cells: save the column \
         as text, or strip the =\"\" wrapper",
        inner.len()
    )))
}

/// Which fields of a CSV row hold the puzzle and the stored solution (0-based), and what
/// separates fields: shared by the chunks that a CSV reader fills.
#[derive(Debug)]
pub(crate) struct CsvColumns {
    pub(crate) puzzle: usize,
    pub(crate) solution: Option<usize>,
    pub(crate) delimiter: u8,
}

impl CsvColumns {
    /// The puzzle and stored solution of a row of `fields`, which should have `expected`
    /// fields (else the row is invalid: a ragged row's fields cannot be trusted). `first`:
    /// the row is the first of an input read without a header, so a puzzle field that is a
    /// puzzle column's name ([`PUZZLE_NAMES`]) is a header read as a row: the sniffer takes
    /// such a first row for the header unless `--no-header` says there is none.
    fn parse(
        &self,
        fields: &csv::ByteRecord,
        expected: usize,
        first: bool,
    ) -> (Result<Grid, ParseError>, Option<Result<Grid, ParseError>>) {
        if fields.len() != expected {
            let e = ParseError::FieldCount {
                found: fields.len(),
                expected,
            };
            return (Err(spanning_lines(e, fields)), None);
        }
        let field = |i: usize| {
            fields
                .get(i)
                .map(trim_artefacts)
                .ok_or(ParseError::MissingField { column: i + 1 })
        };
        let mut puzzle = field(self.puzzle).and_then(|f| match artefact(f, first) {
            Some(e) => Err(e),
            None => parse_cells(f),
        });
        if let (
            true,
            Ok(name),
            Err(ParseError::BadChar { hint, .. } | ParseError::LengthAndChar { hint, .. }),
        ) = (first, field(self.puzzle), &mut puzzle)
        {
            if PUZZLE_NAMES
                .iter()
                .any(|n| name.eq_ignore_ascii_case(n.as_bytes()))
            {
                *hint = " (a header? drop --no-header)";
            }
        }
        // An empty (or blank) solution field is "no stored solution", as a JSON `null` is:
        // the tool's own CSV outputs write "none" that way, and must read back.
        let solution = self
            .solution
            .map(&field)
            .filter(|f| f.as_ref().map_or(true, |f| !f.is_empty()))
            .map(|f| f.and_then(parse_solution));
        (puzzle.map_err(|e| spanning_lines(e, fields)), solution)
    }
}

/// How a data line of a lines or JSON Lines input becomes a record: shared by the chunks
/// that a reader fills (so parsed on any thread).
#[derive(Debug)]
pub(crate) struct LineParser {
    /// Which whitespace-separated field holds the puzzle (see [`super::Layout::Lines`]).
    pub(crate) field: usize,
    /// The file's lines carry 81-cell solutions (see [`super::Layout::Lines`]).
    pub(crate) paired: bool,
    /// Keep the puzzle and solution text ([`super::ReadOptions::keep_text`]).
    pub(crate) keep_text: bool,
    /// A JSON Lines input: each line is an object ([`JsonColumns::parse`]).
    pub(crate) json: Option<JsonColumns>,
}

/// Parses a puzzle field as [`parse_cells`] does, a HoDoKu field too: there `+d` is a digit
/// placed (solved) in the saved state, read as a given of the position.
fn parse_placed(field: &[u8]) -> Result<Grid, ParseError> {
    if field.len() > 81 && field.contains(&b'+') {
        let cells: Vec<u8> = field.iter().copied().filter(|&b| b != b'+').collect();
        if cells.len() == 81 {
            return parse_cells(&cells);
        }
    }
    parse_cells(field)
}

impl LineParser {
    /// Parses one data line (as [`super::record::data_line`] returns it); kept text goes
    /// into a buffer of `spare` when there is one.
    pub(crate) fn parse(&self, line: &[u8], spare: &mut Vec<csv::ByteRecord>) -> Parsed {
        if let Some(json) = &self.json {
            return json.parse(line);
        }
        // The common case, a line of exactly one puzzle: one pass over its bytes. Its
        // text is the whole line and it has no stored solution (what `line_fields` finds
        // on such a line, without the byte-by-byte look at it).
        if self.field == 0 && line.len() == 81 {
            if let Ok(g) = parse_cells(line) {
                return (
                    Ok(g),
                    None,
                    self.keep_text.then(|| text(spare, line, b"", line)),
                );
            }
        }
        let (puzzle, solution) = line_fields(line, self.field, self.paired);
        let fields = self
            .keep_text
            .then(|| text(spare, puzzle.unwrap_or(b""), solution.unwrap_or(b""), line));
        let missing = ParseError::MissingField {
            column: self.field + 1,
        };
        (
            puzzle
                .ok_or(missing)
                .and_then(parse_placed)
                .map_err(|e| grid_line_hint(e, line)),
            solution.map(parse_solution),
            fields,
        )
    }

    /// A line longer than [`MAX_LINE`]: one invalid record, with empty fields. A JSON
    /// Lines record gets none, as a line that is not an object does: a table output fills
    /// its columns in, where the three fields of a lines record made a short row.
    fn too_long(&self, spare: &mut Vec<csv::ByteRecord>) -> Parsed {
        let fields = match &self.json {
            Some(_) => Some(csv::ByteRecord::new()),
            None => self.keep_text.then(|| text(spare, b"", b"", b"")),
        };
        (
            Err(ParseError::LineTooLong { limit: MAX_LINE }),
            None,
            fields,
        )
    }
}

/// The kept text of a lines record: its puzzle field, its stored-solution field and the
/// whole data line (what `dedup` writes back, ratings and labels included), in a
/// buffer of `spare` (no allocation), else in one allocation of the right
/// size.
fn text(
    spare: &mut Vec<csv::ByteRecord>,
    puzzle: &[u8],
    solution: &[u8],
    line: &[u8],
) -> csv::ByteRecord {
    let mut f = match spare.pop() {
        Some(mut f) => {
            f.clear();
            f
        }
        None => csv::ByteRecord::with_capacity(puzzle.len() + solution.len() + line.len(), 3),
    };
    f.push_field(puzzle);
    f.push_field(solution);
    f.push_field(line);
    f
}

/// Every record of `data`, read in takes of `max` records, each take parsed after it as the
/// engine parses it (outside the read lock), handed to `f` in order. For the readers' tests.
#[cfg(test)]
pub(crate) fn for_each_parsed(mut data: super::Dataset, max: usize, mut f: impl FnMut(&RawRecord)) {
    let mut chunk = RawChunk::default();
    loop {
        data.take(&mut chunk, max).unwrap();
        if chunk.is_empty() {
            return;
        }
        assert!(chunk.records().is_empty(), "records wait for parse()");
        chunk.parse();
        assert_eq!(chunk.records().len(), chunk.len());
        chunk.records().iter().for_each(&mut f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};
    use crate::input::{Dataset, Layout, ReadOptions};

    fn keep_text(block: usize, mmap: bool) -> ReadOptions {
        ReadOptions {
            keep_text: true,
            block,
            mmap,
            ..ReadOptions::default()
        }
    }

    /// Every record of `data` as (record, line, puzzle text, solution text, puzzle or
    /// error), read in takes of `max` records each parsed after the take, as the engine
    /// reads them.
    fn taken(data: Dataset, max: usize) -> Vec<(u64, u64, String, String, String)> {
        let layout: Layout = data.layout().clone();
        let mut all = Vec::new();
        for_each_parsed(data, max, |r| {
            let (p, s) = layout.record_text(r);
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            let puzzle = match &r.puzzle {
                Ok(g) => g.to_string(),
                Err(e) => format!("error: {e}"),
            };
            all.push((r.record, r.line, text(p), text(s), puzzle));
        });
        all
    }

    /// Issue "engine read path": the kept text of lines records, now parsed after the
    /// take and with a fast path for a line of exactly one puzzle, is the text as read:
    /// CRLF, a comment, blanks, trailing text, a stored solution, a short line, a bad
    /// cell and a missing final newline.
    #[test]
    fn keep_text_lines_give_the_fields_as_read() {
        let p0 = P.replace('.', "0");
        let bad = P.replacen('.', "x", 1);
        let text = format!(
            "# c\r\n{P}\r\n\r\n  {p0}  \n{P},{S}\r\n{P}:1:{S}\n{P}\t# rated 7.2\n{}\n{bad}\n{P}",
            &P[..80]
        );
        let want = vec![
            (0, 2, P, "", P.to_string()),
            (1, 4, p0.as_str(), "", P.to_string()),
            (2, 5, P, S, P.to_string()),
            (3, 6, P, S, P.to_string()),
            (4, 7, P, "", P.to_string()),
            (
                5,
                8,
                &P[..80],
                "",
                "error: 80 characters, expected 81".into(),
            ),
            (
                6,
                9,
                &bad,
                "",
                "error: r1c1: invalid character 'x' (character 1)".into(),
            ),
            (7, 10, P, "", P.to_string()),
        ];
        let want: Vec<_> = want
            .into_iter()
            .map(|(r, l, p, s, g)| (r, l, p.to_string(), s.to_string(), g))
            .collect();
        for max in [1, 3, 1024] {
            let data = Dataset::from_bytes("t.txt", text.clone().into_bytes(), &keep_text(1, true));
            assert_eq!(taken(data.unwrap(), max), want, "{max} records a take");
        }
        // The same from a stream cut into blocks of a few bytes (`--no-mmap`).
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        std::fs::write(&path, &text).unwrap();
        let path = path.to_str().unwrap();
        for block in [1, 100, 1 << 20] {
            let data = Dataset::open(path, &keep_text(block, false)).unwrap();
            assert_eq!(taken(data, 2), want, "blocks of {block} bytes");
        }
    }

    /// The fast path for a line of 81 characters gives what the general path
    /// ([`line_fields`]) gives, with and without kept text, for good and bad lines.
    #[test]
    fn the_fast_path_agrees_with_line_fields() {
        let mut lines = vec![P.to_string(), P.replace('.', "0"), P.replace('.', "_")];
        for (at, b) in [(0, 'x'), (40, ' '), (80, '#'), (80, ','), (3, '\t')] {
            let mut l = P.to_string();
            l.replace_range(at..=at, &b.to_string());
            lines.push(l);
        }
        for keep_text in [false, true] {
            let parser = LineParser {
                field: 0,
                paired: false,
                keep_text,
                json: None,
            };
            for line in &lines {
                let line = line.as_bytes();
                assert_eq!(line.len(), 81);
                let (puzzle, solution) = line_fields(line, 0, false);
                let want_fields = keep_text.then(|| {
                    let mut f = csv::ByteRecord::new();
                    f.push_field(puzzle.unwrap_or(b""));
                    f.push_field(solution.unwrap_or(b""));
                    f.push_field(line);
                    f
                });
                let (got, got_solution, got_fields) = parser.parse(line, &mut Vec::new());
                let want = puzzle
                    .ok_or(ParseError::MissingField { column: 1 })
                    .and_then(parse_cells);
                assert_eq!(got, want, "{}", String::from_utf8_lossy(line));
                assert_eq!(got_solution, solution.map(parse_solution));
                assert_eq!(got_fields, want_fields);
            }
        }
    }

    /// A line longer than [`MAX_LINE`] is one invalid record with empty kept fields, and
    /// its bytes are not copied into the chunk; the records after it keep their numbers.
    #[test]
    fn a_huge_line_is_taken_without_its_text() {
        let text = format!("{P}\n{}\n{P}\n", "1".repeat(MAX_LINE + 10));
        let mut data =
            Dataset::from_bytes("t.txt", text.into_bytes(), &keep_text(1, true)).unwrap();
        let mut chunk = RawChunk::default();
        data.take(&mut chunk, 10).unwrap();
        assert_eq!(chunk.text.len(), 2 * 81);
        chunk.parse();
        let r = chunk.records();
        assert_eq!(
            (r[1].record, r[1].line, r[2].record, r[2].line),
            (1, 2, 2, 3)
        );
        assert_eq!(
            r[1].puzzle,
            Err(ParseError::LineTooLong { limit: MAX_LINE })
        );
        assert_eq!(r[1].fields, Some(csv::ByteRecord::from(vec![""; 3])));
        assert_eq!(
            r[2].puzzle.as_ref().map(ToString::to_string),
            Ok(P.to_string())
        );
    }

    /// The field buffers of the records a chunk held are the ones the next take reads
    /// into: after the first take, a CSV or `keep_text` input allocates no fields.
    #[test]
    fn the_next_take_reuses_the_fields_of_the_cleared_records() {
        let p0 = P.replace('.', "0");
        let csv = format!("puzzle,solution\n{}", format!("{p0},{S}\n").repeat(6));
        let lines = format!("{P}\n").repeat(6);
        for text in [csv, lines] {
            let opts = keep_text(1, true);
            let mut data = Dataset::from_bytes("t", text.into_bytes(), &opts).unwrap();
            let mut chunk = RawChunk::default();
            let buffers = |chunk: &RawChunk| -> Vec<*const u8> {
                let f = |r: &RawRecord| r.fields.as_ref().unwrap().as_slice().as_ptr();
                chunk.records().iter().map(f).collect()
            };
            data.take(&mut chunk, 3).unwrap();
            chunk.parse();
            let first = buffers(&chunk);
            chunk.clear();
            data.take(&mut chunk, 3).unwrap();
            chunk.parse();
            let second = buffers(&chunk);
            assert_eq!(second.len(), 3);
            assert!(
                second.iter().all(|p| first.contains(p)),
                "{first:?} {second:?} {}",
                data.layout().name()
            );
            assert!(chunk.records().iter().all(|r| r.puzzle.is_ok()));
        }
    }

    /// CSV rows are found in the take and parsed after it, with the reader's rules: a
    /// ragged row, an unclosed quote (its row invalid, the row it would swallow read as a
    /// row), a quoted note over two lines (read), CRLF, a comment.
    #[test]
    fn csv_rows_are_parsed_after_the_take() {
        let p0 = P.replace('.', "0");
        let text = format!(
            "puzzle,solution,note\r\n{p0},{S},\r\n# c\r\n{p0}\r\n{p0},{S},\"a\r\nb\"\r\n\
             \"{p0},{S},\r\n{p0},{S},\r\n"
        );
        let data = Dataset::from_bytes("t.csv", text.into_bytes(), &keep_text(1, true));
        let mut data = data.unwrap();
        let mut chunk = RawChunk::default();
        data.take(&mut chunk, 10).unwrap();
        assert_eq!((chunk.len(), chunk.records().len()), (5, 0));
        chunk.parse();
        let got: Vec<(u64, u64, String)> = chunk
            .records()
            .iter()
            .map(|r| {
                let puzzle = match &r.puzzle {
                    Ok(g) => g.to_string(),
                    Err(e) => e.to_string(),
                };
                (r.record, r.line, puzzle)
            })
            .collect();
        let ragged = ParseError::FieldCount {
            found: 1,
            expected: 3,
        };
        let unclosed = ParseError::UnclosedQuote {
            field: "puzzle (column 1)".into(),
            why: "that is never closed (the input ends inside it)".into(),
        };
        let want = vec![
            (0, 2, P.to_string()),
            (1, 4, ragged.to_string()),
            (2, 5, P.to_string()),
            (3, 7, unclosed.to_string()),
            (4, 8, P.to_string()),
        ];
        assert_eq!(got, want);
        let r = chunk.records();
        assert_eq!(r[2].solution, Some(parse_solution(S.as_bytes())));
        assert_eq!(r[2].fields.as_ref().unwrap().get(2), Some(&b"a\r\nb"[..]));
        // The unclosed row keeps the fields of its own line, quote and all.
        let fields = r[3].fields.as_ref().unwrap();
        assert_eq!(fields.get(0), Some(format!("\"{p0}").as_bytes()));
        assert_eq!(fields.len(), 3);
    }
}
