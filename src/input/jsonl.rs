//! JSON Lines input (issue 13): one JSON object per line, such as `solve`, `augment` and
//! `rate` write, or a Hugging Face export.
//!
//! A JSON Lines input is read as a lines input is (memory map or bounded blocks, shards,
//! compression, `#` comment and blank lines skipped, `line` the 1-based physical line); only
//! the parsing of a line differs ([`JsonColumns::parse`]). The columns are the keys of the
//! first object, in the order they stand in it; the puzzle and solution columns are chosen
//! as a CSV header's ([`super::sniff::named_columns`]: `--puzzle-column`,
//! `--solution-column`, or the usual names).
//!
//! A value becomes a field as text: a string as it is, a number or `true`/`false` as written
//! in the line (every digit of `12345678901234567890123`, `1.50` not `1.5`), an array of
//! whole numbers 0-9 as their digits (so `[0,0,3,...]` is a grid), a grid written as 81
//! values or as 9 rows of 9 (`[[5,3,null,...],...]`: whole numbers 0-9, `null` or `0` for
//! an empty cell) as its 81 cells, a missing key or `null` as an empty field, anything else
//! as its JSON text in the line. As puzzle or solution, an array of another shape is a
//! malformed grid whose reason names the shape. A line that is
//! not a JSON object, or whose puzzle is missing or `null`, is one invalid record; a missing
//! or `null` solution means the record carries none.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::layout::{ColumnFormat, Layout, LayoutOptions};
use super::sniff::{data_lines, named_columns};
use crate::grid::{parse_cells, parse_solution, Grid, ParseError};

/// Data lines looked at to settle a column by content.
const SAMPLE_LINES: usize = 20;

/// The members of one JSON object, in the order they stand in the text, each value as its
/// JSON text in the line.
///
/// Values are kept as written ([`RawValue`]) rather than parsed into `serde_json::Value`,
/// whose numbers are `u64`, `i64` or `f64`: an 81-digit solution stored as a JSON number
/// would lose its digits (`6.795182435437297e+80`), and `1.50` would come out as `1.5`.
/// serde_json's `arbitrary_precision` feature also keeps a number's
/// text, but it changes numbers for every serde_json user in the build, and breaks reading
/// numbers inside `#[serde(flatten)]` structs, which our reports are.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Members<'de>, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// Where each key's value goes among the columns, looked up once per member of an object
/// (a hash lookup), not by a walk over the members for each column: an object of `K` keys
/// cost `K²` key comparisons, seconds for a few lines of a wide object.
#[derive(Debug)]
struct ColumnIndex {
    /// The columns each key names (two when the header repeats a key), in header order.
    columns: HashMap<String, Vec<usize>>,
    width: usize,
}

impl ColumnIndex {
    fn new(header: &[String]) -> ColumnIndex {
        let mut columns: HashMap<String, Vec<usize>> = HashMap::with_capacity(header.len());
        for (i, name) in header.iter().enumerate() {
            columns.entry(name.clone()).or_default().push(i);
        }
        ColumnIndex {
            columns,
            width: header.len(),
        }
    }

    /// The JSON text of each column's value in `members`, in header order: the first
    /// member with the column's key (as `serde_json` reads a repeated key into a map, the
    /// first is not overwritten here), `None` when the object lacks it.
    fn values<'a>(&self, members: &Members<'a>) -> Vec<Option<&'a str>> {
        let mut values = vec![None; self.width];
        for (key, v) in &members.0 {
            for &i in self
                .columns
                .get(key.as_str())
                .map_or(&[][..], Vec::as_slice)
            {
                values[i].get_or_insert_with(|| v.get().trim_ascii());
            }
        }
        values
    }
}

/// Whether the JSON text `v` is `null`.
fn is_null(v: &str) -> bool {
    v == "null"
}

