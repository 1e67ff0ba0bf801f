//! Input: open a file (memory-mapped, or read for stdin and `--no-mmap`), work out its
//! layout, and cut it into records in batches.
//!
//! Two layouts are read:
//! - **lines**: one puzzle per line. The puzzle is either the first 81 characters of the
//!   line (then the line must end there or go on with whitespace, `:`, `,`, `;` or `#`), or,
//!   when the file's lines start with something else (a hash, an id), the first
//!   whitespace-separated field that holds 81 cells, found once per file. `#` lines and blank
//!   lines are skipped and not counted; CRLF, a UTF-8 BOM, trailing blanks and a missing final
//!   newline are handled.
//! - **csv**: a header row names the puzzle column (`quizzes`, `puzzle`, `question`,
//!   `puzzles`, `quiz`) and, if present, the solution column (`solutions`, `solution`,
//!   `answer`, `answers`); parsed by the `csv` crate.
//!
//! Every record carries its position: `record` (0-based, data records only) and `line`
//! (1-based physical line of the input where the record starts).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::grid::{is_cell_byte, parse_cells, parse_solution, Grid, ParseError};

/// How to read the input's layout; `Auto` sniffs it from the first lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Sniff: a CSV header naming a puzzle column means CSV, anything else is lines.
    #[default]
    Auto,
    /// One puzzle per line.
    Lines,
    /// A CSV file (comma-separated, RFC 4180 quoting).
    Csv,
}

/// What the user said about the layout (all optional).
#[derive(Clone, Debug, Default)]
pub struct LayoutOptions {
    /// Layout to use, or `Auto`.
    pub format: Format,
    /// CSV puzzle column: a header name (case-insensitive) or a 1-based index.
    pub puzzle_column: Option<String>,
    /// CSV solution column: a header name (case-insensitive) or a 1-based index.
    pub solution_column: Option<String>,
    /// The CSV has no header row; columns are then chosen by index or found by content.
    pub no_header: bool,
}

/// Header names recognised as the puzzle column, compared case-insensitively.
pub const PUZZLE_NAMES: [&str; 5] = ["quizzes", "puzzle", "question", "puzzles", "quiz"];
/// Header names recognised as the solution column, compared case-insensitively.
pub const SOLUTION_NAMES: [&str; 4] = ["solutions", "solution", "answer", "answers"];

/// The layout of one input, as detected or chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle per line; `field` is the 0-based whitespace-separated field that holds the
    /// puzzle, or 0 when the puzzle starts the line (tdoku style).
    Lines {
        /// 0-based whitespace-separated field index of the puzzle.
        field: usize,
    },
    /// A CSV file.
    Csv {
        /// The header row, if the file has one (BOM removed).
        header: Option<Vec<String>>,
        /// 0-based index of the puzzle column.
        puzzle: usize,
        /// 0-based index of the solution column, if any.
        solution: Option<usize>,
    },
}

impl Layout {
    /// A short name for reports: `lines` or `csv`.
    pub fn name(&self) -> &'static str {
        match self {
            Layout::Lines { .. } => "lines",
            Layout::Csv { .. } => "csv",
        }
    }
}

/// Errors that stop a whole input (never a single record).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be opened or read. (The reason is the error's source, which
    /// `{:#}` prints after the path; naming it here too printed it twice.)
    #[error("{path}")]
    Io {
        /// The input path as given (`-` for stdin).
        path: String,
        /// The underlying error.
        source: io::Error,
    },
    /// The input is a directory.
    #[error("{path}: is a directory, expected a file of puzzles")]
    Directory {
        /// The input path as given.
        path: String,
    },
    /// The layout could not be worked out or does not fit the options.
    #[error("{path}: {reason}")]
    Layout {
        /// The input path as given.
        path: String,
        /// What is wrong, naming the option to use.
        reason: String,
    },
    /// The CSV reader failed (an I/O error while parsing).
    #[error("{path}: line {line}")]
    Csv {
        /// The input path as given.
        path: String,
        /// 1-based line where the reader stopped.
        line: u64,
        /// The underlying error.
        source: csv::Error,
    },
}

/// The bytes of one input: a read-only memory map or an owned buffer.
pub enum Source {
    /// A memory-mapped regular file.
    Mapped(memmap2::Mmap),
    /// Bytes read into memory (stdin, pipes, `--no-mmap`, files that cannot be mapped).
    Owned(Vec<u8>),
}

