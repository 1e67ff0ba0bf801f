//! What a data record is: the one definition used by the line and CSV readers, the
//! layout sniffer ([`super::layout`]), the shard ranges ([`super::range`]) and `verify`.
//!
//! - A **lines** input has one record per physical line that is not blank and does not start
//!   with `#` (blanks at either end are not part of the record). Its puzzle is the first 81
//!   characters when they are cells followed by the end or a separator, else the
//!   whitespace-separated field the layout names; its stored solution is the first field of
//!   81 characters after the puzzle, else a damaged one, reported as malformed (see
//!   [`line_fields`]): in a file whose first data lines carry 81-cell solutions, the longest
//!   field of cell characters of any other length; else the first of 75 to 90. Ratings,
//!   labels and counts are not solutions.
//! - A **CSV** input has one record per row the `csv` crate reads; physical lines that are
//!   empty or start with `#` are skipped, as the crate skips them, and so are lines of blanks
//!   only (spaces, tabs), which the crate would read as a row of one empty field
//!   (`row: 1 field, expected 2` for a line of three spaces). Quoted fields are read as RFC
//!   4180 says: one may hold delimiters and line breaks, and a quote closed on a later line
//!   closes it (`csv_row`). A row whose first line leaves a quote open that is never
//!   closed (within [`QUOTE_WINDOW`] bytes), or closed only by a quote with text after it,
//!   or closed into a row of the wrong width, is an **unclosed quote**: a record of that one
//!   line, invalid ([`crate::grid::ParseError::UnclosedQuote`], saying which of these), and
//!   the next line starts the next record, so an unclosed quote swallows no rows.
//! - A UTF-8 byte-order mark at the very start is not part of any record ([`strip_bom`]).
//! - A physical line longer than [`MAX_LINE`] bytes is judged by its first `MAX_LINE + 1`
//!   bytes ([`judged`]): blank or a comment there, it is skipped; else it is one record,
//!   `invalid` with [`ParseError::LineTooLong`]. A stream keeps only those bytes of it, so one
//!   huge line cannot grow a block without limit, and a map reads it the same way.

use std::ops::Range;

use crate::grid::{is_cell_byte, ParseError};

/// Bytes of a physical line (without its `\n`) beyond which the line is not read: 4 MiB,
/// far more than any record of a real dataset (a pencil-mark grid is 729 bytes).
pub const MAX_LINE: usize = 4 << 20;

/// The bytes of a physical line that decide what it is: all of it, or for a line longer
/// than [`MAX_LINE`], its first `MAX_LINE + 1` bytes (all that a stream keeps of it).
pub fn judged(line: &[u8]) -> &[u8] {
    &line[..line.len().min(MAX_LINE + 1)]
}

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading UTF-8 byte-order mark.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// Characters that tools leave at the end of a line and that are never data: the DOS
/// end-of-file mark (Ctrl-Z, `0x1A`), a no-break space (U+00A0), a zero-width space
/// (U+200B) and a byte-order mark (U+FEFF).
const TRAILING_ARTEFACTS: [&[u8]; 4] = [b"\x1A", b"\xC2\xA0", b"\xE2\x80\x8B", BOM];

/// `text` without blanks at either end, byte-order marks at its start (lists joined with
/// `cat`, each with its BOM), and [`TRAILING_ARTEFACTS`] at its end.
pub(crate) fn trim_artefacts(text: &[u8]) -> &[u8] {
    let mut t = text.trim_ascii();
    while let Some(rest) = t.strip_prefix(BOM) {
        t = rest.trim_ascii_start();
    }
    while let Some(rest) = TRAILING_ARTEFACTS.iter().find_map(|a| t.strip_suffix(*a)) {
        t = rest.trim_ascii_end();
    }
    t
}

/// The record on one physical line of a lines input (`line` without its `\n`), or `None`
/// for a blank line or a `#` comment. Blanks at either end are not part of the record, so
/// an indented puzzle is read, not reported as an empty field; nor are a BOM at its start
/// (lists joined with `cat`) or a Ctrl-Z, no-break or zero-width space at its end
/// (`trim_artefacts`).
pub fn data_line(line: &[u8]) -> Option<&[u8]> {
    let line = trim_artefacts(judged(line));
    (!line.is_empty() && line[0] != b'#').then_some(line)
}

