//! Sniffing: works out an input's [`Layout`] from its first data lines and what the user said.
//!
//! What the user says wins: `--format` (`--input-format`), and any CSV option (`--puzzle-column`,
//! `--solution-column`, `--no-header`, `--delimiter`) means CSV, unless the input is JSON
//! Lines (its first byte that is not blank is `{`: see `input/jsonl.rs`) or Parquet
//! (recognised by [`super::Dataset::open`] from its magic `PAR1`), whose columns are chosen
//! as a CSV header's are (`named_columns`). Without them:
//! 1. a first data line that splits (on `,`, tab, `;` or `|`) into a field naming a puzzle column
//!    ([`PUZZLE_NAMES`]) is a CSV header;
//! 2. else a file whose first data lines hold a puzzle (at the start of a line, or as a
//!    whitespace-separated field) is read as lines;
//! 3. else a first line holding a delimiter is a CSV header that names no puzzle column:
//!    an error (exit 2) showing the header and how to choose a column;
//! 4. else lines (each bad line then an `invalid` record).
//!
//! In a CSV with a header, the puzzle (and solution) column is the one whose name is known;
//! when several names could be it, the one whose first data rows hold 81-cell grids wins, and
//! if that does not settle it the input is refused naming the candidates. A command that
//! reads no stored solution ([`LayoutOptions::skip_solutions`]) looks for no solution column
//! unless the user names one, so several solution names never stop it. A header with no
//! known solution name still has a solution column when one column's first rows all hold
//! complete 81-digit grids (`answer_grid`, say): most of its first rows hold 81-cell grids,
//! one of them complete, so a damaged row among them is that row's `solution-malformed`, not
//! a reason to leave the column unread. Without a header, columns are found by content in
//! the first data rows, by majority, never from row 1 alone: the puzzle column is the one
//! where most rows hold a grid with blanks (a column of complete grids only when no column
//! has blanks), the solution column another where most rows hold a grid, and the row width
//! the most common one, so one short, long or junk row is that row's error.

use super::layout::{Format, Layout, LayoutOptions, PUZZLE_NAMES, SOLUTION_NAMES};
use super::record::{
    crate_row, data_line, excel_sep, is_csv_data_line, judged, lines_carry_solutions,
    starts_with_puzzle, strip_bom,
};
use crate::grid::{is_cell_byte, parse_cells, parse_solution, BARE_CR_FIX};

/// The delimiters tried when sniffing a CSV, in order of preference. `|` (without it an
/// `id|puzzle|solution` export would be read as lines, every row invalid) never splits a
/// puzzle, so a lines file whose first line holds one still reads as lines.
pub const DELIMITERS: [u8; 4] = [b',', b'\t', b';', b'|'];

/// Data rows looked at to settle a column by content.
pub(crate) const SAMPLE_ROWS: usize = 20;

/// Data lines of a lines input looked at to find its puzzle field and whether its lines
/// carry solutions.
const LINE_SAMPLE: usize = 100;

/// Lines of `bytes` that hold data ([`data_line`]). Yields `(1-based line number, record)`.
pub(crate) fn data_lines(bytes: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    strip_bom(bytes)
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(i, l)| Some((i as u64 + 1, data_line(l)?)))
}

/// Whether the first byte that is not blank (after a UTF-8 BOM) is `{`: JSON Lines.
fn starts_with_object(bytes: &[u8]) -> bool {
    strip_bom(bytes)
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{')
}

/// Why a JSON document (its first byte that is not blank is `[`: an array of records, or
/// of grids) is not read: one line naming it and the conversion to JSON Lines; `None` for
/// any other input.
fn json_document(bytes: &[u8]) -> Option<String> {
    let mut text = strip_bom(bytes)
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace());
    if text.next() != Some(b'[') {
        return None;
    }
    let what = match text.next() {
        Some(b'{') => "an array of records",
        Some(b'[') => "an array of arrays (grids as nested lists?)",
        _ => return None,
    };
    Some(format!(
        "a JSON document holding {what}, not JSON Lines (one object per line): convert it \
         with `jq -c '.[]' FILE > FILE.jsonl` and read that"
    ))
}

