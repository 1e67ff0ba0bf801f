//! Layout: lines, CSV, JSON Lines or Parquet, which field holds the puzzle and which the
//! stored solution (what the user said, [`LayoutOptions`], and what was worked out,
//! [`Layout`]; the sniffing is in [`super::sniff`]).

/// How to read the input's layout; `Auto` sniffs it from the first lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Sniff: a CSV header naming a puzzle column means CSV, so does any CSV option
    /// (`puzzle_column`, `solution_column`, `no_header`, `delimiter`); else lines.
    #[default]
    Auto,
    /// One puzzle per line.
    Lines,
    /// A CSV file (RFC 4180 quoting; the delimiter is sniffed or given).
    Csv,
    /// JSON Lines: one object per line (also found by content: a first data byte `{`).
    Jsonl,
    /// Apache Parquet (cargo feature `parquet`; also found by content: the magic `PAR1`).
    Parquet,
}

impl Format {
    /// The `--format` value of a text format (`lines`, `csv`, `jsonl`); `None` for `auto`
    /// and `parquet`.
    pub fn text_name(self) -> Option<&'static str> {
        match self {
            Format::Lines => Some("lines"),
            Format::Csv => Some("csv"),
            Format::Jsonl => Some("jsonl"),
            Format::Auto | Format::Parquet => None,
        }
    }
}

/// The formats whose records are objects or rows of named columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnFormat {
    /// JSON Lines: the keys of the first object name the columns.
    Jsonl,
    /// Apache Parquet: the file's schema names the columns.
    Parquet,
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
    /// The command reads no stored solution (`solve`, `canon`, `dedup`, `rate`, `bench`,
    /// `overlap` without `--by-solution`): unless `solution_column` names one, no solution
    /// column is chosen, so a table with several solution-named columns (`solve`'s own CSV
    /// output: `solutions` and `solution`) needs no choosing.
    pub skip_solutions: bool,
    /// The CSV has no header row; columns are then chosen by index or found by content.
    pub no_header: bool,
    /// The CSV field delimiter (one byte: `,`, tab, `;`, `|`, ...); `None` sniffs it from
    /// the first line among `,`, tab, `;` and `|` ([`super::sniff::DELIMITERS`]).
    pub delimiter: Option<u8>,
    /// The member of an archive input to read (`--member NAME`: its path in the archive or
    /// its file name); `None` reads an archive's one data member and refuses one of several,
    /// listing them (`super::archive`).
    pub member: Option<String>,
}

impl LayoutOptions {
    /// The CSV options the user gave, by flag name: any of them means the input is CSV
    /// (unless it is JSON Lines or Parquet, which take the column options too).
    pub fn csv_flags(&self) -> Vec<&'static str> {
        let given = [
            (self.puzzle_column.is_some(), "--puzzle-column"),
            (self.solution_column.is_some(), "--solution-column"),
            (self.no_header, "--no-header"),
            (self.delimiter.is_some(), "--delimiter"),
        ];
        given
            .iter()
            .filter(|(on, _)| *on)
            .map(|&(_, flag)| flag)
            .collect()
    }
}

/// Header names recognised as the puzzle column, compared case-insensitively.
pub const PUZZLE_NAMES: [&str; 5] = ["quizzes", "puzzle", "question", "puzzles", "quiz"];
/// Header names recognised as the solution column, compared case-insensitively.
pub const SOLUTION_NAMES: [&str; 4] = ["solutions", "solution", "answer", "answers"];

/// [`Layout::solution_source`] of a lines input.
pub const LINES_SOLUTION_SOURCE: &str = "81-cell field after the puzzle";

