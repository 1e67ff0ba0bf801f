//! The puzzle value type and the parser for one 81-cell puzzle field.
//!
//! A [`Grid`] is `[u8; 81]`, row-major (cell `r * 9 + c`, both 0-based), `0` = empty,
//! `1..=9` = a digit. [`parse_cells`] turns one field of input bytes into a `Grid` or a
//! [`ParseError`] that says what was found against what was expected; [`Grid::conflicts`]
//! finds two equal givens in one unit without any search.

use std::fmt;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// The 6 orders of three things (three bands, stacks, rows of a band or columns of a stack),
/// in lexicographic order: position `j` takes item `ORDERS_OF_THREE[p][j]`.
pub const ORDERS_OF_THREE: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// A Sudoku grid: `[u8; 81]`, row-major, `0` = empty, `1..=9` = digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid(pub [u8; CELLS]);

/// Why a field is not a puzzle (or not a solution). Column numbers are 1-based characters;
/// an error at one character names its cell too (`r5c5: invalid character 'x' (character
/// 41)`), as `verify` and every other command word it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The field has the wrong number of characters.
    #[error("{found} character{}, expected 81{hint}", if *found == 1 { "" } else { "s" })]
    Length {
        /// Characters found (Unicode scalar values, not bytes).
        found: usize,
        /// Extra explanation, e.g. a spreadsheet that dropped leading zeros; may be empty.
        hint: &'static str,
    },
    /// A character that is neither a digit nor a blank symbol.
    #[error("{}: invalid character {ch:?} (character {column}){hint}", cell_name(column - 1))]
    BadChar {
        /// 1-based character column within the field (1..=81: only the first 81 characters
        /// are looked at).
        column: usize,
        /// The offending character (U+FFFD where the bytes are not UTF-8).
        ch: char,
        /// Extra explanation, e.g. a CSV header read as a row; may be empty.
        hint: &'static str,
    },
    /// A field far from 81 characters (outside [`BAD_CHAR_WINDOW`]) that also holds a
    /// character that is neither a digit nor a blank: most likely no puzzle at all (a title,
    /// a header, a stray line), so the length leads and no cell is named (a 21-character
    /// title line was once reported as `r1c1: invalid character 'H'`, as if a puzzle).
    #[error("{found} character{}, expected 81; invalid character {ch:?} (character {column}){hint}", if *found == 1 { "" } else { "s" })]
    LengthAndChar {
        /// Characters found (Unicode scalar values, not bytes).
        found: usize,
        /// 1-based character column of the first character that is not a cell (within the
        /// first 81 characters).
        column: usize,
        /// That character (U+FFFD where the bytes are not UTF-8).
        ch: char,
        /// Extra explanation, e.g. a CSV header read as a row; may be empty.
        hint: &'static str,
    },
    /// A blank where a full grid (a solution) was expected.
    #[error("{}: blank {ch:?}, expected a digit 1-9", cell_name(column - 1))]
    BlankInSolution {
        /// 1-based character column within the field (1..=81).
        column: usize,
        /// The blank symbol found.
        ch: char,
    },
    /// The field is a number in scientific notation: a spreadsheet destroyed it.
    #[error("{text:?} is a number in scientific notation, not 81 cells (a spreadsheet converted it; the digits are lost)")]
    Scientific {
        /// The field as found (truncated to 40 characters).
        text: String,
    },
    /// The CSV row has a different number of fields than the header.
    #[error("{found} field{}, expected {expected}", if *found == 1 { "" } else { "s" })]
    FieldCount {
        /// Fields in this row.
        found: usize,
        /// Fields in the header (or the first row).
        expected: usize,
    },
    /// The CSV row has no field at the puzzle (or solution) column.
    #[error("row has no column {column}")]
    MissingField {
        /// 1-based column index that is missing.
        column: usize,
    },
    /// Two or more equal givens in one unit (row, column or box).
    #[error("{0}")]
    Conflict(String),
    /// A bad CSV record whose quoted field runs over several lines: most likely a quote
    /// that was never closed, which swallows the following lines (issue 5).
    #[error("{cause} (the record holds {line_breaks} line breaks: an unclosed quote? the lines inside it are not read as records)")]
    SpansLines {
        /// Newline bytes inside the record's fields.
        line_breaks: u64,
        /// What is wrong with the record itself.
        cause: Box<ParseError>,
    },
    /// A CSV row with a field that opens a quote not closed on the row's line, and not
    /// closed into a well-formed row later either (never closed, closed by a quote with text
    /// after it, or into a row of the wrong width): an unclosed quote, which would swallow
    /// the rows after it. The row is that one line, invalid, and the reading goes
    /// on at the next line, so the lines after it are read as rows.
    #[error("{field} opens a quote {why}: an unclosed quote, so the row is this line only, invalid, and the lines after it are read as rows")]
    UnclosedQuote {
        /// The field, `name (column N)` (1-based) or `column N` without a header.
        field: String,
        /// Why the quote is taken as unclosed, e.g. `that is never closed (the input ends
        /// inside it)`.
        why: String,
    },
    /// A JSON Lines or Parquet record that holds no puzzle: a line that is not a JSON
    /// object, or a puzzle that is missing or null (issue 13).
    #[error("{0}")]
    Record(String),
    /// The record's line is longer than [`crate::input::record::MAX_LINE`] bytes: it is not
    /// read (a stream keeps only its first bytes, so memory stays bounded), and the reading
    /// goes on at the next line.
    #[error("a line of more than {limit} bytes: not read")]
    LineTooLong {
        /// The limit, bytes ([`crate::input::record::MAX_LINE`]).
        limit: usize,
    },
    /// The solver panicked on this record: a bug, caught so the rest of the run goes on.
    #[error("internal error (a bug, please report it with this puzzle): {0}")]
    Internal(String),
}