/// Whether one physical CSV line (without its `\n`) can start a record: not blank (empty,
/// or only spaces, tabs and a final `\r`; a lone Ctrl-Z after the last line too), not a `#`
/// comment (after a BOM too), and not Excel's `sep=X` line ([`excel_sep`]). A line longer
/// than [`MAX_LINE`] is judged by its first bytes ([`judged`]), as a stream keeps it.
pub fn is_csv_data_line(line: &[u8]) -> bool {
    let line = judged(line);
    !trim_artefacts(line).is_empty()
        && strip_bom(line).first() != Some(&b'#')
        && excel_sep(line).is_none()
}

/// The delimiter X of Excel's `sep=X` line (the first line of a CSV Excel is told to read
/// with X), `None` for any other line (`line` without its `\n`; a BOM before it allowed).
pub fn excel_sep(line: &[u8]) -> Option<u8> {
    let line = strip_bom(line);
    match line.strip_suffix(b"\r").unwrap_or(line) {
        [b's' | b'S', b'e' | b'E', b'p' | b'P', b'=', d] if *d != b'"' => Some(*d),
        _ => None,
    }
}

/// The row the `csv` crate read as `body[start..end]` (`start`: its record's position,
/// `end`: the reader's position after it), as the readers judge it: where the row really
/// starts, and its bytes without the final `\n`, `None` when it is no record (a line of
/// blanks, which the crate reads as a row of one empty field). The crate may place a row's
/// start on the `\n` of the CRLF before it, or before the blank lines and `#` comment lines
/// it skipped, so those are stepped over first. The one rule of the CSV reader and the
/// sniffer's sample of rows.
pub(crate) fn crate_row(body: &[u8], start: usize, end: usize) -> (usize, Option<&[u8]>) {
    let mut at = start;
    loop {
        match body.get(at) {
            Some(b'\r' | b'\n') => at += 1,
            Some(b'#') => {
                let rest = &body[at..];
                at += memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n + 1);
            }
            _ => break,
        }
    }
    let row = body.get(at..end.min(body.len())).unwrap_or(&[]);
    let row = row.strip_suffix(b"\n").unwrap_or(row);
    (at, is_csv_data_line(row).then_some(row))
}

/// Whether `line` starts with 81 cells followed by the end or a separator.
pub(crate) fn starts_with_puzzle(line: &[u8]) -> bool {
    line.len() >= 81
        && line[..81].iter().all(|&b| is_cell_byte(b))
        && line.get(81).is_none_or(|&b| is_separator(b))
}

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b':' | b',' | b';' | b'#')
}

/// The stored solution in the text after a line's puzzle, if it holds one: the first field
/// (separated by `,` `;` `:` tab or space) of exactly 81 characters, before any `#` comment.
/// So a solution followed by more fields is read, tdoku's `puzzle:count:solution` too, while
/// a rating (`ED=10.3/10.3/9.8`), a label or a count is never taken for a solution; an
/// 81-character field with a bad cell is a solution, reported as malformed. Failing that, a
/// damaged solution ([`pick_solution`]; `paired` as there).
fn stored_solution(rest: &[u8], paired: bool) -> Option<&[u8]> {
    let fields = rest
        .split(|&b| matches!(b, b',' | b';' | b':' | b' ' | b'\t' | b'\r'))
        .take_while(|f| f.first() != Some(&b'#'));
    pick_solution(fields, paired)
}

/// The first of `fields` of exactly 81 characters, else one that looks like a damaged
/// solution, to be reported as malformed rather than ignored (an 80-digit solution
/// on a line must not pass as `ok`, as if the line had none):
/// - `paired` (the file's first data lines carry 81-cell solutions, [`lines_carry_solutions`]):
///   the longest field of cell characters (digits, `.`, `_`), whatever its length, so a
///   solution cut short, even by a truncated last line, is caught (a file of
///   `puzzle,solution` cut 60 bytes from its end must not pass `verify`), and the longest, so a
///   count before a cut solution (`puzzle:1:4835`) is not taken for it;
/// - else the first of 75 to 90 cell characters, a solution a character or a few too short or
///   too long: a short field of digits there is a count or a rating (`9.8`), not a solution.
fn pick_solution<'a>(fields: impl Iterator<Item = &'a [u8]>, paired: bool) -> Option<&'a [u8]> {
    let mut damaged: Option<&[u8]> = None;
    for f in fields {
        if f.len() == 81 {
            return Some(f);
        }
        let candidate = if paired {
            !f.is_empty() && damaged.is_none_or(|d| f.len() > d.len())
        } else {
            damaged.is_none() && DAMAGED_SOLUTION.contains(&f.len())
        };
        if candidate && f.iter().all(|&b| is_cell_byte(b)) {
            damaged = Some(f);
        }
    }
    damaged
}