/// The first physical line that can start a CSV record, without its line end.
fn first_csv_line(bytes: &[u8]) -> &[u8] {
    strip_bom(bytes)
        .split(|&b| b == b'\n')
        .find(|l| is_csv_data_line(l))
        .map_or(b"", |l| judged(l.strip_suffix(b"\r").unwrap_or(l)))
}

fn csv_fields(line: &[u8], delimiter: u8) -> Vec<String> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
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

/// The first data rows of a CSV (after the header, when `header`), fields trimmed.
fn sample_rows(bytes: &[u8], delimiter: u8, header: bool) -> Vec<Vec<Vec<u8>>> {
    let bytes = strip_bom(bytes);
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(header)
        .flexible(true)
        .comment(Some(b'#'))
        .delimiter(delimiter)
        .from_reader(bytes);
    let mut rows = Vec::new();
    let mut rec = csv::ByteRecord::new();
    while rows.len() < SAMPLE_ROWS && rdr.read_byte_record(&mut rec).unwrap_or(false) {
        // What is no record to the readers is not in the sample either.
        let start = rec.position().map_or(0, csv::Position::byte) as usize;
        if crate_row(bytes, start, rdr.position().byte() as usize)
            .1
            .is_some()
        {
            rows.push(rec.iter().map(|f| f.trim_ascii().to_vec()).collect());
        }
    }
    rows
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

/// Indices of the header fields that are one of `names` (case-insensitive).
fn named(header: &[String], names: &[&str]) -> Vec<usize> {
    (0..header.len())
        .filter(|&i| names.iter().any(|n| header[i].eq_ignore_ascii_case(n)))
        .collect()
}

/// Whether `field` is 81 cells (digits, `.` or `0` blanks): a grid, solved or not.
fn is_grid(field: &[u8]) -> bool {
    field.len() == 81 && field.iter().all(|&b| is_cell_byte(b))
}

/// Whether column `i` holds a grid on every sampled row (and there is one).
fn holds_grids(rows: &[Vec<Vec<u8>>], i: usize) -> bool {
    !rows.is_empty() && rows.iter().all(|r| r.get(i).is_some_and(|f| is_grid(f)))
}

/// What the sampled rows hold in one column.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    /// Rows whose field is 81 cells (digits, `.` or `0` blanks).
    grids: usize,
    /// Of those, complete grids: 81 digits `1-9`.
    complete: usize,
}

/// What column `i` holds on the sampled `rows`.
fn held(rows: &[Vec<Vec<u8>>], i: usize) -> Held {
    let mut h = Held::default();
    for f in rows.iter().filter_map(|r| r.get(i)) {
        if is_grid(f) {
            h.grids += 1;
            h.complete += usize::from(parse_solution(f).is_ok());
        }
    }
    h
}

/// The column among the first `width` that holds the puzzles, judged on all the sampled
/// `rows` (so one damaged row does not move it): the one where the most rows hold a grid
/// with blanks; when no row has one, the one where the most rows hold a grid (a file of
/// complete grids); the first on ties. `None` when no sampled row holds a grid.
fn puzzle_by_content(rows: &[Vec<Vec<u8>>], width: usize) -> Option<usize> {
    (0..width)
        .map(|i| (i, held(rows, i)))
        .filter(|(_, h)| h.grids > 0)
        .max_by_key(|&(i, h)| (h.grids - h.complete, h.grids, std::cmp::Reverse(i)))
        .map(|(i, _)| i)
}

/// The most common number of fields among the sampled `rows` (the first on ties), so a
/// short or long first row is the odd one out; `None` for no rows.
fn usual_width(rows: &[Vec<Vec<u8>>]) -> Option<usize> {
    let count = |w: usize| rows.iter().filter(|r| r.len() == w).count();
    rows.iter()
        .enumerate()
        .max_by_key(|&(at, r)| (count(r.len()), std::cmp::Reverse(at)))
        .map(|(_, r)| r.len())
}