/// Returns whether `b` is one of the accepted blank symbols: `.`, `0`, `_`.
#[inline]
pub fn is_blank(b: u8) -> bool {
    matches!(b, b'.' | b'0' | b'_')
}

/// Returns whether `b` can stand in a puzzle field: a digit `1-9` or a blank symbol.
#[inline]
pub fn is_cell_byte(b: u8) -> bool {
    b.is_ascii_digit() || b == b'.' || b == b'_'
}

/// Parses exactly one field of 81 cells (`1-9` digits; `.`, `0`, `_` blanks) into a [`Grid`].
///
/// The field must hold nothing else: trailing separators are the caller's business.
///
/// # Errors
/// [`ParseError::Length`] when the field is not 81 characters long, [`ParseError::Scientific`]
/// for a spreadsheet number such as `4.972E+80`, [`ParseError::BadChar`] naming the first
/// character that is neither a digit nor a blank, or [`ParseError::LengthAndChar`] with the
/// length and that character when the length is outside [`BAD_CHAR_WINDOW`].
pub fn parse_cells(field: &[u8]) -> Result<Grid, ParseError> {
    if field.len() == CELLS {
        let mut g = [0u8; CELLS];
        // Branch-free, so the loop vectorizes: `bad` collects any byte that is not a cell.
        let mut bad = false;
        for (dst, &b) in g.iter_mut().zip(field) {
            let d = b.wrapping_sub(b'0');
            let digit = d <= 9;
            bad |= !(digit | (b == b'.') | (b == b'_'));
            *dst = if digit { d } else { 0 };
        }
        if !bad {
            return Ok(Grid(g));
        }
    }
    Err(diagnose(field))
}

/// Parses a full grid (a stored solution): 81 digits `1-9`, no blanks.
///
/// # Errors
/// As [`parse_cells`], plus [`ParseError::BlankInSolution`] naming the first blank.
pub fn parse_solution(field: &[u8]) -> Result<Grid, ParseError> {
    // A solution has no blanks, so no leading zeros to lose: the puzzle's hint fits only a
    // field that holds a `0` (a solution cut by one digit must not be sent looking for a
    // spreadsheet), and then it names the solution.
    let g = parse_cells(field).map_err(|e| match e {
        ParseError::Length { found, hint } if hint == LEADING_ZEROS_HINT => ParseError::Length {
            found,
            hint: if field.contains(&b'0') {
                LEADING_ZEROS_SOLUTION_HINT
            } else {
                ""
            },
        },
        e => e,
    })?;
    match g.0.iter().position(|&d| d == 0) {
        Some(i) => Err(ParseError::BlankInSolution {
            column: i + 1,
            ch: field[i] as char,
        }),
        None => Ok(g),
    }
}

/// Field lengths (characters) at which a character that is not a cell leads the diagnosis
/// ([`ParseError::BadChar`], naming its cell): a puzzle off by at most one row's worth of
/// cells, such as one in quotes or with a stray character, whose bad character is the thing
/// to fix. Outside it the field is no puzzle at all and its length leads
/// ([`ParseError::LengthAndChar`]).
pub const BAD_CHAR_WINDOW: std::ops::RangeInclusive<usize> = CELLS - 9..=CELLS + 9;

/// Longest field explained character by character. Past it only the length is counted, in
/// one pass without copying, so a 100 MB line costs no more than reading it (issue 5).
const DIAGNOSE_MAX_BYTES: usize = 4096;