/// The elements of the JSON text `v`, as their texts, if `v` is an array.
fn array_elements(v: &str) -> Option<Vec<&str>> {
    if !v.starts_with('[') {
        return None;
    }
    let elements: Vec<&RawValue> = serde_json::from_str(v).ok()?;
    Some(elements.iter().map(|x| x.get().trim_ascii()).collect())
}

/// The cell a JSON array element stands for: a whole number 0-9 written as one digit.
fn digit_of(x: &str) -> Option<u8> {
    match x.as_bytes() {
        &[d @ b'0'..=b'9'] => Some(d),
        _ => None,
    }
}

/// The cell an element of a grid array stands for: a digit 0-9 as [`digit_of`], or `null`
/// for an empty cell (written `0`, as a `0` element is).
fn cell_of(x: &str) -> Option<u8> {
    if is_null(x) {
        return Some(b'0');
    }
    digit_of(x)
}

/// An element's JSON text as a message quotes it: whole when short, else its first
/// characters and `...` (a string element may be a whole line long).
fn quoted(x: &str) -> String {
    const SHOWN: usize = 24;
    match x.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &x[..cut]),
        None => x.to_string(),
    }
}

/// The 81 cells (`b'0'`-`b'9'`, `0` empty) of the JSON array whose elements are `a`, read
/// as a grid, or why it is none (a phrase that follows `"puzzle" is`). Two shapes are
/// grids:
/// - flat: 81 elements, each a whole number 0-9 or `null`;
/// - nested: 9 rows (an array is nested when any element is an array), each an array of 9
///   such elements, the rows top to bottom.
///
/// # Errors
/// The shape named with where it goes wrong: the first element that is no cell (0-based,
/// flat) or the row count, a row's length, or the first bad value (rows and columns
/// 1-based, nested); a flat array of cells but not 81 of them says how many.
fn grid_of(a: &[&str]) -> Result<Vec<u8>, String> {
    if !a.iter().any(|x| x.starts_with('[')) {
        return match a.iter().enumerate().find(|(_, x)| cell_of(x).is_none()) {
            Some((i, x)) => Err(format!(
                "an array of {} values whose element {i} is {}, not a digit 0-9 or null",
                a.len(),
                quoted(x)
            )),
            None if a.len() != 81 => Err(format!("an array of {} cells, expected 81", a.len())),
            None => Ok(a.iter().filter_map(|x| cell_of(x)).collect()),
        };
    }
    if a.len() != 9 {
        return Err(format!("a nested list of {} rows, expected 9", a.len()));
    }
    let mut cells = Vec::with_capacity(81);
    for (r, row) in a.iter().enumerate() {
        let r = r + 1;
        let Some(values) = array_elements(row) else {
            return Err(format!(
                "a nested list whose row {r} is {}, not a list of 9 values",
                quoted(row)
            ));
        };
        if values.len() != 9 {
            return Err(format!(
                "a nested list whose row {r} has {} values, expected 9",
                values.len()
            ));
        }
        for (c, x) in values.iter().enumerate() {
            let Some(cell) = cell_of(x) else {
                return Err(format!(
                    "a nested list whose row {r} holds {} in column {}, not a digit 0-9 or null",
                    quoted(x),
                    c + 1
                ));
            };
            cells.push(cell);
        }
    }
    Ok(cells)
}

/// Appends the text of the JSON text `v` (see the module documentation) to `out`: a
/// string unescaped; an array that is a grid ([`grid_of`]) as its 81 cells, and any other
/// array of whole numbers 0-9 as its digits; a number, `true`, `false`, an object or any
/// other array as written.
fn push_text(v: &str, out: &mut Vec<u8>) {
    if is_null(v) {
        return;
    }
    if v.starts_with('"') {
        // A JSON string's text is valid JSON, so this only fails on a bug in serde_json.
        if let Ok(s) = serde_json::from_str::<Cow<'_, str>>(v) {
            out.extend_from_slice(s.as_bytes());
            return;
        }
    }
    if let Some(a) = array_elements(v) {
        // `null` stands for a cell only in an array of a grid's shape: `[1,null]` in another
        // column is kept as written, not read as `10`.
        if let Ok(cells) = grid_of(&a) {
            out.extend_from_slice(&cells);
            return;
        }
        if let Some(digits) = a.iter().map(|x| digit_of(x)).collect::<Option<Vec<u8>>>() {
            out.extend_from_slice(&digits);
            return;
        }
    }
    out.extend_from_slice(v.as_bytes());
}