impl Source {
    /// The whole input.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Owned(v) => v,
        }
    }
}

/// Maps `file` read-only.
///
/// # Safety
/// The file must not be truncated or modified while the map is alive: a truncation makes
/// reads past the new end raise SIGBUS, and a modification changes bytes under the parser.
///
/// # Errors
/// Whatever `mmap(2)` reports (e.g. for a FIFO or a special file).
pub unsafe fn map_file(file: &File) -> io::Result<memmap2::Mmap> {
    // SAFETY: the caller promises the file is not changed while mapped.
    let map = unsafe { memmap2::MmapOptions::new().map(file) }?;
    // Records are read front to back once: let the kernel read ahead. Only a hint, so a
    // kernel that refuses it changes nothing.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    Ok(map)
}

/// Opens `path` (`-` = stdin). Regular files are mapped when `mmap` is true; everything
/// else, and any file the kernel will not map, is read into memory.
///
/// # Errors
/// [`InputError::Io`] when the file cannot be opened or read, [`InputError::Directory`]
/// for a directory.
pub fn open(path: &str, mmap: bool) -> Result<Source, InputError> {
    let io_err = |source| InputError::Io {
        path: path.to_string(),
        source,
    };
    if path == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf).map_err(io_err)?;
        return Ok(Source::Owned(buf));
    }
    let meta = std::fs::metadata(Path::new(path)).map_err(io_err)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            path: path.to_string(),
        });
    }
    let mut file = File::open(path).map_err(io_err)?;
    if mmap && meta.is_file() && meta.len() > 0 {
        // SAFETY: we only read the map. A file changed under us by another process can
        // give wrong records or SIGBUS; README documents this and offers --no-mmap.
        if let Ok(map) = unsafe { map_file(&file) } {
            return Ok(Source::Mapped(map));
        }
    }
    let mut buf = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut buf).map_err(io_err)?;
    Ok(Source::Owned(buf))
}

/// One record read from an input, before solving.
#[derive(Clone, Debug)]
pub struct RawRecord {
    /// 0-based index of the record among the data records of the run (not counting
    /// comments, blank lines or a header).
    pub record: u64,
    /// 1-based line of the input where the record starts.
    pub line: u64,
    /// The parsed puzzle, or why the record is not a puzzle.
    pub puzzle: Result<Grid, ParseError>,
    /// The known solution that the record carries (a solution column, or a second field
    /// on a line), parsed; `None` when the record has none.
    pub solution: Option<Result<Grid, ParseError>>,
    /// The record's CSV fields as read (CSV inputs only), to copy into CSV output.
    pub fields: Option<csv::ByteRecord>,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// The record on one physical line of a lines input (`line` without its `\n`), or `None`
/// for a blank line or a `#` comment. Blanks at either end are not part of the record, so
/// an indented puzzle is read, not reported as an empty field. The one rule for the
/// reader, layout detection, sharding and `verify`'s quoting.
pub(crate) fn data_line(line: &[u8]) -> Option<&[u8]> {
    let line = line.trim_ascii();
    (!line.is_empty() && line[0] != b'#').then_some(line)
}

/// Lines of `bytes` that hold data ([`data_line`]). Yields `(1-based line number, record)`.
fn data_lines(bytes: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    strip_bom(bytes)
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(i, l)| Some((i as u64 + 1, data_line(l)?)))
}

/// Whether `line` starts with 81 cells followed by the end or a separator.
fn starts_with_puzzle(line: &[u8]) -> bool {
    line.len() >= 81
        && line[..81].iter().all(|&b| is_cell_byte(b))
        && line.get(81).is_none_or(|&b| is_separator(b))
}

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b':' | b',' | b';' | b'#')
}

