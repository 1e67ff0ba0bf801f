//! Layout: lines or CSV, which field holds the puzzle and which the stored solution. Sniffed
//! from the first data lines, or chosen by the user's options.

use super::record::{data_line, starts_with_puzzle, strip_bom};
use crate::grid::{is_cell_byte, parse_cells, parse_solution};

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
    /// The puzzle and stored-solution fields of `raw` as they stand in the input (empty when
    /// absent), for quoting a row. Lines records carry them only when read with
    /// [`super::ReadOptions::keep_text`].
    pub fn record_text<'r>(&self, raw: &'r super::RawRecord) -> (&'r [u8], &'r [u8]) {
        let Some(f) = raw.fields.as_ref() else {
            return (b"", b"");
        };
        let (puzzle, solution) = match *self {
            Layout::Csv {
                puzzle, solution, ..
            } => (puzzle, solution),
            Layout::Lines { .. } => (0, Some(1)),
        };
        let s = solution.and_then(|i| f.get(i)).unwrap_or(b"");
        (f.get(puzzle).unwrap_or(b""), s)
    }

    /// A short name for reports: `lines` or `csv`.
    pub fn name(&self) -> &'static str {
        match self {
            Layout::Lines { .. } => "lines",
            Layout::Csv { .. } => "csv",
        }
    }
}

/// Lines of `bytes` that hold data ([`data_line`]). Yields `(1-based line number, record)`.
fn data_lines(bytes: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    strip_bom(bytes)
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(i, l)| Some((i as u64 + 1, data_line(l)?)))
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

/// Works out the layout of an input from its first data lines (`bytes`: the input, or at
/// least its start).
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