/// Why `v` is not a grid array, when it is an array ([`grid_of`]): its text would only make
/// the grid parser stop at the `[`, and an array of digits of the wrong length would read
/// as a string of that length, with a hint about spreadsheets that does not fit an array.
fn not_a_grid_array(v: &str) -> Option<String> {
    grid_of(&array_elements(v)?).err()
}

/// The fields of an object whose values are `values` (in header order, see
/// `ColumnIndex::values`), as text.
fn fields_of(values: &[Option<&str>]) -> csv::ByteRecord {
    let mut rec = csv::ByteRecord::new();
    let mut text = Vec::with_capacity(96);
    for v in values {
        text.clear();
        if let Some(v) = v {
            push_text(v, &mut text);
        }
        rec.push_field(&text);
    }
    rec
}

/// Parses one data line as an object.
///
/// # Errors
/// `not a JSON object: REASON (column N)`: serde_json's reason, and the 1-based column in
/// the line where it stopped. Its own `at line 1 column N` is dropped: a record is one line,
/// so serde's line is always 1, while messages name the file's line.
fn members(line: &[u8]) -> Result<Members<'_>, ParseError> {
    serde_json::from_slice(line).map_err(|e| {
        let text = e.to_string();
        let at = format!(" at line {} column {}", e.line(), e.column());
        let reason = match text.strip_suffix(&at) {
            Some(reason) => format!("{reason} (column {})", e.column()),
            None => text,
        };
        ParseError::Record(format!("not a JSON object: {reason}"))
    })
}

/// The layout of a JSON Lines input: its columns from the first object's keys, the puzzle
/// and solution columns from the options or the first objects.
///
/// # Errors
/// A reason naming the option to use: a first data line that is not a JSON object, a CSV
/// option that means nothing here (`--no-header`, `--delimiter`), or a column that cannot
/// be found (see [`named_columns`]).
pub(crate) fn layout(bytes: &[u8], opts: &LayoutOptions) -> Result<Layout, String> {
    for (given, flag) in [
        (opts.no_header, "--no-header"),
        (opts.delimiter.is_some(), "--delimiter"),
    ] {
        if given {
            return Err(format!("{flag} is for CSV, but the input is JSON Lines"));
        }
    }
    let sample: Vec<(u64, &[u8])> = data_lines(bytes).take(SAMPLE_LINES).collect();
    let header: Vec<String> = match sample.first() {
        None => Vec::new(),
        Some(&(line, first)) => members(first)
            .map_err(|e| {
                format!(
                    "line {line}: {e}; the first data line of a JSON Lines input must be one \
                     (its keys name the columns)"
                )
            })?
            .0
            .into_iter()
            .map(|(k, _)| k)
            .collect(),
    };
    let index = ColumnIndex::new(&header);
    let rows: Vec<Vec<Vec<u8>>> = sample
        .iter()
        .filter_map(|(_, l)| members(l).ok())
        .map(|m| {
            fields_of(&index.values(&m))
                .iter()
                .map(<[u8]>::to_vec)
                .collect()
        })
        .collect();
    let (puzzle, solution) = if header.is_empty() {
        (0, None)
    } else {
        named_columns(&header, &rows, opts)?
    };
    Ok(Layout::Columns {
        format: ColumnFormat::Jsonl,
        header,
        puzzle,
        solution,
    })
}