fn csv_fields(line: &[u8]) -> Vec<String> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line);
    let mut rec = csv::ByteRecord::new();
    match rdr.read_byte_record(&mut rec) {
        Ok(true) => rec
            .iter()
            .map(|f| String::from_utf8_lossy(f).trim().to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// Finds a column by name (case-insensitive) or by 1-based index. An index past the
/// `width` fields of the first row is no column (an empty input, `width` 0, has any).
fn find_column(header: Option<&[String]>, width: usize, wanted: &str) -> Option<usize> {
    if let Some(h) = header {
        if let Some(i) = h.iter().position(|f| f.eq_ignore_ascii_case(wanted)) {
            return Some(i);
        }
    }
    match wanted.parse::<usize>() {
        Ok(n) if n >= 1 && (width == 0 || n <= width) => Some(n - 1),
        _ => None,
    }
}

fn find_named(header: &[String], names: &[&str]) -> Option<usize> {
    header
        .iter()
        .position(|f| names.iter().any(|n| f.eq_ignore_ascii_case(n)))
}

/// `fields` for an error message, bounded whatever the input: at most 8 fields of at most
/// 40 characters each, so a 100 MB first line does not become a 100 MB message (issue 5).
fn brief(fields: &[String]) -> String {
    const FIELDS: usize = 8;
    const CHARS: usize = 40;
    let mut shown: Vec<String> = fields
        .iter()
        .take(FIELDS)
        .map(|f| match f.char_indices().nth(CHARS) {
            Some((cut, _)) => format!("{:?}... ({} characters)", &f[..cut], f.chars().count()),
            None => format!("{f:?}"),
        })
        .collect();
    if fields.len() > FIELDS {
        shown.push(format!("... ({} fields)", fields.len()));
    }
    format!("[{}]", shown.join(", "))
}

/// Works out the layout of `bytes` (the whole input) from its first data lines.
///
/// # Errors
/// A reason naming the option to use, when the options point at a column that is not there.
pub fn detect(bytes: &[u8], opts: &LayoutOptions) -> Result<Layout, String> {
    let first = data_lines(bytes).next().map(|(_, l)| l).unwrap_or(b"");
    let fields = csv_fields(first);
    let named = |names: &[&str]| find_named(&fields, names);
    let looks_like_header = !opts.no_header
        && (named(&PUZZLE_NAMES).is_some()
            || opts
                .puzzle_column
                .as_deref()
                .is_some_and(|w| fields.iter().any(|f| f.eq_ignore_ascii_case(w))));
    let csv = match opts.format {
        Format::Csv => true,
        Format::Lines => false,
        Format::Auto => looks_like_header || (opts.no_header && opts.puzzle_column.is_some()),
    };
    if !csv {
        return Ok(Layout::Lines {
            field: detect_line_field(bytes),
        });
    }
    if first.is_empty() && data_lines(bytes).next().is_none() {
        // Nothing but blank and comment lines: no records, so no column to find (an empty
        // input is a clean run with a note, whatever the options).
        return Ok(Layout::Csv {
            header: None,
            puzzle: 0,
            solution: None,
        });
    }
    let has_header = !opts.no_header
        && (looks_like_header || !fields.iter().any(|f| parse_cells(f.as_bytes()).is_ok()));
    let header = has_header.then(|| fields.clone());
    let puzzle = match &opts.puzzle_column {
        Some(w) => find_column(header.as_deref(), fields.len(), w).ok_or_else(|| {
            format!(
                "--puzzle-column {w:?}: no such column in {}",
                brief(&fields)
            )
        })?,
        None => match &header {
            Some(h) => find_named(h, &PUZZLE_NAMES).ok_or_else(|| {
                format!(
                    "no puzzle column in header {}: expected one of {PUZZLE_NAMES:?}; \
                     choose one with --puzzle-column NAME",
                    brief(h)
                )
            })?,
            None => fields
                .iter()
                .position(|f| parse_cells(f.as_bytes()).is_ok())
                .ok_or("no column holds an 81-cell puzzle; choose one with --puzzle-column N")?,
        },
    };
    let solution = match &opts.solution_column {
        Some(w) => Some(
            find_column(header.as_deref(), fields.len(), w).ok_or_else(|| {
                format!(
                    "--solution-column {w:?}: no such column in {}",
                    brief(&fields)
                )
            })?,
        ),
        None => match &header {
            Some(h) => find_named(h, &SOLUTION_NAMES),
            None => fields
                .iter()
                .enumerate()
                .position(|(i, f)| i != puzzle && parse_solution(f.as_bytes()).is_ok()),
        },
    };
    Ok(Layout::Csv {
        header,
        puzzle,
        solution,
    })
}

/// The whitespace-separated field that holds the puzzle, judged on the first 100 data lines:
/// 0 when a line starts with a puzzle, else the first field of 81 cells.
fn detect_line_field(bytes: &[u8]) -> usize {
    let lines: Vec<&[u8]> = data_lines(bytes).take(100).map(|(_, l)| l).collect();
    if lines.iter().any(|l| starts_with_puzzle(l)) {
        return 0;
    }
    lines
        .iter()
        .find_map(|l| {
            l.split(|b| b.is_ascii_whitespace())
                .filter(|f| !f.is_empty())
                .position(|f| f.len() == 81 && f.iter().all(|&b| is_cell_byte(b)))
        })
        .unwrap_or(0)
}

/// Splits the text after a line's puzzle into a known solution field, if it holds one: the
/// last field (separated by `,` `;` `:` tab or space) of 10 or more characters. Shorter
/// fields (a solution count, a rating) and `#` comments are not solutions.
fn trailing_solution(rest: &[u8]) -> Option<&[u8]> {
    let rest = rest.trim_ascii();
    if rest.first() == Some(&b'#') {
        return None;
    }
    rest.split(|&b| matches!(b, b',' | b';' | b':' | b' ' | b'\t'))
        .rfind(|f| !f.is_empty())
        .filter(|f| f.len() >= 10)
}

/// The puzzle field and the known-solution field of one data line of a lines input, as
/// they stand in the line (`line` without its terminator; `field` as in [`Layout::Lines`]).
/// The puzzle is `None` when the line has no field `field`; the solution is `None` when the
/// line carries none. [`RecordReader`] parses exactly these fields, so `verify` can quote
/// them as found.
pub fn line_fields(line: &[u8], field: usize) -> (Option<&[u8]>, Option<&[u8]>) {
    if field == 0 {
        if starts_with_puzzle(line) {
            return (Some(&line[..81]), trailing_solution(&line[81..]));
        }
        let end = line
            .iter()
            .position(|&b| is_separator(b) && b != b'#')
            .unwrap_or(line.len());
        return (Some(&line[..end]), trailing_solution(&line[end..]));
    }
    let mut fields = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty());
    (fields.nth(field), None)
}

/// `e`, or `e` wrapped in [`ParseError::SpansLines`] when the record holds newlines: a bad
/// record over several lines is most likely an unclosed quote that ate the lines after it.
fn spanning_lines(e: ParseError, rec: &csv::ByteRecord) -> ParseError {
    let newlines: u64 = rec.iter().map(count_newlines).sum();
    if newlines == 0 {
        return e;
    }
    ParseError::SpansLines {
        line_breaks: newlines,
        cause: Box::new(e),
    }
}

fn count_newlines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Reads records of one input in batches.
pub enum RecordReader<'a> {
    /// A lines input.
    Lines(LineReader<'a>),
    /// A CSV input.
    Csv(CsvReader<'a>),
}

impl<'a> RecordReader<'a> {
    /// A reader over `bytes` with `layout`; record numbers start at `first_record`.
    pub fn new(bytes: &'a [u8], layout: &Layout, first_record: u64) -> RecordReader<'a> {
        match layout {
            Layout::Lines { field } => RecordReader::Lines(LineReader {
                bytes: strip_bom(bytes),
                offset: bytes.len() - strip_bom(bytes).len(),
                pos: 0,
                line: 0,
                record: first_record,
                field: *field,
            }),
            Layout::Csv {
                header,
                puzzle,
                solution,
            } => {
                let body = strip_bom(bytes);
                let mut rdr = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .comment(Some(b'#'))
                    .from_reader(body);
                let mut skip_header = csv::ByteRecord::new();
                if header.is_some() {
                    // The header was already parsed by `detect`; a read error resurfaces below.
                    let _ = rdr.read_byte_record(&mut skip_header);
                }
                RecordReader::Csv(CsvReader {
                    line_at: (0, 1),
                    body,
                    rdr,
                    offset: bytes.len() - body.len(),
                    record: first_record,
                    puzzle: *puzzle,
                    solution: *solution,
                    expected_fields: header.as_ref().map(Vec::len),
                })
            }
        }
    }

    /// A reader over the part of `bytes` in `range` (a `--shard`, see [`crate::shard`]):
    /// records are numbered from `record_base + range.first_record` and lines from
    /// `range.first_line`, so they are those of the whole input. `range.start` is past any
    /// BOM and CSV header.
    pub fn new_range(
        bytes: &'a [u8],
        layout: &Layout,
        range: &crate::shard::ShardRange,
        record_base: u64,
    ) -> RecordReader<'a> {
        let record = record_base + range.first_record;
        let body = &bytes[range.start..range.end];
        match layout {
            Layout::Lines { field } => RecordReader::Lines(LineReader {
                bytes: &bytes[..range.end],
                offset: 0,
                pos: range.start,
                line: range.first_line.saturating_sub(1),
                record,
                field: *field,
            }),
            Layout::Csv {
                header,
                puzzle,
                solution,
            } => RecordReader::Csv(CsvReader {
                body,
                line_at: (0, range.first_line),
                rdr: csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .comment(Some(b'#'))
                    .from_reader(body),
                offset: range.start,
                record,
                puzzle: *puzzle,
                solution: *solution,
                expected_fields: header.as_ref().map(Vec::len),
            }),
        }
    }

    /// Clears `out` and fills it with up to `max` records. An empty `out` means the end.
    ///
    /// # Errors
    /// Only an I/O failure of the CSV reader; bad records are records with an error.
    pub fn fill(&mut self, out: &mut Vec<RawRecord>, max: usize) -> Result<(), csv::Error> {
        out.clear();
        match self {
            RecordReader::Lines(r) => {
                r.fill(out, max);
                Ok(())
            }
            RecordReader::Csv(r) => r.fill(out, max),
        }
    }

    /// Bytes of the input consumed so far.
    pub fn consumed(&self) -> u64 {
        match self {
            RecordReader::Lines(r) => (r.offset + r.pos) as u64,
            RecordReader::Csv(r) => r.offset as u64 + r.rdr.position().byte(),
        }
    }

    /// The number the next record will get.
    pub fn next_record(&self) -> u64 {
        match self {
            RecordReader::Lines(r) => r.record,
            RecordReader::Csv(r) => r.record,
        }
    }
}

/// Reads a lines input.
pub struct LineReader<'a> {
    bytes: &'a [u8],
    offset: usize,
    pos: usize,
    line: u64,
    record: u64,
    field: usize,
}

impl LineReader<'_> {
    fn fill(&mut self, out: &mut Vec<RawRecord>, max: usize) {
        while out.len() < max && self.pos < self.bytes.len() {
            let rest = &self.bytes[self.pos..];
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            self.pos += (end + 1).min(rest.len());
            self.line += 1;
            let Some(line) = data_line(&rest[..end]) else {
                continue;
            };
            let (puzzle, solution) = self.parse(line);
            out.push(RawRecord {
                record: self.record,
                line: self.line,
                puzzle,
                solution,
                fields: None,
            });
            self.record += 1;
        }
    }

    fn parse(&self, line: &[u8]) -> (Result<Grid, ParseError>, Option<Result<Grid, ParseError>>) {
        // The common case, a line of exactly one puzzle: one pass over its bytes.
        if self.field == 0 && line.len() == 81 {
            if let Ok(g) = parse_cells(line) {
                return (Ok(g), None);
            }
        }
        let (puzzle, solution) = line_fields(line, self.field);
        let missing = ParseError::MissingField {
            column: self.field + 1,
        };
        (
            puzzle.ok_or(missing).and_then(parse_cells),
            solution.map(parse_solution),
        )
    }
}