/// The slow path: explain why `field` is not 81 cells.
#[cold]
fn diagnose(field: &[u8]) -> ParseError {
    if field.len() > DIAGNOSE_MAX_BYTES {
        // Characters of UTF-8 text = bytes that are not continuation bytes (10xxxxxx).
        let found = field.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        let hint = if memchr::memchr(b'\r', field).is_some() {
            BARE_CR_HINT
        } else {
            ""
        };
        return ParseError::Length { found, hint };
    }
    let text = String::from_utf8_lossy(field);
    let found = text.chars().count();
    if looks_scientific(&text) {
        return ParseError::Scientific {
            text: text.chars().take(40).collect(),
        };
    }
    if let Some((i, ch)) = text
        .chars()
        .enumerate()
        .take(CELLS)
        .find(|&(_, ch)| !(ch.is_ascii() && is_cell_byte(ch as u8)))
    {
        let column = i + 1;
        return if BAD_CHAR_WINDOW.contains(&found) {
            ParseError::BadChar {
                column,
                ch,
                hint: "",
            }
        } else {
            ParseError::LengthAndChar {
                found,
                column,
                ch,
                hint: "",
            }
        };
    }
    let hint = if (70..CELLS).contains(&found) && text.bytes().all(|b| b.is_ascii_digit()) {
        LEADING_ZEROS_HINT
    } else if found == CELLS * 9 && field.iter().all(|&b| is_cell_byte(b)) {
        PENCIL_MARK_HINT
    } else if let Some(hint) = headerless_csv_hint(field) {
        hint
    } else if field.contains(&b'\r') {
        BARE_CR_HINT
    } else {
        ""
    };
    ParseError::Length { found, hint }
}

/// The hint for a puzzle field of 70-80 digits: a spreadsheet that read it as a number.
const LEADING_ZEROS_HINT: &str =
    " (all digits: leading zeros lost? a spreadsheet may have stored the puzzle as a number)";

/// [`LEADING_ZEROS_HINT`] for a stored-solution field (one that holds a `0`).
const LEADING_ZEROS_SOLUTION_HINT: &str =
    " (all digits: leading zeros lost? a spreadsheet may have stored the solution as a number)";

/// The hint of [`Grid::from_cells`] for a value above 9.
const CELL_VALUE_HINT: &str = " (a cell value above 9: cells are 0 for empty or a digit 1-9)";

/// The hint for a 729-character field of cells: 9 candidates for each of the 81 cells, as
/// Sukaku and pencil-mark exports write them (issue 10).
const PENCIL_MARK_HINT: &str =
    " (a pencil-mark grid: 9 candidate characters for each of the 81 cells, not a puzzle)";

/// The hint for a line of a puzzle written as a 9-line grid (case C31 of
/// `../shared/cases`): its nine cells, perhaps spaced or ruled with `|`, or a rule line.
const GRID_LINE_HINT: &str =
    " (a line of a 9-line grid? puzzles are read one to a line: put each grid's 81 cells on one line)";

/// `e` with [`GRID_LINE_HINT`] when the whole data `line` (of a lines input) looks like
/// one line of a 9x9 grid written over nine lines, and `e` has no hint of its own: nine
/// cells and nothing else but spaces, tabs and `|`, or a rule line of `-` with `+`, `*`,
/// `|`, `=` and spaces (`-------+-------+-------`, `*-----------*`).
pub(crate) fn grid_line_hint(e: ParseError, line: &[u8]) -> ParseError {
    let line = line.trim_ascii();
    let spacing = |b: u8| matches!(b, b' ' | b'\t' | b'|');
    let cells = line.iter().filter(|&&b| is_cell_byte(b)).count();
    let row = cells == 9 && line.iter().all(|&b| is_cell_byte(b) || spacing(b));
    let rule = line.len() >= 9
        && line.contains(&b'-')
        && line
            .iter()
            .all(|&b| matches!(b, b'-' | b'+' | b'*' | b'|' | b'=' | b' '));
    if !(row || rule) {
        return e;
    }
    match e {
        ParseError::Length { found, hint: "" } => ParseError::Length {
            found,
            hint: GRID_LINE_HINT,
        },
        ParseError::BadChar {
            column,
            ch,
            hint: "",
        } => ParseError::BadChar {
            column,
            ch,
            hint: GRID_LINE_HINT,
        },
        ParseError::LengthAndChar {
            found,
            column,
            ch,
            hint: "",
        } => ParseError::LengthAndChar {
            found,
            column,
            ch,
            hint: GRID_LINE_HINT,
        },
        e => e,
    }
}