/// Lengths of a field after the puzzle taken for a damaged solution in a file whose first
/// lines carry none ([`pick_solution`]).
const DAMAGED_SOLUTION: std::ops::RangeInclusive<usize> = 75..=90;

/// Whether the data lines of a lines input (`lines`, each as [`data_line`] returns it; the
/// puzzle in field `field` as in [`super::Layout::Lines`]) carry stored solutions: whether
/// any of them has an 81-character field after its puzzle. The sniffer asks it of a file's
/// first data lines, and the answer holds for the whole file ([`line_fields`]' `paired`).
pub fn lines_carry_solutions<'a>(lines: impl IntoIterator<Item = &'a [u8]>, field: usize) -> bool {
    lines.into_iter().any(|l| {
        line_fields(l, field, false)
            .1
            .is_some_and(|s| s.len() == 81)
    })
}

/// The puzzle field and the known-solution field of one data line of a lines input, as
/// they stand in the line (`line` as returned by [`data_line`]; `field` as in
/// [`super::Layout::Lines`]). The puzzle is `None` when the line has no field `field`; the
/// solution is `None` when the line carries none. `paired`: the file's lines carry 81-cell
/// solutions ([`lines_carry_solutions`]), so any field of cells after the puzzle is one,
/// damaged when not 81 long (see the module documentation). The readers parse exactly these
/// fields, so `verify` can quote them as found.
pub fn line_fields(line: &[u8], field: usize, paired: bool) -> (Option<&[u8]>, Option<&[u8]>) {
    if let Some(puzzle) = hodoku_puzzle(line) {
        return (Some(puzzle), None);
    }
    if field == 0 {
        if starts_with_puzzle(line) {
            return (Some(&line[..81]), stored_solution(&line[81..], paired));
        }
        let end = line
            .iter()
            .position(|&b| is_separator(b) && b != b'#')
            .unwrap_or(line.len());
        return (Some(&line[..end]), stored_solution(&line[end..], paired));
    }
    let mut fields = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty());
    let puzzle = fields.nth(field);
    (puzzle, pick_solution(fields, paired))
}

/// The puzzle field of a HoDoKu library line, `:type:technique:puzzle:deleted:eliminations:
/// ...` (`:0000:x:4.....8.5.3...:::`): the third field after the leading `:`, which holds 81
/// cells, a digit placed in the saved state written `+d`. The fields after it are
/// candidates and eliminations, never a solution. `None` for any other line.
pub fn hodoku_puzzle(line: &[u8]) -> Option<&[u8]> {
    let mut fields = line.strip_prefix(b":")?.split(|&b| b == b':');
    let (kind, _technique, puzzle) = (fields.next()?, fields.next()?, fields.next()?);
    let cells = puzzle.iter().filter(|&&b| b != b'+').count();
    let ok = !kind.is_empty()
        && kind.iter().all(u8::is_ascii_hexdigit)
        && cells == 81
        && puzzle.iter().all(|&b| b == b'+' || is_cell_byte(b));
    ok.then_some(puzzle)
}

/// Replaces the fields of `rec` with those of `line`, one physical CSV line without its line
/// end, split at `delimiter` as written (what the `csv` crate reads from a line with no
/// quote and no `\r`).
pub(crate) fn split_fields(line: &[u8], delimiter: u8, rec: &mut csv::ByteRecord) {
    rec.clear();
    let mut start = 0;
    for end in memchr::memchr_iter(delimiter, line) {
        rec.push_field(&line[start..end]);
        start = end + 1;
    }
    rec.push_field(&line[start..]);
}

/// Bytes from a CSV row's start within which a quote it opens must be closed (with the row
/// ended) for the row to be read over several lines: [`MAX_LINE`], the longest record read.
/// A quote not closed within them is taken as unclosed (`csv_row`), so a stream needs to
/// hold at most this many bytes past a row's start to judge it.
pub const QUOTE_WINDOW: usize = MAX_LINE;