/// The column among those `header` names after `names` (`what`: `puzzle` or `solution`):
/// the only one, or the only one of several whose sampled rows hold grids.
///
/// # Errors
/// Several candidates that the data does not settle, named.
fn pick(
    header: &[String],
    names: &[&str],
    rows: &[Vec<Vec<u8>>],
    what: &str,
) -> Result<Option<usize>, String> {
    let candidates = named(header, names);
    if candidates.len() <= 1 {
        return Ok(candidates.first().copied());
    }
    let with_grids: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| holds_grids(rows, i))
        .collect();
    if let [one] = with_grids[..] {
        return Ok(Some(one));
    }
    let shown: Vec<&str> = candidates.iter().map(|&i| header[i].as_str()).collect();
    Err(format!(
        "several columns could hold the {what}: {shown:?}, and their first rows do not settle \
         it; choose one with --{what}-column NAME"
    ))
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

/// The delimiter that a header of one field holds, read with another delimiter: the one
/// under which it names a puzzle column, else the first of [`DELIMITERS`] in it.
fn other_delimiter(header: &[String]) -> Option<u8> {
    let [only] = header else {
        return None;
    };
    naming_delimiter(only.as_bytes()).or_else(|| {
        DELIMITERS
            .into_iter()
            .find(|&d| only.as_bytes().contains(&d))
    })
}

/// A delimiter as the value of `--delimiter`, quoted for a shell.
fn delimiter_flag(delimiter: u8) -> String {
    match delimiter {
        b'\t' => "tab".to_string(),
        d => format!("'{}'", char::from(d)),
    }
}

/// How a delimiter is shown in messages.
fn shown(delimiter: u8) -> String {
    match delimiter {
        b'\t' => "tab".to_string(),
        d => format!("{:?}", char::from(d)),
    }
}

/// How to choose the puzzle column of a CSV whose `header` names none: the column where most
/// of the first data rows hold puzzles, by name (by number when the name would need quoting
/// or is not unique), else any column by `--puzzle-column`.
fn puzzle_hint(bytes: &[u8], delimiter: u8, header: &[String]) -> String {
    if let [only] = header {
        // Each line quoted whole (`"quizzes,solutions"`), so one field a line; a
        // column choice would read `puzzle,solution` as the puzzle, so say what to fix.
        if let Some(inner) = naming_delimiter(only.as_bytes()) {
            return format!(
                "each line is one quoted field holding {} (\"{only}\"), so the file has one \
                 column: remove the quotes first, e.g. sed 's/\"//g' IN > OUT",
                shown(inner)
            );
        }
    }
    let rows = sample_rows(bytes, delimiter, true);
    let found =
        puzzle_by_content(&rows, header.len()).filter(|&i| 2 * held(&rows, i).grids > rows.len());
    let Some(i) = found else {
        return "choose one with --puzzle-column NAME or N".to_string();
    };
    let name = &header[i];
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
        && header
            .iter()
            .filter(|h| h.eq_ignore_ascii_case(name))
            .count()
            == 1;
    let flag = if plain {
        name.clone()
    } else {
        (i + 1).to_string()
    };
    format!(
        "column {} holds puzzles: choose it with --puzzle-column {flag}",
        column_name(Some(header), i)
    )
}

/// The delimiter under which `line` names a puzzle column, if any.
fn naming_delimiter(line: &[u8]) -> Option<u8> {
    DELIMITERS
        .into_iter()
        .find(|&d| !named(&csv_fields(line, d), &PUZZLE_NAMES).is_empty())
}