/// The hint for a field of 81 cells, then a CSV delimiter, then more (`puzzle|solution`):
/// a headerless CSV read as one long line, as a lines input does not split at `|`, and
/// `163 characters, expected 81` alone would not say why. The characters are those the CSV
/// sniffer tries (`input::sniff`'s
/// `DELIMITERS`; a test checks that each has its hint). `None` for any other field.
fn headerless_csv_hint(field: &[u8]) -> Option<&'static str> {
    if field.len() <= CELLS + 1 || !field[..CELLS].iter().all(|&b| is_cell_byte(b)) {
        return None;
    }
    match field[CELLS] {
        b'|' => Some(" (81 cells then '|': a headerless CSV? give --no-header)"),
        b';' => Some(" (81 cells then ';': a headerless CSV? give --no-header)"),
        b',' => Some(" (81 cells then ',': a headerless CSV? give --no-header)"),
        b'\t' => Some(" (81 cells then a tab: a headerless CSV? give --no-header)"),
        _ => None,
    }
}

/// The words of [`BARE_CR_FIX`], as a literal for `concat!`.
macro_rules! bare_cr_fix {
    () => {
        "lines ended by CR alone? convert them to LF, e.g. with tr '\\r' '\\n'"
    };
}

/// What to do about bare CR bytes (lines ended by CR alone, classic Mac OS, are not line
/// breaks here): said by the puzzle-field hint and by the CSV sniffer, which refuses a header
/// line that holds them (`input::sniff`).
pub(crate) const BARE_CR_FIX: &str = bare_cr_fix!();

/// The hint for a field that runs over bare CR bytes: several puzzles read as one long line.
const BARE_CR_HINT: &str = concat!(" (it holds bare CR characters: ", bare_cr_fix!(), ")");

/// `4.972E+80`, `6.95127e80`: what a spreadsheet makes of an 81-digit number.
fn looks_scientific(text: &str) -> bool {
    let t = text.trim();
    let Some(e) = t.find(['e', 'E']) else {
        return false;
    };
    let (mantissa, exp) = (&t[..e], &t[e + 1..]);
    let exp = exp.strip_prefix('+').unwrap_or(exp);
    !mantissa.is_empty()
        && mantissa.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !exp.is_empty()
        && exp.bytes().all(|b| b.is_ascii_digit())
}

/// The kind of a unit.
const UNIT_NAMES: [&str; 3] = ["row", "col", "box"];