/// Why a CSV row whose first line leaves a quote open is read as an **unclosed quote** (a
/// one-line invalid record, the next line starting the next record) rather than as a row
/// over several lines (`csv_row`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unclosed {
    /// The quote is never closed: the input ends inside it.
    Never,
    /// The quote is not closed (and the row ended) within [`QUOTE_WINDOW`] bytes.
    TooFar,
    /// The quote closing it, `lines` line ends after the row's first line starts, is followed
    /// by text: the quote that "closes" it opens a field of a later row.
    TextAfter {
        /// Line ends between the row's start and the closing quote.
        lines: u64,
    },
    /// Closing it makes a row of `found` fields, not the file's `expected`; the row ends
    /// `lines` line ends after its start.
    Width {
        /// Fields of the row read over several lines.
        found: usize,
        /// Fields of the file's rows.
        expected: usize,
        /// Line ends between the row's start and its end.
        lines: u64,
    },
}

impl Unclosed {
    /// The reason in words, for a row that starts on 1-based line `line`.
    pub(crate) fn describe(&self, line: u64) -> String {
        match self {
            Unclosed::Never => "that is never closed (the input ends inside it)".into(),
            Unclosed::TooFar => {
                format!("not closed within {QUOTE_WINDOW} bytes (the longest record read)")
            }
            Unclosed::TextAfter { lines } => format!(
                "that only a quote on line {} closes, with text right after it (that quote \
                 opens a later field)",
                line + lines
            ),
            Unclosed::Width {
                found,
                expected,
                lines,
            } => format!(
                "closed on line {}, which makes a row of {found} fields, expected {expected}",
                line + lines
            ),
        }
    }
}

/// Where a CSV row that starts at `bytes[start]` ends, as the readers, the stream's block
/// cuts and the shard cuts all read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RowEnd {
    /// The row ends where the next line can start (a plain row: its line; a row with quoted
    /// line breaks: after the line that closes its last quote).
    Row(usize),
    /// The row's first line leaves a quote open that is not read as closed (see
    /// [`csv_row`]): the row is that one line, invalid, and the next row can start at
    /// `next`.
    Unclosed {
        /// Where the line after the row's first starts.
        next: usize,
        /// 0-based field of the row whose quote is left open.
        column: usize,
        /// Why the quote is taken as unclosed.
        why: Unclosed,
    },
}

impl RowEnd {
    /// Where the next row can start.
    pub(crate) fn next(&self) -> usize {
        match self {
            RowEnd::Row(n) | RowEnd::Unclosed { next: n, .. } => *n,
        }
    }
}