/// Works out the layout of an input from its first data lines (`bytes`: the input, or at
/// least its start) and the user's options (see the module documentation).
///
/// # Errors
/// A reason naming the option to use: CSV options with `--format lines`, a CSV-looking first
/// line that names no puzzle column, a column the options name that is not there, or
/// several candidate columns that the data does not settle.
pub fn detect(bytes: &[u8], opts: &LayoutOptions) -> Result<Layout, String> {
    if bytes.starts_with(b"PAR1") {
        return Err(
            "a Parquet file on standard input, in a pipe or compressed: Parquet keeps \
                    its index at the end of the file, so give the path of the uncompressed file"
                .to_string(),
        );
    }
    // Excel's `sep=X` first line: a CSV with delimiter X (unless --delimiter says another).
    let first = strip_bom(bytes)
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or_default();
    if let (Some(d), None, Format::Auto | Format::Csv) =
        (excel_sep(first), opts.delimiter, opts.format)
    {
        let opts = LayoutOptions {
            delimiter: Some(d),
            format: Format::Csv,
            ..opts.clone()
        };
        return detect(bytes, &opts);
    }
    if let Some(why) = json_document(bytes) {
        return Err(why);
    }
    let flags = opts.csv_flags();
    let line = first_csv_line(bytes);
    let csv = match opts.format {
        Format::Parquet => {
            return Err(
                "--format parquet, but the input is not a Parquet file (it does \
                        not start with PAR1): Parquet is read from a file, not from standard \
                        input, a pipe or a compressed file"
                    .to_string(),
            )
        }
        Format::Jsonl => return super::jsonl::layout(bytes, opts),
        Format::Csv => true,
        Format::Lines => match flags.first() {
            Some(flag) => {
                return Err(format!(
                    "{flag} means a CSV input, but --format lines was given; drop one of them"
                ))
            }
            None => false,
        },
        Format::Auto if starts_with_object(bytes) => return super::jsonl::layout(bytes, opts),
        Format::Auto if !flags.is_empty() => true,
        Format::Auto => {
            if let Some(d) = naming_delimiter(line) {
                return csv_layout(bytes, opts, d);
            }
            if let Some(field) = line_field(bytes) {
                return Ok(lines_layout(bytes, field));
            }
            if let Some(d) = DELIMITERS.into_iter().find(|d| line.contains(d)) {
                let fields = csv_fields(line, d);
                if !fields.iter().any(|f| is_grid(f.as_bytes())) {
                    refuse_bare_cr(line)?;
                    // No `--format lines` hint: `line_field` found no puzzle starting a
                    // line or standing as a field in the first data lines, so read as lines
                    // every row would be invalid (an id would be read as the puzzle).
                    return Err(format!(
                        "looks like CSV ({} delimiter), but its first line {} names no puzzle \
                         column (expected one of {PUZZLE_NAMES:?}); {}",
                        shown(d),
                        brief(&fields),
                        puzzle_hint(bytes, d, &fields)
                    ));
                }
            }
            false
        }
    };
    if !csv {
        return Ok(lines_layout(bytes, line_field(bytes).unwrap_or(0)));
    }
    let delimiter = opts
        .delimiter
        .or_else(|| naming_delimiter(line))
        .or_else(|| {
            DELIMITERS
                .into_iter()
                .max_by_key(|&d| (line.iter().filter(|&&b| b == d).count(), d == b','))
                .filter(|&d| line.contains(&d))
        })
        .unwrap_or(b',');
    csv_layout(bytes, opts, delimiter)
}

/// Refuses a CSV header `line` (its first physical line, without a final CR) that holds
/// bare CR characters. Lines ended by CR alone are no line breaks to the readers, so the
/// header line would run to the end of the file (or its first LF), and skipping it would
/// drop every row with exit 0: the header's fields themselves read right, since
/// the `csv` crate ends a row at a bare CR, so nothing else would tell.
///
/// # Errors
/// A reason naming the bare CRs and the `tr` command that converts them.
fn refuse_bare_cr(line: &[u8]) -> Result<(), String> {
    match memchr::memchr(b'\r', line) {
        Some(_) => Err(format!(
            "its header line holds bare CR characters, so it would swallow the rows after \
             it: {BARE_CR_FIX}"
        )),
        None => Ok(()),
    }
}

/// The CSV layout of `bytes` with `delimiter`: header, puzzle column, solution column.
fn csv_layout(bytes: &[u8], opts: &LayoutOptions, delimiter: u8) -> Result<Layout, String> {
    let line = first_csv_line(bytes);
    if line.is_empty() && data_lines(bytes).next().is_none() {
        // Nothing but blank and comment lines: no records, so no column to find (an empty
        // input is a clean run with a note, whatever the options).
        return Ok(Layout::Csv {
            header: None,
            puzzle: 0,
            solution: None,
            delimiter,
            width: None,
        });
    }
    let fields = csv_fields(line, delimiter);
    let names_puzzle = !named(&fields, &PUZZLE_NAMES).is_empty()
        || opts
            .puzzle_column
            .as_deref()
            .is_some_and(|w| fields.iter().any(|f| f.eq_ignore_ascii_case(w)));
    let has_header = !opts.no_header
        && (names_puzzle || !fields.iter().any(|f| parse_cells(f.as_bytes()).is_ok()));
    if has_header {
        refuse_bare_cr(line)?;
    }
    let header = has_header.then(|| fields.clone());
    let mut rows = sample_rows(bytes, delimiter, has_header);
    if rows.is_empty() && !has_header {
        rows.push(fields.iter().map(|f| f.as_bytes().to_vec()).collect());
    }
    let (puzzle, solution, width) = match &header {
        Some(h) => {
            let (p, s) = named_columns(h, &rows, opts)?;
            (p, s, h.len())
        }
        None => unnamed_columns(&rows, opts)?,
    };
    Ok(Layout::Csv {
        header,
        puzzle,
        solution,
        delimiter,
        width: Some(width),
    })
}