/// What a record yields: the puzzle, the stored solution (if any) and the fields.
pub(crate) type Parsed = (
    Result<Grid, ParseError>,
    Option<Result<Grid, ParseError>>,
    Option<csv::ByteRecord>,
);

/// The columns of a JSON Lines or Parquet input, to turn one record into a puzzle.
#[derive(Debug)]
pub(crate) struct JsonColumns {
    header: Vec<String>,
    index: ColumnIndex,
    puzzle: usize,
    solution: Option<usize>,
}

impl JsonColumns {
    /// The columns of `layout` (`None` unless it is [`Layout::Columns`]).
    pub(crate) fn of(layout: &Layout) -> Option<JsonColumns> {
        match layout {
            Layout::Columns {
                header,
                puzzle,
                solution,
                ..
            } => Some(JsonColumns {
                header: header.clone(),
                index: ColumnIndex::new(header),
                puzzle: *puzzle,
                solution: *solution,
            }),
            _ => None,
        }
    }

    /// Parses one data line of a JSON Lines input.
    pub(crate) fn parse(&self, line: &[u8]) -> Parsed {
        match members(line) {
            Ok(m) => {
                let values = self.index.values(&m);
                let present = |i: usize| values[i].is_some_and(|v| !is_null(v));
                let (mut puzzle, mut solution, fields) = self.record(fields_of(&values), present);
                let bad_array = |i: usize| {
                    let name = &self.header[i];
                    let reason = values[i].and_then(not_a_grid_array)?;
                    Some(ParseError::Record(format!("{name:?} is {reason}")))
                };
                if let Some(e) = bad_array(self.puzzle) {
                    puzzle = Err(e);
                }
                if let Some(e) = self.solution.and_then(bad_array) {
                    solution = Some(Err(e));
                }
                (puzzle, solution, fields)
            }
            Err(e) => (Err(e), None, Some(csv::ByteRecord::new())),
        }
    }