/// How the CSV row that starts at `bytes[start]` (a line start outside quotes) ends, read as
/// RFC 4180 and the `csv` crate read it: a `"` at the start of a field opens a quoted field,
/// `""` inside it is a quote, and the quoted field may hold delimiters and line breaks. A
/// row whose first line leaves a quote open is read over several lines when, within
/// [`QUOTE_WINDOW`] bytes of its start, every quote it opens is closed by a quote followed by
/// a delimiter or a line end, and the row has `width` fields (when known: the header's or the
/// layout's). Otherwise the quote is an **unclosed quote** ([`RowEnd::Unclosed`] says why):
/// the row is its first line, invalid, so an unclosed quote swallows no rows. A first line
/// longer than [`MAX_LINE`] is the row whatever its quotes (it is too long to read).
///
/// `eof`: `bytes` ends where the input does; when it does not, `None` means more bytes
/// are needed to judge (never once `bytes` holds [`QUOTE_WINDOW`] bytes past `start` and the
/// first line's end). The one rule of the CSV reader, the stream's blocks and the shard
/// cuts, so a row is read the same mapped, streamed, compressed and sharded.
pub(crate) fn csv_row(
    bytes: &[u8],
    start: usize,
    delimiter: u8,
    width: Option<usize>,
    eof: bool,
) -> Option<RowEnd> {
    let (line, next) = csv_line(bytes, start);
    let line_ended = next < bytes.len() || bytes[..next].ends_with(b"\n");
    if !eof && !line_ended {
        return None;
    }
    if line.len() > MAX_LINE || !is_csv_data_line(line) || !quoted_after(line, delimiter, false) {
        return Some(RowEnd::Row(next));
    }
    let w = &bytes[start..bytes.len().min(start + QUOTE_WINDOW)];
    let whole = eof && start + QUOTE_WINDOW >= bytes.len();
    let unclosed = |why, column| RowEnd::Unclosed { next, column, why };
    // Running off the window: the quote is never closed when the input ends there, too far
    // when the window is full, and unknown yet otherwise.
    let off = |column| {
        if whole {
            Some(unclosed(Unclosed::Never, column))
        } else if w.len() == QUOTE_WINDOW {
            Some(unclosed(Unclosed::TooFar, column))
        } else {
            None
        }
    };
    // The field whose quote is open now, and the first whose quoted text holds a line break.
    let (mut i, mut fields, mut open_column, mut span_column) = (0, 1, None, None);
    let mut text_after = None;
    let end = loop {
        if w.get(i) == Some(&b'"') {
            open_column = Some(fields - 1);
            let opened = i;
            i += 1;
            loop {
                let Some(q) = memchr::memchr(b'"', &w[i..]) else {
                    return off(open_column.unwrap_or(0));
                };
                let q = i + q;
                match w.get(q + 1) {
                    Some(b'"') => i = q + 2,
                    None if !whole => return off(open_column.unwrap_or(0)),
                    _ => {
                        i = q + 1;
                        if span_column.is_none()
                            && memchr::memchr2(b'\n', b'\r', &w[opened..q]).is_some()
                        {
                            span_column = open_column;
                        }
                        break;
                    }
                }
            }
            match w.get(i) {
                Some(&b) if b == delimiter => {
                    fields += 1;
                    i += 1;
                    continue;
                }
                Some(b'\r' | b'\n') | None => break i,
                Some(_) => {
                    text_after.get_or_insert(i);
                }
            }
        }
        match memchr::memchr3(delimiter, b'\r', b'\n', &w[i..]) {
            Some(k) if w[i + k] == delimiter => {
                fields += 1;
                i += k + 1;
            }
            Some(k) => break i + k,
            None if whole => break w.len(),
            None => return off(open_column.unwrap_or(0)),
        }
    };
    let column = span_column.or(open_column).unwrap_or(0);
    // Where the next line starts after the row's line end.
    let row_end = match w.get(end) {
        Some(b'\n') => end + 1,
        Some(_) => {
            let run = cr_run_end(w, end);
            match w.get(run) {
                Some(b'\n') => run + 1,
                Some(_) => run,
                None if whole => run,
                None => return off(column),
            }
        }
        None => end,
    };
    let lines = |at: usize| count_csv_line_ends(w, 0..at);
    if let Some(at) = text_after {
        let lines = lines(at);
        return Some(unclosed(Unclosed::TextAfter { lines }, column));
    }
    match width {
        Some(expected) if expected != fields => Some(unclosed(
            Unclosed::Width {
                found: fields,
                expected,
                lines: lines(end),
            },
            column,
        )),
        _ => Some(RowEnd::Row(start + row_end)),
    }
}

/// The physical CSV line that starts at `pos` in `bytes`, without its line end (a CRLF's
/// `\r`s are kept, as the readers see them), and where the next line with text can start.
/// A line ends at a `\n`, or at a lone `\r` (one not in a run of CRs up to a `\n`, as
/// classic Mac OS ends lines), as the `csv` crate ends rows and the CSV reader counts lines
/// ([`count_csv_line_ends`]); but a `#` comment line ends only at its `\n`, as the crate
/// reads comments.
pub(crate) fn csv_line(bytes: &[u8], pos: usize) -> (&[u8], usize) {
    let rest = &bytes[pos..];
    if rest.first() == Some(&b'#') {
        // The crate reads a `#` comment to its `\n`, over any lone CR.
        return memchr::memchr(b'\n', rest)
            .map_or((rest, bytes.len()), |i| (&rest[..i], pos + i + 1));
    }
    let mut at = 0;
    while let Some(i) = memchr::memchr2(b'\n', b'\r', &rest[at..]) {
        let i = at + i;
        if rest[i] == b'\n' {
            return (&rest[..i], pos + i + 1);
        }
        // CRs that run up to a `\n` are part of its line end (`\r\n`, `\r\r\n`); others
        // end a line each, and the empty lines between them hold no row, so the next line
        // starts after the run (one step over a run of any length).
        let run = cr_run_end(rest, i);
        if rest.get(run) != Some(&b'\n') {
            return (&rest[..i], pos + run);
        }
        at = run;
    }
    (rest, bytes.len())
}