/// Reads a CSV input with the `csv` crate.
pub struct CsvReader<'a> {
    body: &'a [u8],
    /// A byte offset in `body` and the 1-based line that starts there: line numbers are
    /// counted here from newline bytes, since the csv crate's own count does not fit CRLF.
    line_at: (u64, u64),
    rdr: csv::Reader<&'a [u8]>,
    offset: usize,
    record: u64,
    puzzle: usize,
    solution: Option<usize>,
    expected_fields: Option<usize>,
}

impl CsvReader<'_> {
    fn fill(&mut self, out: &mut Vec<RawRecord>, max: usize) -> Result<(), csv::Error> {
        let mut rec = csv::ByteRecord::new();
        while out.len() < max && self.rdr.read_byte_record(&mut rec)? {
            // The csv crate may place a record's start on the `\n` of the previous CRLF, or
            // before blank lines and `#` comment lines that it skipped.
            let mut at = rec.position().map_or(self.line_at.0, csv::Position::byte);
            loop {
                match self.body.get(at as usize) {
                    Some(b'\r' | b'\n') => at += 1,
                    Some(b'#') => {
                        let rest = &self.body[at as usize..];
                        at += memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n + 1) as u64;
                    }
                    _ => break,
                }
            }
            let skipped = self
                .body
                .get(self.line_at.0 as usize..at as usize)
                .unwrap_or(&[]);
            self.line_at = (at, self.line_at.1 + count_newlines(skipped));
            let line = self.line_at.1;
            let expected = *self.expected_fields.get_or_insert(rec.len());
            let field = |i: usize| {
                rec.get(i)
                    .map(<[u8]>::trim_ascii)
                    .ok_or(ParseError::MissingField { column: i + 1 })
            };
            let (puzzle, solution) = if rec.len() != expected {
                let e = ParseError::FieldCount {
                    found: rec.len(),
                    expected,
                };
                (Err(e), None)
            } else {
                (
                    field(self.puzzle).and_then(parse_cells),
                    self.solution.map(|i| field(i).and_then(parse_solution)),
                )
            };
            let puzzle = puzzle.map_err(|e| spanning_lines(e, &rec));
            out.push(RawRecord {
                record: self.record,
                line,
                puzzle,
                solution,
                fields: Some(rec.clone()),
            });
            self.record += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};

    fn read_all(bytes: &[u8], opts: &LayoutOptions) -> (Layout, Vec<RawRecord>) {
        let layout = detect(bytes, opts).unwrap();
        let mut r = RecordReader::new(bytes, &layout, 0);
        let mut all = Vec::new();
        let mut batch = Vec::new();
        loop {
            r.fill(&mut batch, 2).unwrap();
            if batch.is_empty() {
                break;
            }
            all.append(&mut batch);
        }
        assert_eq!(r.consumed(), bytes.len() as u64);
        (layout, all)
    }

    fn lines(text: &str) -> Vec<RawRecord> {
        let (layout, recs) = read_all(text.as_bytes(), &LayoutOptions::default());
        assert_eq!(layout.name(), "lines");
        recs
    }

    #[test]
    fn comments_blanks_crlf_bom_and_no_final_newline() {
        let text = format!("\u{feff}# c\r\n\r\n{P}\r\n   \n{P}\t# rated\n{P}   \n{P}");
        let recs = lines(&text);
        let got: Vec<(u64, u64)> = recs.iter().map(|r| (r.record, r.line)).collect();
        assert_eq!(got, [(0, 3), (1, 5), (2, 6), (3, 7)]);
        for r in &recs {
            assert_eq!(r.puzzle.as_ref().unwrap().to_string(), P);
            assert!(r.solution.is_none());
        }
    }

    #[test]
    fn tdoku_count_and_solution_after_the_puzzle() {
        for sep in [":1:", ",", ";", "\t", " "] {
            let recs = lines(&format!("{P}{sep}{S}\n"));
            let sol = recs[0].solution.clone().unwrap().unwrap();
            assert_eq!(sol.to_string(), S, "separator {sep:?}");
        }
    }

    #[test]
    fn malformed_lines_are_records_with_reasons() {
        let text = format!("{}\n{P}5\n{}\n", &P[..80], P.replacen('.', "x", 1));
        let recs = lines(&text);
        let errs: Vec<String> = recs
            .iter()
            .map(|r| r.puzzle.clone().unwrap_err().to_string())
            .collect();
        assert_eq!(errs[0], "80 characters, expected 81");
        assert_eq!(errs[1], "82 characters, expected 81");
        assert_eq!(errs[2], "column 1: invalid character 'x'");
    }

    #[test]
    fn hash_prefixed_bank_lines_find_the_puzzle_field() {
        let p0 = P.replace('.', "0");
        let text = format!("00015097c6c3 {p0}  7.2\n0001d2888928 {p0}  7.1\n");
        let recs = lines(&text);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].puzzle.as_ref().unwrap().to_string(), P);
    }

    #[test]
    fn csv_header_picks_columns_and_keeps_fields() {
        let p0 = P.replace('.', "0");
        let text =
            format!("\u{feff}id,Puzzle,solution\r\n1,{p0},{S}\r\n2,\"{p0}\",{S}\r\n3,{p0}\r\n");
        let (layout, recs) = read_all(text.as_bytes(), &LayoutOptions::default());
        assert_eq!(
            layout,
            Layout::Csv {
                header: Some(vec!["id".into(), "Puzzle".into(), "solution".into()]),
                puzzle: 1,
                solution: Some(2)
            }
        );
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[1].line, 3);
        assert_eq!(recs[1].puzzle.as_ref().unwrap().to_string(), P);
        assert_eq!(recs[1].solution.clone().unwrap().unwrap().to_string(), S);
        assert_eq!(
            recs[2].puzzle.clone().unwrap_err(),
            ParseError::FieldCount {
                found: 2,
                expected: 3
            }
        );
        assert_eq!(recs[0].fields.as_ref().unwrap().len(), 3);
    }

    #[test]
    fn csv_lines_skip_crlf_blank_and_comment_lines() {
        let p0 = P.replace('.', "0");
        for eol in ["\n", "\r\n"] {
            let text = [
                "puzzle,solution",
                "",
                &format!("{p0},{S}"),
                "# a comment",
                &format!("{p0},{S}"),
                &format!("\"{p0}\",\"{S}"),
                "\"",
                &format!("{p0},{S}"),
            ]
            .join(eol);
            let (_, recs) = read_all(text.as_bytes(), &LayoutOptions::default());
            let lines: Vec<u64> = recs.iter().map(|r| r.line).collect();
            assert_eq!(lines, [3, 5, 6, 8], "line ends {eol:?}");
        }
    }

    #[test]
    fn headerless_csv_by_index_and_by_content() {
        let p0 = P.replace('.', "0");
        let text = format!("x,{p0},{S}\n");
        let opts = LayoutOptions {
            format: Format::Csv,
            no_header: true,
            ..LayoutOptions::default()
        };
        let (layout, _) = read_all(text.as_bytes(), &opts);
        assert_eq!(
            layout,
            Layout::Csv {
                header: None,
                puzzle: 1,
                solution: Some(2)
            }
        );
        let opts = LayoutOptions {
            puzzle_column: Some("2".into()),
            ..opts
        };
        let (_, recs) = read_all(text.as_bytes(), &opts);
        assert_eq!(recs[0].puzzle.as_ref().unwrap().to_string(), P);
    }

    #[test]
    fn unknown_puzzle_column_is_a_layout_error() {
        let opts = LayoutOptions {
            format: Format::Csv,
            puzzle_column: Some("grid".into()),
            ..LayoutOptions::default()
        };
        let e = detect(b"a,b\n1,2\n", &opts).unwrap_err();
        assert!(e.contains("--puzzle-column"), "{e}");
        // A column number past the first row is no column either, with or without a
        // header; an empty input still has no records rather than an error.
        for (text, no_header) in [("a,b\n1,2\n", false), ("1,2\n3,4\n", true)] {
            for column in ["puzzle", "solution"] {
                let opts = LayoutOptions {
                    format: Format::Csv,
                    no_header,
                    puzzle_column: Some(if column == "puzzle" { "3" } else { "1" }.into()),
                    solution_column: (column == "solution").then(|| "3".into()),
                };
                let e = detect(text.as_bytes(), &opts).unwrap_err();
                assert!(
                    e.contains(&format!("--{column}-column \"3\": no such column")),
                    "{e}"
                );
            }
        }
        let opts = LayoutOptions {
            format: Format::Csv,
            puzzle_column: Some("3".into()),
            ..LayoutOptions::default()
        };
        assert!(detect(b"", &opts).is_ok());
        // Nor does an empty input need a puzzle column to be named.
        let opts = LayoutOptions {
            format: Format::Csv,
            ..LayoutOptions::default()
        };
        assert_eq!(detect(b"", &opts).map(|l| l.name()), Ok("csv"));
        assert_eq!(
            detect(b"# only a comment\n\n", &opts).map(|l| l.name()),
            Ok("csv")
        );
    }

    #[test]
    fn layout_errors_stay_short_on_a_huge_first_line() {
        let huge = "1".repeat(1_000_000);
        let opts = LayoutOptions {
            format: Format::Csv,
            ..LayoutOptions::default()
        };
        let e = detect(huge.as_bytes(), &opts).unwrap_err();
        assert!(e.len() < 400, "{} bytes: {}", e.len(), &e[..400]);
        assert!(e.contains("(1000000 characters)"), "{e}");
        let many = vec!["x"; 1000].join(",");
        let e = detect(many.as_bytes(), &opts).unwrap_err();
        assert!(e.contains("(1000 fields)") && e.len() < 400, "{e}");
    }

    #[test]
    fn empty_and_header_only_inputs_have_no_records() {
        assert!(lines("").is_empty());
        assert!(lines("# only a comment\n\n").is_empty());
        let (layout, recs) = read_all(b"quizzes,solutions\n", &LayoutOptions::default());
        assert_eq!(layout.name(), "csv");
        assert!(recs.is_empty());
    }
}