/// The column `wanted` (a `--puzzle-column` or `--solution-column` value, `what` naming
/// which) among `fields` (the header, or the first row).
fn chosen(
    header: Option<&[String]>,
    fields: &[String],
    wanted: &str,
    what: &str,
) -> Result<usize, String> {
    find_column(header, fields.len(), wanted).ok_or_else(|| {
        format!(
            "--{what}-column {wanted:?}: no such column in {}",
            brief(fields)
        )
    })
}

/// The puzzle and solution columns of a table whose columns have names (`header`: a CSV
/// header, the first JSON object's keys, a Parquet schema): the ones the options name, else
/// the known names ([`PUZZLE_NAMES`], [`SOLUTION_NAMES`]) settled by the first `rows` (their
/// fields in `header` order), else for the solution a column of complete grids.
///
/// # Errors
/// A reason naming the option to use: a named column that is not there, no puzzle column,
/// or several candidates that the data does not settle.
pub(crate) fn named_columns(
    header: &[String],
    rows: &[Vec<Vec<u8>>],
    opts: &LayoutOptions,
) -> Result<(usize, Option<usize>), String> {
    let puzzle = match &opts.puzzle_column {
        Some(w) => chosen(Some(header), header, w, "puzzle")?,
        None => pick(header, &PUZZLE_NAMES, rows, "puzzle")?.ok_or_else(|| {
            // A lines file made CSV by `--solution-column 2` has its first puzzle taken
            // for a header; the way out is --no-header, or no CSV option at all.
            let flags = opts.csv_flags();
            let puzzle_first = header.iter().any(|f| starts_with_puzzle(f.as_bytes()));
            let hint = match (other_delimiter(header), flags.as_slice()) {
                // `--delimiter ';'` on a comma file leaves the header one field.
                (Some(d), _) if !puzzle_first => format!(
                    "it is one field holding {}: is that the delimiter? give --delimiter {}",
                    shown(d),
                    delimiter_flag(d)
                ),
                _ if !puzzle_first => "choose one with --puzzle-column NAME".to_string(),
                (_, []) => {
                    "its first line holds a puzzle, so it is no header: add --no-header".to_string()
                }
                (_, flags) => format!(
                    "its first line holds a puzzle, so it is no header: add --no-header, or \
                     for a file of one puzzle per line drop {}, which makes it CSV",
                    flags.join(" and ")
                ),
            };
            format!(
                "no puzzle column in header {}: expected one of {PUZZLE_NAMES:?}; {hint}",
                brief(header)
            )
        })?,
    };
    let solution = match &opts.solution_column {
        Some(w) => Some(chosen(Some(header), header, w, "solution")?),
        None if opts.skip_solutions => None,
        None => match pick(header, &SOLUTION_NAMES, rows, "solution")? {
            Some(i) => Some(i),
            None => solution_by_content(rows, puzzle, header.len()),
        },
    };
    Ok((puzzle, apart(Some(header), header, puzzle, solution, opts)?))
}

