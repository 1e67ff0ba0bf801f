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
//!   only (spaces, tabs), which the crate would read as a row of one empty field (trial 9:
//!   `row: 1 field, expected 2` for a line of three spaces). A row with a quote its
//!   line does not close, followed by a line that reads as a row, is a record of that one
//!   line, invalid ([`crate::grid::ParseError::UnclosedQuote`]): the next line starts the
//!   next record, so an unclosed quote swallows no rows.
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

/// The record on one physical line of a lines input (`line` without its `\n`), or `None`
/// for a blank line or a `#` comment. Blanks at either end are not part of the record, so
/// an indented puzzle is read, not reported as an empty field.
pub fn data_line(line: &[u8]) -> Option<&[u8]> {
    let line = judged(line).trim_ascii();
    (!line.is_empty() && line[0] != b'#').then_some(line)
}

/// Whether one physical CSV line (without its `\n`) can start a record: not blank (empty,
/// or only spaces, tabs and a final `\r`) and not a `#` comment.
pub fn is_csv_data_line(line: &[u8]) -> bool {
    !line.trim_ascii().is_empty() && line[0] != b'#'
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
/// solution, to be reported as malformed rather than ignored (trial 5: an 80-digit solution
/// on a line passed as `ok`, as if the line had none):
/// - `paired` (the file's first data lines carry 81-cell solutions, [`lines_carry_solutions`]):
///   the longest field of cell characters (digits, `.`, `_`), whatever its length, so a
///   solution cut short, even by a truncated last line, is caught (trial 9: a file of
///   `puzzle,solution` cut 60 bytes from its end passed `verify`), and the longest, so a
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

/// Whether a CSV row whose first physical line `first` (without its `\n`) leaves a quote
/// open is read as an **unclosed quote** (a one-line invalid record, the next line starting
/// the next record) rather than a quoted field over several lines: true when the next data
/// line in `after` (the bytes after `first`'s `\n`) reads as a row of this file, with as
/// many delimiters as a row of `fields` fields has (as `first` has when the width is not
/// known yet); in a one-column file any data line does. False when no data line follows.
/// The one rule of the CSV reader and the shard cuts ([`super::range`]).
pub(crate) fn quote_left_open(
    first: &[u8],
    after: &[u8],
    delimiter: u8,
    fields: Option<usize>,
) -> bool {
    let delimiters = |line: &[u8]| memchr::memchr_iter(delimiter, line).count();
    let needed = fields.map_or_else(|| delimiters(first), |n| n.saturating_sub(1));
    after
        .split(|&b| b == b'\n')
        .find(|l| is_csv_data_line(l))
        .is_some_and(|next_row| delimiters(next_row) >= needed)
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
/// -n` and editors number it (trial 11, finding 4: the crate's two line ends there put every
/// later row's line one further off). Looking past `range` counts a CRLF once when `range`
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

    /// Trial 11, finding 4: CRs that run up to a `\n` are that line end, however many;
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