    /// The puzzle and stored solution of a record whose fields are `fields` (in header
    /// order); `present(i)`: whether column `i` has a value (not missing, not null).
    pub(crate) fn record(
        &self,
        fields: csv::ByteRecord,
        present: impl Fn(usize) -> bool,
    ) -> Parsed {
        let puzzle = if present(self.puzzle) {
            parse_cells(fields.get(self.puzzle).unwrap_or(b"").trim_ascii())
        } else {
            Err(ParseError::Record(format!(
                "no puzzle: {:?} is missing or null",
                self.header[self.puzzle]
            )))
        };
        let solution = self
            .solution
            .filter(|&i| present(i))
            .map(|i| parse_solution(fields.get(i).unwrap_or(b"").trim_ascii()));
        (puzzle, solution, Some(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};

    fn columns(text: &str) -> (Layout, JsonColumns) {
        let layout = layout(text.as_bytes(), &LayoutOptions::default()).unwrap();
        let cols = JsonColumns::of(&layout).unwrap();
        (layout, cols)
    }

    #[test]
    fn keys_in_order_name_the_columns_and_values_become_text() {
        let digits: Vec<String> = P
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' }.to_string())
            .collect();
        let text = format!(
            "{{\"id\":7,\"question\":[{}],\"answer\":\"{S}\",\"ok\":true}}\n",
            digits.join(",")
        );
        let (layout, cols) = columns(&text);
        assert_eq!(layout.header().unwrap(), ["id", "question", "answer", "ok"]);
        assert_eq!(layout.columns(), Some((1, Some(2))));
        let (puzzle, solution, fields) = cols.parse(text.trim_end().as_bytes());
        assert_eq!(puzzle.unwrap().to_string(), P);
        assert_eq!(solution.unwrap().unwrap().to_string(), S);
        let fields = fields.unwrap();
        assert_eq!(&fields[0], b"7");
        assert_eq!(&fields[3], b"true");
    }

    #[test]
    fn bad_lines_and_null_puzzles_are_invalid_records_and_null_solutions_none() {
        let first = format!("{{\"puzzle\":\"{P}\",\"solution\":\"{S}\"}}");
        let (_, cols) = columns(&first);
        for (line, want) in [
            (
                "{\"puzzle\":null}",
                "no puzzle: \"puzzle\" is missing or null",
            ),
            (
                "{\"solution\":null}",
                "no puzzle: \"puzzle\" is missing or null",
            ),
            ("[1,2]", "not a JSON object"),
            ("{\"puzzle\":", "not a JSON object"),
            ("{\"puzzle\":\"12\"}", "2 characters, expected 81"),
        ] {
            let (puzzle, solution, _) = cols.parse(line.as_bytes());
            let e = puzzle.unwrap_err().to_string();
            assert!(e.starts_with(want), "{line}: {e}");
            assert!(solution.is_none(), "{line}");
        }
        let (p, s, _) = cols.parse(format!("{{\"solution\":null,\"puzzle\":\"{P}\"}}").as_bytes());
        assert_eq!(p.unwrap().to_string(), P);
        assert!(s.is_none());
    }

    /// A grid array with an element that is no digit is named as such, not as the `[` its
    /// JSON text starts with; a bad solution array leaves the puzzle alone.
    #[test]
    fn arrays_with_a_non_digit_name_the_element() {
        let first = format!("{{\"puzzle\":\"{P}\",\"solution\":\"{S}\"}}");
        let (_, cols) = columns(&first);
        let mut cells = vec!["0"; 81];
        cells[5] = "10";
        let line = format!("{{\"puzzle\":[{}]}}", cells.join(","));
        let (puzzle, _, _) = cols.parse(line.as_bytes());
        assert_eq!(
            puzzle.unwrap_err().to_string(),
            "\"puzzle\" is an array of 81 values whose element 5 is 10, not a digit 0-9 or null"
        );
        let line = format!("{{\"puzzle\":\"{P}\",\"solution\":[1,-2]}}");
        let (puzzle, solution, _) = cols.parse(line.as_bytes());
        assert_eq!(puzzle.unwrap().to_string(), P);
        let e = solution.unwrap().unwrap_err().to_string();
        assert!(e.contains("element 1 is -2, not a digit 0-9"), "{e}");
    }

    /// Numbers keep their text (no `f64` on the way), strings are
    /// unescaped, other values keep their JSON text as written.
    #[test]
    fn values_keep_the_text_they_are_written_with() {
        let line = format!(
            "{{\"puzzle\": \"{P}\", \"solution\": {S}, \"big\": 12345678901234567890123, \
             \"f\": 1.50, \"e\": 1e3, \"z\": -0, \"s\": \"a\\\"b\", \"o\": {{\"k\": [1, 2]}}, \
             \"ten\": [1, 10]}}"
        );
        let (layout, cols) = columns(&line);
        assert_eq!(layout.columns(), Some((0, Some(1))));
        let (puzzle, solution, fields) = cols.parse(line.as_bytes());
        assert_eq!(puzzle.unwrap().to_string(), P);
        assert_eq!(solution.unwrap().unwrap().to_string(), S);
        let fields: Vec<&[u8]> = fields.as_ref().unwrap().iter().collect();
        let want: [&[u8]; 9] = [
            P.as_bytes(),
            S.as_bytes(),
            b"12345678901234567890123",
            b"1.50",
            b"1e3",
            b"-0",
            b"a\"b",
            b"{\"k\": [1, 2]}",
            b"[1, 10]",
        ];
        assert_eq!(fields, want);
    }

    /// An array of digits of the wrong length is named as an array of
    /// cells, not as a string of that many characters with a spreadsheet hint.
    #[test]
    fn digit_arrays_of_the_wrong_length_count_their_cells() {
        let first = format!("{{\"puzzle\":\"{P}\",\"solution\":\"{S}\"}}");
        let (_, cols) = columns(&first);
        let cells = |n: usize| vec!["3"; n].join(",");
        let line = format!(
            "{{\"puzzle\":[{}],\"solution\":[{}]}}",
            cells(80),
            cells(82)
        );
        let (puzzle, solution, _) = cols.parse(line.as_bytes());
        assert_eq!(
            puzzle.unwrap_err().to_string(),
            "\"puzzle\" is an array of 80 cells, expected 81"
        );
        assert_eq!(
            solution.unwrap().unwrap_err().to_string(),
            "\"solution\" is an array of 82 cells, expected 81"
        );
    }

    /// The givens of `P` as JSON cells, `0` written as `blank` (`0` or `null`).
    fn cells_of(grid: &str, blank: &str) -> Vec<String> {
        grid.bytes()
            .map(|b| match b {
                b'1'..=b'9' => char::from(b).to_string(),
                _ => blank.to_string(),
            })
            .collect()
    }

    /// `rows` as a nested list of JSON rows.
    fn nested(rows: &[Vec<String>]) -> String {
        let rows: Vec<String> = rows.iter().map(|r| format!("[{}]", r.join(","))).collect();
        format!("[{}]", rows.join(","))
    }

    /// A 9x9 nested list and a flat list of 81, with `null` or `0` blanks, are grids, the
    /// solution too; as a field their text is the 81 cells.
    #[test]
    fn nested_lists_and_null_blanks_are_grids() {
        let first = format!("{{\"puzzle\":\"{P}\",\"solution\":\"{S}\"}}");
        let (_, cols) = columns(&first);
        let rows = |grid: &str, blank: &str| -> Vec<Vec<String>> {
            cells_of(grid, blank)
                .chunks(9)
                .map(<[String]>::to_vec)
                .collect()
        };
        for blank in ["null", "0", " null "] {
            let solution = nested(&rows(S, "0"));
            for puzzle in [
                nested(&rows(P, blank)),
                format!("[{}]", cells_of(P, blank).join(",")),
            ] {
                let line = format!("{{\"puzzle\": {puzzle}, \"solution\": {solution}}}");
                let (p, s, fields) = cols.parse(line.as_bytes());
                assert_eq!(p.unwrap().to_string(), P, "{line}");
                assert_eq!(s.unwrap().unwrap().to_string(), S, "{line}");
                let f = fields.unwrap();
                assert_eq!(&f[0], P.replace('.', "0").as_bytes());
            }
        }
        // `null` in an array of another shape, in another column, is kept as written.
        let line = format!("{{\"puzzle\":\"{P}\",\"tags\":[1,null]}}");
        let (_, cols) = columns(&line);
        let (_, _, fields) = cols.parse(line.as_bytes());
        assert_eq!(&fields.unwrap()[1], b"[1,null]");
    }

    /// A nested list of the wrong shape names the shape and where it is wrong; the solution
    /// of such a record is still read.
    #[test]
    fn nested_lists_of_the_wrong_shape_name_it() {
        let first = format!("{{\"puzzle\":\"{P}\",\"solution\":\"{S}\"}}");
        let (_, cols) = columns(&first);
        let good: Vec<Vec<String>> = cells_of(P, "null")
            .chunks(9)
            .map(<[String]>::to_vec)
            .collect();
        let mut eight = good.clone();
        eight.pop();
        let mut ten = good.clone();
        ten[2].push("1".into());
        let mut big = good.clone();
        big[4][3] = "10".into();
        let mut text = good.clone();
        text[1][0] = "\"5\"".into();
        let flat_row = {
            let mut rows: Vec<String> = good.iter().map(|r| format!("[{}]", r.join(","))).collect();
            rows[6] = "7".into();
            format!("[{}]", rows.join(","))
        };
        for (puzzle, want) in [
            (nested(&eight), "a nested list of 8 rows, expected 9"),
            (
                nested(&ten),
                "a nested list whose row 3 has 10 values, expected 9",
            ),
            (
                nested(&big),
                "a nested list whose row 5 holds 10 in column 4, not a digit 0-9 or null",
            ),
            (
                nested(&text),
                "a nested list whose row 2 holds \"5\" in column 1, not a digit 0-9 or null",
            ),
            (
                flat_row,
                "a nested list whose row 7 is 7, not a list of 9 values",
            ),
        ] {
            let line = format!("{{\"puzzle\":{puzzle},\"solution\":\"{S}\"}}");
            let (p, s, _) = cols.parse(line.as_bytes());
            assert_eq!(p.unwrap_err().to_string(), format!("\"puzzle\" is {want}"));
            assert_eq!(s.unwrap().unwrap().to_string(), S);
        }
        let long = format!("\"{}\"", "x".repeat(1000));
        let line = format!("{{\"puzzle\":[{long}]}}");
        let e = cols.parse(line.as_bytes()).0.unwrap_err().to_string();
        assert!(
            e.ends_with("xxx..., not a digit 0-9 or null") && e.len() < 120,
            "{e}"
        );
    }

    #[test]
    fn column_options_and_csv_only_options() {
        let text = format!("{{\"a\":\"{P}\",\"b\":\"{P}\"}}\n");
        let opts = LayoutOptions {
            puzzle_column: Some("2".into()),
            ..LayoutOptions::default()
        };
        assert_eq!(
            layout(text.as_bytes(), &opts).unwrap().columns(),
            Some((1, None))
        );
        let e = layout(text.as_bytes(), &LayoutOptions::default()).unwrap_err();
        assert!(e.contains("--puzzle-column"), "{e}");
        let opts = LayoutOptions {
            delimiter: Some(b';'),
            ..LayoutOptions::default()
        };
        let e = layout(text.as_bytes(), &opts).unwrap_err();
        assert!(e.contains("--delimiter"), "{e}");
    }

    /// Each member of an object is placed in its column by one lookup
    /// (the walk over every member for each column cost `K²` for `K` keys). Members in any
    /// order land in the first object's column order, a missing key is an empty field, a
    /// repeated key keeps its first value (as before), an unknown key is dropped.
    #[test]
    fn many_keys_in_any_order_land_in_their_columns() {
        let keys: Vec<String> = (0..3000).map(|i| format!("k{i}")).collect();
        let object = |order: &mut dyn Iterator<Item = usize>, extra: &str| {
            let members: Vec<String> = order.map(|i| format!("\"{}\":{i}", keys[i])).collect();
            format!("{{\"puzzle\":\"{P}\",{}{extra}}}", members.join(","))
        };
        let first = object(&mut (0..keys.len()), "");
        let (layout, cols) = columns(&first);
        assert_eq!(layout.header().unwrap().len(), keys.len() + 1);
        let fields = |line: &str| -> Vec<String> {
            let (puzzle, _, fields) = cols.parse(line.as_bytes());
            assert_eq!(puzzle.unwrap().to_string(), P);
            let f = fields.unwrap();
            f.iter()
                .map(|x| String::from_utf8_lossy(x).into())
                .collect()
        };
        let want: Vec<String> = [P.to_string()]
            .into_iter()
            .chain((0..keys.len()).map(|i| i.to_string()))
            .collect();
        assert_eq!(fields(&first), want);
        let reversed = object(&mut (0..keys.len()).rev(), ",\"other\":1");
        assert_eq!(fields(&reversed), want);
        let gap = object(&mut (0..keys.len()).filter(|&i| i != 1234), "");
        let mut want_gap = want.clone();
        want_gap[1235].clear();
        assert_eq!(fields(&gap), want_gap);
        let repeated = object(&mut (0..keys.len()), ",\"k7\":99");
        assert_eq!(fields(&repeated), want);
    }
}