/// The puzzle and solution columns of a CSV without a header and its row width, judged on
/// its first data `rows` by majority: by index from the options, else by content
/// ([`puzzle_by_content`], [`solution_by_content`]). Row 1 is one vote among them, so a typo
/// or a cut in it does not move a column or make every other row the wrong width.
///
/// # Errors
/// A column the options name that is not there, or no grid in any sampled row.
fn unnamed_columns(
    rows: &[Vec<Vec<u8>>],
    opts: &LayoutOptions,
) -> Result<(usize, Option<usize>, usize), String> {
    let width = usual_width(rows).unwrap_or(0);
    // The first row of the usual width, to show in messages and to check indices against.
    let fields: Vec<String> = rows
        .iter()
        .find(|r| r.len() == width)
        .map(|r| {
            r.iter()
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .collect()
        })
        .unwrap_or_default();
    let puzzle = match &opts.puzzle_column {
        Some(w) => chosen(None, &fields, w, "puzzle")?,
        None => puzzle_by_content(rows, width).ok_or(
            "no column of the first rows holds an 81-cell puzzle; choose one with \
             --puzzle-column N",
        )?,
    };
    let solution = match &opts.solution_column {
        Some(w) => Some(chosen(None, &fields, w, "solution")?),
        None if opts.skip_solutions => None,
        None => solution_by_content(rows, puzzle, width),
    };
    Ok((puzzle, apart(None, &fields, puzzle, solution, opts)?, width))
}

/// The solution column, kept apart from the puzzle column: one column cannot be both.
/// Named by the user (`--solution-column`), that is a mistake to name; found by its name
/// (`--puzzle-column solutions`), it is no stored solution. One rule for CSV, JSON Lines
/// and Parquet inputs, which all choose their columns here.
///
/// # Errors
/// `--solution-column` names the puzzle column.
fn apart(
    header: Option<&[String]>,
    fields: &[String],
    puzzle: usize,
    solution: Option<usize>,
    opts: &LayoutOptions,
) -> Result<Option<usize>, String> {
    match (solution, &opts.solution_column) {
        (Some(i), Some(w)) if i == puzzle => Err(format!(
            "--solution-column {w:?} is the puzzle column ({}); name the column that \
             holds the solutions in {}",
            column_name(header, puzzle),
            brief(fields)
        )),
        (Some(i), None) if i == puzzle => Ok(None),
        (solution, _) => Ok(solution),
    }
}

/// How a message names column `i` (0-based): its header name, else `column N` (1-based).
fn column_name(header: Option<&[String]>, i: usize) -> String {
    match header.and_then(|h| h.get(i)) {
        Some(name) => format!("{name:?}"),
        None => format!("column {}", i + 1),
    }
}

/// A column other than `puzzle` where most sampled rows hold grids, one of them complete: a
/// solution column under a name not in [`SOLUTION_NAMES`], or in a file without a header.
/// A majority, not every row, so the damage `verify` exists to find (a typo in one stored
/// solution) makes that row `solution-malformed` instead of switching the column off (trial
/// 6). Of several, the one with the most complete grids, the first on ties.
fn solution_by_content(rows: &[Vec<Vec<u8>>], puzzle: usize, width: usize) -> Option<usize> {
    (0..width)
        .filter(|&i| i != puzzle)
        .map(|i| (i, held(rows, i)))
        .filter(|(_, h)| 2 * h.grids > rows.len() && h.complete > 0)
        .max_by_key(|&(i, h)| (h.complete, std::cmp::Reverse(i)))
        .map(|(i, _)| i)
}

/// A lines layout with the puzzle in field `field`, `paired` when the first data lines of
/// `bytes` carry 81-cell solutions.
fn lines_layout(bytes: &[u8], field: usize) -> Layout {
    let lines = data_lines(bytes).take(LINE_SAMPLE).map(|(_, l)| l);
    Layout::Lines {
        field,
        paired: lines_carry_solutions(lines, field),
    }
}

/// The whitespace-separated field that holds the puzzle, judged on the first 100 data lines:
/// 0 when a line starts with a puzzle, else the first field of 81 cells; `None` when no line
/// holds a puzzle either way.
fn line_field(bytes: &[u8]) -> Option<usize> {
    let lines: Vec<&[u8]> = data_lines(bytes)
        .take(LINE_SAMPLE)
        .map(|(_, l)| l)
        .collect();
    if lines.iter().any(|l| starts_with_puzzle(l)) {
        return Some(0);
    }
    lines.iter().find_map(|l| {
        l.split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty())
            .position(is_grid)
    })
}