/// The layout of one input, as detected or chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle per line; `field` is the 0-based whitespace-separated field that holds the
    /// puzzle, or 0 when the puzzle starts the line (tdoku style).
    Lines {
        /// 0-based whitespace-separated field index of the puzzle.
        field: usize,
        /// The first data lines carry 81-cell stored solutions
        /// ([`super::record::lines_carry_solutions`]): then a field of cells of another
        /// length after a puzzle is a damaged solution, however long (a truncated last
        /// line), not text that carries none ([`super::record::line_fields`]).
        paired: bool,
    },
    /// A CSV file.
    Csv {
        /// The header row, if the file has one (BOM removed).
        header: Option<Vec<String>>,
        /// 0-based index of the puzzle column.
        puzzle: usize,
        /// 0-based index of the solution column, if any.
        solution: Option<usize>,
        /// The field delimiter byte.
        delimiter: u8,
        /// Fields a row should have (a row with more or fewer is invalid): the header's
        /// count, or without a header the most common count among the first data rows, so
        /// a short or long first row is the odd one out. `None`: the first row's (an input
        /// with no data rows, or a layout built by hand).
        width: Option<usize>,
    },
    /// JSON Lines or Parquet: records with named columns. A record's fields
    /// ([`super::RawRecord::fields`]) are its values in `header` order, as text (grids as 81
    /// digits, a missing value or `null` as an empty field), so CSV output copies them.
    Columns {
        /// Which format.
        format: ColumnFormat,
        /// The column names: the first object's keys in order, or the Parquet schema's.
        header: Vec<String>,
        /// 0-based index of the puzzle column in `header`.
        puzzle: usize,
        /// 0-based index of the solution column in `header`, if any.
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
            }
            | Layout::Columns {
                puzzle, solution, ..
            } => (puzzle, solution),
            Layout::Lines { .. } => (0, Some(1)),
        };
        let s = solution.and_then(|i| f.get(i)).unwrap_or(b"");
        (f.get(puzzle).unwrap_or(b""), s)
    }

    /// Where stored solutions come from, for `verify`'s summary and report: the solution
    /// column's header name (`column N` without a header), [`LINES_SOLUTION_SOURCE`] for a
    /// lines input of which `lines_carried_solutions` (the first 81-character field after
    /// the puzzle, on the lines that have one: field 2 of `puzzle,solution` but field 3 of
    /// tdoku's `puzzle:count:solution`, so no one field number is right), or `None`: a CSV
    /// with no solution column, a lines input whose lines carried none (a lines file has no
    /// solution column to name: only its lines can say it holds solutions).
    pub fn solution_source(&self, lines_carried_solutions: bool) -> Option<String> {
        match self {
            Layout::Lines { .. } => {
                lines_carried_solutions.then(|| LINES_SOLUTION_SOURCE.to_string())
            }
            Layout::Csv {
                header, solution, ..
            } => solution.map(|i| column_label(header.as_deref(), i)),
            Layout::Columns {
                header, solution, ..
            } => solution.map(|i| column_label(Some(header), i)),
        }
    }

    /// Where puzzles come from, for messages: the puzzle column's header name or key
    /// (`column N` for a CSV without a header, 1-based), or `field N` (1-based) for lines.
    pub fn puzzle_source(&self) -> String {
        match self {
            Layout::Lines { field, .. } => format!("field {}", field + 1),
            Layout::Csv { header, puzzle, .. } => column_label(header.as_deref(), *puzzle),
            Layout::Columns { header, puzzle, .. } => column_label(Some(header), *puzzle),
        }
    }

    /// The column names, for a CSV with a header, JSON Lines or Parquet; `None` for lines
    /// and a CSV without a header.
    pub fn header(&self) -> Option<&[String]> {
        match self {
            Layout::Csv { header, .. } => header.as_deref(),
            Layout::Columns { header, .. } => Some(header),
            Layout::Lines { .. } => None,
        }
    }

    /// The 0-based puzzle and solution column indices in [`Layout::header`]; `None` for
    /// lines.
    pub fn columns(&self) -> Option<(usize, Option<usize>)> {
        match *self {
            Layout::Csv {
                puzzle, solution, ..
            }
            | Layout::Columns {
                puzzle, solution, ..
            } => Some((puzzle, solution)),
            Layout::Lines { .. } => None,
        }
    }

    /// A short name for reports: `lines`, `csv`, `jsonl` or `parquet`.
    pub fn name(&self) -> &'static str {
        match self {
            Layout::Lines { .. } => "lines",
            Layout::Csv { .. } => "csv",
            Layout::Columns {
                format: ColumnFormat::Jsonl,
                ..
            } => "jsonl",
            Layout::Columns {
                format: ColumnFormat::Parquet,
                ..
            } => "parquet",
        }
    }
}

/// Column `i` (0-based) as reports name it: its header name, else `column N` (1-based).
fn column_label(header: Option<&[String]>, i: usize) -> String {
    match header.and_then(|h| h.get(i)) {
        Some(name) => name.clone(),
        None => format!("column {}", i + 1),
    }
}