/// Cells of unit `u` (0..27: rows 0-8, columns 9-17, boxes 18-26), row-major cell indices.
pub const fn unit_cells(u: usize) -> [usize; 9] {
    let mut cells = [0usize; 9];
    let mut k = 0;
    while k < 9 {
        let i = u % 9;
        cells[k] = match u / 9 {
            0 => i * 9 + k,
            1 => k * 9 + i,
            _ => (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3,
        };
        k += 1;
    }
    cells
}

/// The 27 units: rows 0-8, columns 9-17, boxes 18-26.
pub const UNITS: [[usize; 9]; 27] = {
    let mut units = [[0usize; 9]; 27];
    let mut u = 0;
    while u < 27 {
        units[u] = unit_cells(u);
        u += 1;
    }
    units
};

/// The 20 peers of each cell (the other cells of its row, column and box), row-major cell
/// indices in rising order.
pub const PEERS: [[u8; 20]; CELLS] = {
    let mut t = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        let mut other = 0;
        while other < CELLS {
            let (or, oc) = (other / 9, other % 9);
            let same_box = r / 3 == or / 3 && c / 3 == oc / 3;
            if other != cell && (or == r || oc == c || same_box) {
                t[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    t
};

/// How many repeats [`Grid::conflicts`] names before `and N more repeats`.
pub const SHOWN_REPEATS: usize = 3;

/// How many cells one repeat of [`Grid::conflicts`] names before `…` (a digit 9 times in a
/// unit names 4).
pub const SHOWN_CELLS: usize = 4;

/// Formats cell index `i` (0..81) as `rXcY`, 1-based.
pub fn cell_name(i: usize) -> String {
    format!("r{}c{}", i / 9 + 1, i % 9 + 1)
}

/// Formats unit `u` (0..27) as `row 1`, `col 2` or `box 3`, 1-based.
pub fn unit_name(u: usize) -> String {
    format!("{} {}", UNIT_NAMES[u / 9], u % 9 + 1)
}

impl Grid {
    /// The empty grid.
    pub const EMPTY: Grid = Grid([0; CELLS]);

    /// Parses one 81-character puzzle: digits `1-9`, blanks `.`, `0` or `_`, nothing else
    /// (the same rule as every input's puzzle field, [`parse_cells`]).
    ///
    /// # Errors
    /// A [`ParseError`] saying what was found against what was expected: the length, or
    /// the first character that is neither a digit nor a blank, with its cell.
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// let g = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
    /// assert_eq!(g.clues(), 17);
    /// assert_eq!(
    ///     Grid::parse(b"12x").unwrap_err().to_string(),
    ///     "3 characters, expected 81; invalid character 'x' (character 3)"
    /// );
    /// ```
    pub fn parse(text: &[u8]) -> Result<Grid, ParseError> {
        parse_cells(text)
    }

    /// A grid from 81 cell values (`0` = empty, `1..=9` = digit), row-major: one row of an
    /// `(N, 81)` integer array.
    ///
    /// # Errors
    /// [`ParseError::Length`] when `cells` is not 81 long; [`ParseError::BadChar`] naming the
    /// first value above 9 and its cell (`ch` is the value as a `char` code point, so `10`
    /// is shown as `'\n'`, and `column` its 1-based position).
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// let mut cells = [0u8; 81];
    /// cells[0] = 5;
    /// assert_eq!(Grid::from_cells(&cells).unwrap().to_string().as_bytes()[0], b'5');
    /// cells[40] = 12;
    /// let e = Grid::from_cells(&cells).unwrap_err();
    /// assert!(e.to_string().starts_with("r5c5: invalid character"), "{e}");
    /// ```
    pub fn from_cells(cells: &[u8]) -> Result<Grid, ParseError> {
        let Ok(g) = <[u8; CELLS]>::try_from(cells) else {
            return Err(ParseError::Length {
                found: cells.len(),
                hint: "",
            });
        };
        match g.iter().position(|&d| d > 9) {
            Some(i) => Err(ParseError::BadChar {
                column: i + 1,
                ch: char::from(g[i]),
                hint: CELL_VALUE_HINT,
            }),
            None => Ok(Grid(g)),
        }
    }

    /// The grid as 81 characters, `0` for empty cells ([`Grid::write_digits`]); the
    /// `Display` form writes `.` instead.
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// let g = Grid::parse(format!("1{}8{}9", ".".repeat(73), ".".repeat(5)).as_bytes()).unwrap();
    /// assert_eq!(g.to_digits(), format!("1{}8{}9", "0".repeat(73), "0".repeat(5)));
    /// ```
    pub fn to_digits(&self) -> String {
        let mut text = [0u8; CELLS];
        self.write_digits(&mut text);
        text.iter().map(|&b| char::from(b)).collect()
    }

    /// Number of givens (non-zero cells), 0..=81.
    pub fn clues(&self) -> u32 {
        // A sum of bytes (81 fits one) rather than filter().count(), so the loop vectorizes
        // on byte lanes.
        u32::from(self.0.iter().fold(0u8, |n, &d| n + u8::from(d != 0)))
    }

    /// Whether two equal digits share a unit. The fast path of [`Grid::conflicts`], which
    /// runs on every record before the solver and before a canonical form.
    ///
    /// Each cell becomes one bit (`1 << (d - 1)`, none for a blank); a unit repeats a digit
    /// exactly when the sum of its cells' bits differs from their OR (distinct powers of two
    /// add without carries). Sums and ORs of rows, columns and boxes are taken in one
    /// branch-free pass of fixed loops, which the compiler unrolls and vectorizes; the
    /// earlier version (a mask per unit, tested and set cell by cell, a branch per blank) was
    /// 20% of exact `dedup`.
    pub fn has_conflict(&self) -> bool {
        let bits = self.0.map(|d| (1u16 << (d & 15)) >> 1);
        let (mut col_sum, mut col_or) = ([0u16; 9], [0u16; 9]);
        let mut bad = 0u16;
        for band in bits.chunks_exact(27) {
            let (mut box_sum, mut box_or) = ([0u16; 3], [0u16; 3]);
            for row in band.chunks_exact(9) {
                let (mut sum, mut or) = (0u16, 0u16);
                for (c, &x) in row.iter().enumerate() {
                    sum += x;
                    or |= x;
                    col_sum[c] += x;
                    col_or[c] |= x;
                    box_sum[c / 3] += x;
                    box_or[c / 3] |= x;
                }
                bad |= sum ^ or;
            }
            for k in 0..3 {
                bad |= box_sum[k] ^ box_or[k];
            }
        }
        for c in 0..9 {
            bad |= col_sum[c] ^ col_or[c];
        }
        bad != 0
    }

    /// Every unit in which a digit stands more than once, in unit order (rows, columns,
    /// boxes), then digit order, e.g. `9 twice in row 1 (r1c2, r1c3); 9 twice in col 2 (r1c2, r5c2)`.
    /// `None` when no two equal digits share a unit. No search is done.
    ///
    /// The text stays short: the first [`SHOWN_REPEATS`] repeats, then `; and N more
    /// repeats`, each naming at most [`SHOWN_CELLS`] cells then `…` (a solution shifted by
    /// one character repeats digits in 27 units, which named in full ran to 870 characters).
    pub fn conflicts(&self) -> Option<String> {
        if !self.has_conflict() {
            return None;
        }
        let mut parts = Vec::new();
        for (u, cells) in UNITS.iter().enumerate() {
            let mut seen = 0u16;
            let mut dup = 0u16;
            for &c in cells {
                let d = self.0[c];
                if d != 0 {
                    let bit = 1 << d;
                    dup |= seen & bit;
                    seen |= bit;
                }
            }
            if dup == 0 {
                continue;
            }
            for d in 1..=9u8 {
                if dup & (1 << d) != 0 {
                    let mut at: Vec<String> = cells
                        .iter()
                        .filter(|&&c| self.0[c] == d)
                        .map(|&c| cell_name(c))
                        .collect();
                    let times = match at.len() {
                        2 => "twice".to_string(),
                        n => format!("{n} times"),
                    };
                    if at.len() > SHOWN_CELLS {
                        at.truncate(SHOWN_CELLS);
                        at.push("…".into());
                    }
                    parts.push(format!(
                        "{d} {times} in {} ({})",
                        unit_name(u),
                        at.join(", ")
                    ));
                }
            }
        }
        let more = parts.len().saturating_sub(SHOWN_REPEATS);
        parts.truncate(SHOWN_REPEATS);
        let mut text = parts.join("; ");
        if more > 0 {
            let s = if more == 1 { "" } else { "s" };
            text.push_str(&format!("; and {more} more repeat{s}"));
        }
        (!text.is_empty()).then_some(text)
    }

    /// Whether this is a complete valid grid: every cell a digit, every unit a permutation of 1-9.
    pub fn is_complete_valid(&self) -> bool {
        // Branch-free over the cells (a fold, not `all`), so the loop vectorizes: `augment`
        // checks every stored solution.
        let digits = self
            .0
            .iter()
            .fold(true, |ok, &d| ok & (d.wrapping_sub(1) < 9));
        digits && !self.has_conflict()
    }

    /// Whether every given of `puzzle` stands at the same cell in `self`.
    pub fn keeps_givens(&self, puzzle: &Grid) -> bool {
        puzzle
            .0
            .iter()
            .zip(&self.0)
            .fold(true, |ok, (&p, &s)| ok & ((p == 0) | (p == s)))
    }

    /// Writes the grid as 81 bytes, `0` for empty cells, into `out`.
    pub fn write_digits(&self, out: &mut [u8; CELLS]) {
        for (o, &d) in out.iter_mut().zip(&self.0) {
            *o = b'0' + d;
        }
    }

    /// Writes the grid as 81 bytes, `.` for empty cells (as [`Grid`]'s `Display` shows it),
    /// into `out`.
    pub fn write_dots(&self, out: &mut [u8; CELLS]) {
        for (o, &d) in out.iter_mut().zip(&self.0) {
            *o = if d == 0 { b'.' } else { b'0' + d };
        }
    }
}

impl fmt::Display for Grid {
    /// 81 characters, `.` for empty cells ([`Grid::write_dots`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0u8; CELLS];
        self.write_dots(&mut text);
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

/// A unique puzzle (25 givens, `.` blanks) and its solution, shared by the unit tests.
#[cfg(test)]
pub(crate) mod fixtures {
    /// The puzzle.
    pub(crate) const P: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    /// Its one solution.
    pub(crate) const S: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";
}

#[cfg(test)]
mod tests {
    use super::fixtures::{P, S};
    use super::*;

    /// The leading-zeros hint is about a puzzle; a short solution of digits 1-9
    /// gets none, and one holding a `0` is named a solution.
    #[test]
    fn the_leading_zeros_hint_fits_the_field() {
        let digits = "123456789".repeat(9);
        let short = &digits[..80];
        let hint = |e: ParseError| match e {
            ParseError::Length { found: 80, hint } => hint,
            e => panic!("{e:?}"),
        };
        assert_eq!(
            hint(parse_cells(short.as_bytes()).unwrap_err()),
            LEADING_ZEROS_HINT
        );
        assert_eq!(hint(parse_solution(short.as_bytes()).unwrap_err()), "");
        let zero = format!("0{}", &digits[..79]);
        let e = parse_solution(zero.as_bytes()).unwrap_err();
        assert!(
            e.to_string().ends_with("stored the solution as a number)"),
            "{e}"
        );
    }

    #[test]
    fn all_three_blank_symbols_parse_alike() {
        let dots = parse_cells(P.as_bytes()).unwrap();
        for blank in ["0", "_"] {
            let other = P.replace('.', blank);
            assert_eq!(parse_cells(other.as_bytes()).unwrap(), dots);
        }
        assert_eq!(
            dots.clues() as usize,
            P.bytes().filter(|&b| b != b'.').count()
        );
        assert_eq!(dots.to_string(), P);
    }

    #[test]
    fn the_lines_of_a_9_line_grid_get_a_hint_and_other_lines_do_not() {
        // C31's five layouts: plain, spaced, ruled with `|`, and their rule lines.
        for line in [
            ".4.1...5.",
            " 2 . 6 . 3 . . . .",
            "| . 4 . | . . 1 | . . 6 |",
            "-------+-------+-------",
            "*-----------*",
            "|---+---+---|",
        ] {
            let field = line.split_ascii_whitespace().next().unwrap_or("");
            let e = grid_line_hint(parse_cells(field.as_bytes()).unwrap_err(), line.as_bytes());
            assert!(e.to_string().ends_with(GRID_LINE_HINT), "{line}: {e}");
        }
        // Not a grid's line: eight or ten cells, a title, a puzzle cut short.
        for line in [".4.1...5", ".4.1...5.1", "Puzzle 1", &"1".repeat(80)] {
            let e = grid_line_hint(parse_cells(line.as_bytes()).unwrap_err(), line.as_bytes());
            assert!(!e.to_string().contains("9-line grid"), "{line}: {e}");
        }
    }

    #[test]
    fn a_729_character_line_is_named_a_pencil_mark_grid() {
        let marks = "123456789".repeat(81);
        let e = parse_cells(marks.as_bytes()).unwrap_err().to_string();
        assert!(
            e.starts_with("729 characters, expected 81 (a pencil-mark grid"),
            "{e}"
        );
        let other = "1".repeat(728);
        let e = parse_cells(other.as_bytes()).unwrap_err().to_string();
        assert_eq!(e, "728 characters, expected 81");
    }

    #[test]
    fn wrong_length_is_reported_in_characters() {
        let e = parse_cells(&P.as_bytes()[..80]).unwrap_err();
        assert_eq!(
            e,
            ParseError::Length {
                found: 80,
                hint: ""
            }
        );
        let long = format!("{P}5");
        assert!(matches!(
            parse_cells(long.as_bytes()),
            Err(ParseError::Length { found: 82, .. })
        ));
    }

    /// `column 41: invalid character 'x'` would read as a field number in a CSV; every
    /// command words it as `verify` does, by cell and character.
    #[test]
    fn a_bad_character_or_blank_is_worded_by_cell_and_character() {
        let mut bad = P.as_bytes().to_vec();
        bad[40] = b'x';
        let e = parse_cells(&bad).unwrap_err();
        assert_eq!(e.to_string(), "r5c5: invalid character 'x' (character 41)");
        let mut holed = S.as_bytes().to_vec();
        holed[80] = b'0';
        let e = parse_solution(&holed).unwrap_err();
        assert_eq!(e.to_string(), "r9c9: blank '0', expected a digit 1-9");
    }

    /// A line far too short (a title, stray text) was reported as `r1c1: invalid character
    /// 'H' (character 1)`, as if it were a puzzle with a typo; now its length leads, and the
    /// first bad character is still named. Near 81 characters the bad character leads.
    #[test]
    fn a_short_non_puzzle_line_leads_with_its_length() {
        let e = parse_cells(b"HardestDatabase110626").unwrap_err();
        assert_eq!(
            e.to_string(),
            "21 characters, expected 81; invalid character 'H' (character 1)"
        );
        let e = parse_cells(b"12.x").unwrap_err();
        assert_eq!(
            e,
            ParseError::LengthAndChar {
                found: 4,
                column: 4,
                ch: 'x',
                hint: ""
            }
        );
        // The edges of the window: a bad character 9 cells off 81 leads, 10 off does not.
        for (len, leads) in [(71, false), (72, true), (90, true), (91, false)] {
            let field = format!("x{}", "1".repeat(len - 1));
            let e = parse_cells(field.as_bytes()).unwrap_err();
            let want = if leads {
                ParseError::BadChar {
                    column: 1,
                    ch: 'x',
                    hint: "",
                }
            } else {
                ParseError::LengthAndChar {
                    found: len,
                    column: 1,
                    ch: 'x',
                    hint: "",
                }
            };
            assert_eq!(e, want, "{len} characters");
        }
    }

    #[test]
    fn bad_character_names_its_column() {
        let bad = P.replacen("5", "a", 1);
        assert_eq!(
            parse_cells(bad.as_bytes()).unwrap_err(),
            ParseError::BadChar {
                column: 2,
                ch: 'a',
                hint: ""
            }
        );
        for c in ["-", "x", "*"] {
            let alias = P.replace('.', c);
            assert_eq!(
                parse_cells(alias.as_bytes()).unwrap_err(),
                ParseError::BadChar {
                    column: 1,
                    ch: c.chars().next().unwrap(),
                    hint: ""
                }
            );
        }
    }

    #[test]
    fn multibyte_character_does_not_panic() {
        // U+FF15 (full-width five): 3 bytes, so the line is 83 bytes but 81 characters.
        let wide = P.replacen('5', "\u{FF15}", 1);
        assert_eq!(wide.len(), 83);
        assert_eq!(
            parse_cells(wide.as_bytes()).unwrap_err(),
            ParseError::BadChar {
                column: 2,
                ch: '\u{FF15}',
                hint: ""
            }
        );
        let e = parse_cells(&[0xff; 81]).unwrap_err();
        assert_eq!(
            e,
            ParseError::BadChar {
                column: 1,
                ch: '\u{FFFD}',
                hint: ""
            }
        );
    }

    #[test]
    fn spreadsheet_damage_is_named() {
        let e = parse_cells(b"4.972E+80").unwrap_err();
        assert!(matches!(e, ParseError::Scientific { .. }), "{e}");
        let zeros_lost =
            "40100050107003960520008000000000017000906800803050620090060543600080700250097100";
        let e = parse_cells(zeros_lost.as_bytes()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("80 characters, expected 81 (all digits"),
            "{e}"
        );
    }

    #[test]
    fn huge_fields_report_their_length_in_characters() {
        let e = parse_cells(&vec![b'1'; 10_000_000]).unwrap_err();
        assert_eq!(
            e,
            ParseError::Length {
                found: 10_000_000,
                hint: ""
            }
        );
        let wide = "\u{FF15}".repeat(5000);
        let e = parse_cells(wide.as_bytes()).unwrap_err();
        assert_eq!(
            e,
            ParseError::Length {
                found: 5000,
                hint: ""
            }
        );
    }

    #[test]
    fn bare_cr_line_endings_are_named() {
        let cr_only = format!("{P}\r{P}\r{P}");
        let e = parse_cells(cr_only.as_bytes()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("245 characters, expected 81 (it holds bare CR"),
            "{e}"
        );
    }

    #[test]
    fn solutions_reject_blanks() {
        let s = "695127384138459672724836915851264739273981546946573821317692458489715263562348190";
        let e = parse_solution(s.as_bytes()).unwrap_err();
        assert_eq!(
            e,
            ParseError::BlankInSolution {
                column: 81,
                ch: '0'
            }
        );
    }

    #[test]
    fn conflicts_list_every_unit() {
        let g = parse_cells(
            b".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..",
        )
        .unwrap();
        assert_eq!(
            g.conflicts().unwrap(),
            "9 twice in row 1 (r1c2, r1c3); 9 twice in col 2 (r1c2, r5c2); 9 twice in box 1 (r1c2, r1c3)"
        );
        assert_eq!(parse_cells(P.as_bytes()).unwrap().conflicts(), None);
    }

    #[test]
    fn fast_conflict_check_agrees_with_the_full_one() {
        let p = parse_cells(P.as_bytes()).unwrap();
        assert!(!p.has_conflict());
        // Put each digit next to each given in turn: a conflict exactly when it repeats one.
        for i in 0..CELLS {
            for d in 1..=9 {
                let mut g = p;
                g.0[i] = d;
                assert_eq!(
                    g.has_conflict(),
                    g.conflicts().is_some(),
                    "cell {i} digit {d}"
                );
            }
        }
    }

    /// Random grids of 0 to 40 givens (digits anywhere, clashing or not) against a check
    /// of every pair of cells in every unit.
    #[test]
    fn fast_conflict_check_agrees_with_every_pair_of_cells() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20);
        let (mut with, mut without) = (0, 0);
        for _ in 0..20_000 {
            let mut g = Grid::EMPTY;
            for _ in 0..rng.random_range(0..40) {
                g.0[rng.random_range(0..CELLS)] = rng.random_range(1..=9);
            }
            let clash = UNITS.iter().any(|u| {
                u.iter()
                    .enumerate()
                    .any(|(i, &a)| u[i + 1..].iter().any(|&b| g.0[a] != 0 && g.0[a] == g.0[b]))
            });
            assert_eq!(g.has_conflict(), clash, "{g}");
            if clash {
                with += 1;
            } else {
                without += 1;
            }
        }
        assert!(with > 1000 && without > 1000, "{with} {without}");
    }

    #[test]
    fn unit_table_covers_each_cell_three_times() {
        let mut seen = [0; CELLS];
        for unit in UNITS {
            for c in unit {
                seen[c] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 3));
        assert_eq!(UNITS[20], [6, 7, 8, 15, 16, 17, 24, 25, 26]);
        assert_eq!(unit_name(20), "box 3");
        assert_eq!(cell_name(80), "r9c9");
        // A cell's peers: the cells sharing one of its three units, itself left out.
        for (cell, peers) in PEERS.iter().enumerate() {
            let mut shared: Vec<u8> = UNITS
                .iter()
                .filter(|u| u.contains(&cell))
                .flatten()
                .filter(|&&c| c != cell)
                .map(|&c| c as u8)
                .collect();
            shared.sort_unstable();
            shared.dedup();
            assert_eq!(peers.as_slice(), shared.as_slice(), "cell {cell}");
        }
    }
}