/// Whether a CSV field is still inside quotes after the physical line `line` (without its
/// `\n`), read as the `csv` crate reads it with its default quoting: `quoted` tells whether
/// the line starts inside a quoted field. A `"` opens a quoted field only at the start of a
/// field (line start or after `delimiter`); inside one, `""` is a quote and a lone `"` closes
/// it; any other `"` is text.
pub(crate) fn quoted_after(line: &[u8], delimiter: u8, mut quoted: bool) -> bool {
    let mut closed_at = None;
    for i in memchr::memchr_iter(b'"', line) {
        if quoted {
            quoted = false;
            closed_at = Some(i);
        } else if i == 0 || line[i - 1] == delimiter || closed_at == Some(i - 1) {
            quoted = true;
        }
    }
    quoted
}

/// `e`, or `e` wrapped in [`ParseError::SpansLines`] when the record holds newlines: a bad
/// record over several lines is most likely an unclosed quote that ate the lines after it.
pub(crate) fn spanning_lines(e: ParseError, rec: &csv::ByteRecord) -> ParseError {
    let newlines: u64 = rec.iter().map(count_newlines).sum();
    if newlines == 0 {
        return e;
    }
    ParseError::SpansLines {
        line_breaks: newlines,
        cause: Box::new(e),
    }
}

/// `\n` bytes in `bytes`.
pub(crate) fn count_newlines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Where the run of `\r` bytes that starts at `text[i]` ends: the index of the first byte
/// after it (`text.len()` when the CRs run to the end).
pub(crate) fn cr_run_end(text: &[u8], i: usize) -> usize {
    i + text[i..].iter().take_while(|&&b| b == b'\r').count()
}

/// Line ends of a CSV in `text[range]`: each `\n`, and each lone `\r` (as classic Mac OS
/// ends lines), which the `csv` crate ends a row at too. A `\r` is lone unless it and the
/// `\r`s after it run up to a `\n`: then they belong to that line end, so a CRLF, or a
/// doubled CR before the LF (`\r\r\n`, a CRLF converted twice), ends one line, as `grep
/// -n` and editors number it (the crate's two line ends there would put every later
/// row's line one further off). Looking past `range` counts a CRLF once when `range`
/// ends inside it (the crate may end a record there). A lines input has no such rule:
/// there a lone CR is no line end (see `grid::BARE_CR_FIX`).
///
/// # Panics
/// When `range` is not within `text`.
pub(crate) fn count_csv_line_ends(text: &[u8], range: Range<usize>) -> u64 {
    let mut lone = 0;
    let mut at = range.start;
    while let Some(i) = memchr::memchr(b'\r', &text[at..range.end]) {
        let (cr, run) = (at + i, cr_run_end(text, at + i));
        if text.get(run) != Some(&b'\n') {
            lone += run.min(range.end) - cr;
        }
        at = run.min(range.end);
    }
    count_newlines(&text[range]) + lone as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lone CR ends a CSV line; a CRLF counts once, even when cut between its bytes.
    #[test]
    fn csv_line_ends_count_lone_crs_and_crlf_once() {
        let text = b"a\rb\r\nc\nd\r";
        assert_eq!(count_csv_line_ends(text, 0..text.len()), 4);
        assert_eq!(count_newlines(text), 2);
        // Cut after the CRLF's `\r`: the `\r` is not lone, the `\n` after the cut counts.
        assert_eq!(count_csv_line_ends(text, 0..4), 1);
        assert_eq!(count_csv_line_ends(text, 4..text.len()), 3);
        assert_eq!(count_csv_line_ends(text, 3..3), 0);
    }

    /// CRs that run up to a `\n` are that line end, however many;
    /// CRs that run up to other text are one line end each.
    #[test]
    fn crs_before_a_newline_end_one_csv_line() {
        let text = b"a\r\r\nb\r\r\r\nc\r\rd\n";
        assert_eq!(count_csv_line_ends(text, 0..text.len()), 5);
        // Cut inside a run: its CRs still belong to the `\n` after the cut.
        assert_eq!(count_csv_line_ends(text, 0..2), 0);
        assert_eq!(count_csv_line_ends(text, 2..text.len()), 5);
        assert_eq!(count_csv_line_ends(text, 0..text.len() - 3), 3);
        // CRs at the end of the text, no `\n` after them: lone.
        assert_eq!(count_csv_line_ends(b"a\r\r", 0..3), 2);
    }
}
