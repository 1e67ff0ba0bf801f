//! Table output: rows of typed columns (grids, integers, ratings, words) written as CSV,
//! text lines, JSON Lines or a numpy `.npz` archive, the format chosen by the output's
//! extension or `--output-format` (issue 13). `augment` and `rate` write through it.
//!
//! A command declares its columns once ([`Column`]) and hands each row as a slice of
//! [`Value`]s in that order; the writer for the chosen [`TableFormat`] turns them into bytes.

use std::io::{self, Write};

use super::Target;
use crate::grid::{Grid, CELLS};
use crate::trace::Trace;

/// What a column holds, which decides how each format stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A grid: 81 digits in text formats (`0` = blank), 81 `uint8` cells in `.npz`.
    Grid,
    /// A whole number, 0 to 2⁶³ − 1 (`int64` in `.npz`, −1 there for a missing value).
    Int,
    /// A real number, written with 4 decimals (`float64` in `.npz`, NaN for a missing value).
    Float,
    /// A word or a path (a fixed-width byte string `|S<n>` in `.npz`).
    Text,
    /// `true`/`false` (`bool` in `.npz`, false for a missing value).
    Bool,
    /// A JSON value written as it is in JSON Lines, as text in the other formats (`trace`'s
    /// steps).
    Json,
    /// A fixed-length row of whole numbers 0..=255 (the given length): an N×length `uint8`
    /// array in `.npz` (zeros for a missing value), a JSON array in JSON Lines, the numbers
    /// separated by spaces in CSV, text and Parquet (`trace`'s Shah layout).
    Bytes(usize),
    /// `trace`'s steps ([`Value::Steps`]): a nested column in Parquet, `List<Struct>` with
    /// one struct per step (`output::steps_arrow`); in every other format the JSON array of
    /// [`crate::trace::json::steps_json`], as a [`Kind::Json`] column holds it.
    Steps,
}

/// One column of a table: its header name and kind.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// Header name (CSV header, JSON key, `.npz` array name).
    pub name: &'static str,
    /// What it holds.
    pub kind: Kind,
}

/// The key that every per-record table opens with, in this order: [`RECORD`], [`INPUT`],
/// [`LINE`] (`record,input,line`, as `solve --stats` and `verify --rejects` write them), so a
/// row of a run over several inputs names the file it came from.
pub const RECORD: Column = Column {
    name: "record",
    kind: Kind::Int,
};

/// The input a record was read from: its path as given, `-` for standard input (see
/// [`RECORD`]).
pub const INPUT: Column = Column {
    name: "input",
    kind: Kind::Text,
};

/// 1-based line of the record in its input (see [`RECORD`]).
pub const LINE: Column = Column {
    name: "line",
    kind: Kind::Int,
};

/// One cell of a row, of its column's [`Kind`], or [`Value::Null`] for a missing value
/// (an empty CSV field, JSON `null`).
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// A grid (`[u8; 81]`, row-major, 0 = blank).
    Grid(&'a Grid),
    /// A whole number.
    Int(u64),
    /// A real number.
    Float(f64),
    /// A word or path.
    Text(&'a str),
    /// A flag.
    Bool(bool),
    /// A JSON value, as text ([`Kind::Json`]).
    Json(&'a str),
    /// Whole numbers 0..=255 ([`Kind::Bytes`]).
    Bytes(&'a [u8]),
    /// A trace's steps ([`Kind::Steps`]): all of them, or with `placements_only` those that
    /// [`Trace::kept_steps`] keeps.
    Steps {
        /// The trace.
        trace: &'a Trace,
        /// Keep only the placements and guesses that stand in the solution.
        placements_only: bool,
    },
    /// No value.
    Null,
}

impl Value<'_> {
    /// The JSON text of a [`Value::Json`], or of a [`Value::Steps`] (made now, by
    /// [`crate::trace::json::steps_json`]); `None` for any other value.
    pub(crate) fn json_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        match *self {
            Value::Json(t) => Some(t.into()),
            Value::Steps {
                trace,
                placements_only,
            } => {
                let mut text = String::new();
                crate::trace::json::steps_json(trace, placements_only, &mut text);
                Some(text.into())
            }
            _ => None,
        }
    }
}

/// An output format for tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One line per row, no header: the grid columns separated by a space (`puzzle
    /// solution`, which the lines reader reads back), or every column when the table has
    /// no grid column; a missing value is [`MISSING_TXT`], so every row keeps its line and
    /// its column count.
    Txt,
    /// JSON Lines: one object per row, keys in column order.
    Jsonl,
    /// A numpy `.npz` archive (uncompressed zip of `.npy` arrays), one array per column;
    /// grid columns become N×81 `uint8` arrays named in the plural (`puzzles`, `solutions`).
    Npz,
    /// Apache Parquet (cargo feature `parquet`): one column per table column, grids as
    /// 81-digit strings, pages compressed as [`ParquetCompression`] says.
    Parquet,
}

/// How the pages of a Parquet output are compressed (`--parquet-compression`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ParquetCompression {
    /// Not compressed: the fastest to write (1.05x CSV's CPU time against 2.4x with Snappy,
    /// see `output::parquet`), the file about 1.57x Snappy's size.
    #[default]
    None,
    /// Snappy.
    Snappy,
    /// Zstandard, level 1.
    Zstd,
}

impl TableFormat {
    /// The format that an output path's extension names (`.csv`, `.txt`, `.jsonl`, `.npz`,
    /// `.parquet`, case-insensitive), or `None` (standard output, a device, another
    /// extension).
    pub fn from_path(path: &str) -> Option<TableFormat> {
        let ext = std::path::Path::new(path).extension()?.to_str()?;
        Self::from_name(ext)
    }

    /// The format an output at `path` is asked for in: `format` (`--output-format`) when
    /// given, else the one its extension names ([`TableFormat::from_path`]), else `None`.
    /// Every command decides from this: [`TableFormat::for_rows`], `augment` and `rate`
    /// (CSV for `None`), and the check that `--parquet-compression` is asked of a Parquet
    /// output.
    pub fn of_output(path: &str, format: Option<TableFormat>) -> Option<TableFormat> {
        format.or_else(|| TableFormat::from_path(path))
    }

    /// The table format of a command whose own output follows the input's layout (`solve`,
    /// `canon`): the format `format` (`--output-format`) names, else the path's extension,
    /// when that is not the layout's own output: `jsonl`, `npz` or `parquet` always, `csv` on
    /// a lines input (`lines_input`), `txt` on a CSV (or JSON Lines, Parquet) input. `None`
    /// keeps the layout's own output: `txt` on a lines input, `csv` on a CSV input, any
    /// other name, standard output. The flag and the extension decide alike, so a flag that
    /// agrees with the extension never changes the output.
    pub fn for_rows(
        path: &str,
        format: Option<TableFormat>,
        lines_input: bool,
    ) -> Option<TableFormat> {
        TableFormat::of_output(path, format).filter(|f| match f {
            TableFormat::Csv => lines_input,
            TableFormat::Txt => !lines_input,
            TableFormat::Jsonl | TableFormat::Npz | TableFormat::Parquet => true,
        })
    }

    /// The format's name, as `--output-format` spells it: `csv`, `txt`, `jsonl`, `npz`,
    /// `parquet`.
    pub fn name(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Txt => "txt",
            TableFormat::Jsonl => "jsonl",
            TableFormat::Npz => "npz",
            TableFormat::Parquet => "parquet",
        }
    }

    /// The format called `name` (`csv`, `txt`, `jsonl`, `npz`, `parquet`, case-insensitive).
    pub fn from_name(name: &str) -> Option<TableFormat> {
        match name.to_ascii_lowercase().as_str() {
            "csv" => Some(TableFormat::Csv),
            "txt" => Some(TableFormat::Txt),
            "jsonl" | "ndjson" => Some(TableFormat::Jsonl),
            "npz" => Some(TableFormat::Npz),
            "parquet" => Some(TableFormat::Parquet),
            _ => None,
        }
    }
}

/// A data format that this tool does not write, named by an output's extension (`.npy`,
/// `.json`, `.pq`, `.feather`, `.arrow`, `.h5`, `.hdf5`, `.xlsx`, `.xls`, `.pkl`, `.pickle`,
/// case-insensitive): what it is, and the nearest [`TableFormat`] that the tool writes, when
/// there is one. An output under such a name would silently hold CSV,
/// so [`Target::create`] refuses it. `None` for every other name.
pub fn unwritten_format(path: &str) -> Option<(&'static str, Option<TableFormat>)> {
    let ext = std::path::Path::new(path).extension()?.to_str()?;
    Some(match ext.to_ascii_lowercase().as_str() {
        "npy" => ("a numpy array", Some(TableFormat::Npz)),
        "json" => ("one JSON document", Some(TableFormat::Jsonl)),
        "pq" => ("Parquet under a short name", Some(TableFormat::Parquet)),
        "feather" | "arrow" => ("Arrow IPC", Some(TableFormat::Parquet)),
        "xlsx" | "xls" => ("Excel", Some(TableFormat::Csv)),
        "h5" | "hdf5" => ("HDF5", None),
        "pkl" | "pickle" => ("a Python pickle", None),
        _ => return None,
    })
}

/// A missing value (a [`Value::Null`]) in the text format: a visible word, so that a row
/// whose grids are all missing is not a blank line (which readers skip, shifting every later
/// row) and a space-separated row keeps its column count.
pub const MISSING_TXT: &str = "-";

/// Writes rows of one table, in order.
pub trait TableWriter: Send {
    /// Writes one row: one value per column, in column order.
    ///
    /// # Errors
    /// Any I/O error of the destination.
    fn write_row(&mut self, row: &[Value<'_>]) -> io::Result<()>;
    /// Starts writing what is written so far to disk ([`Target::start_writeback`]).
    fn start_writeback(&self);
    /// Writes whatever the format keeps until the end (the `.npz` arrays) and gives back
    /// the destination, to commit.
    ///
    /// # Errors
    /// Any I/O error of the destination.
    fn finish(self: Box<Self>) -> io::Result<Target>;
}

/// A writer of `columns` in `format` to `out`; CSV writes its header at once. `parquet`:
/// how a Parquet output's pages are compressed (other formats ignore it).
///
/// # Errors
/// An I/O error writing the header; Parquet in a build without the `parquet` feature.
pub fn table_writer(
    format: TableFormat,
    out: Target,
    columns: &'static [Column],
    parquet: ParquetCompression,
) -> io::Result<Box<dyn TableWriter + Send>> {
    Ok(match format {
        TableFormat::Csv => Box::new(TextTable::new(out, columns, b',', true, "")?),
        TableFormat::Txt => Box::new(TextTable::new(out, columns, b' ', false, MISSING_TXT)?),
        TableFormat::Jsonl => Box::new(super::jsonl::JsonlTable::new(out, columns)),
        TableFormat::Npz => Box::new(super::npz::NpzTable::new(out, columns)?),
        #[cfg(feature = "parquet")]
        TableFormat::Parquet => Box::new(super::parquet::ParquetTable::new(out, columns, parquet)?),
        #[cfg(not(feature = "parquet"))]
        TableFormat::Parquet => {
            drop((out, parquet));
            return Err(io::Error::other(
                "this build writes no Parquet: rebuild with `cargo build --release --features parquet`",
            ));
        }
    })
}

/// CSV (`,`, with a header) or text lines (` `, no header, grid columns only when there are
/// any). Rows are put together in a reused buffer with `itoa` and byte copies: the
/// `augment` hot path writes millions of them a second.
struct TextTable {
    out: Target,
    columns: &'static [Column],
    /// Which columns are written.
    shown: Vec<bool>,
    sep: u8,
    /// What a [`Value::Null`] is written as.
    missing: &'static str,
    line: Vec<u8>,
}

impl TextTable {
    fn new(
        mut out: Target,
        columns: &'static [Column],
        sep: u8,
        header: bool,
        missing: &'static str,
    ) -> io::Result<TextTable> {
        let grids = columns.iter().any(|c| c.kind == Kind::Grid);
        let shown = columns
            .iter()
            .map(|c| header || !grids || c.kind == Kind::Grid)
            .collect();
        if header {
            let names: Vec<&str> = columns.iter().map(|c| c.name).collect();
            out.write_all(names.join(",").as_bytes())?;
            out.write_all(b"\n")?;
        }
        Ok(TextTable {
            out,
            columns,
            shown,
            sep,
            missing,
            line: Vec::with_capacity(512),
        })
    }
}

/// Appends `v` as text: grids as 81 digits (`0` = blank), numbers in decimal (reals with 4
/// decimals), nothing for [`Value::Null`]. Text is appended as it is; the caller quotes it.
pub(crate) fn push_plain(line: &mut Vec<u8>, v: &Value<'_>) {
    match v {
        Value::Grid(g) => {
            let mut digits = [0u8; CELLS];
            g.write_digits(&mut digits);
            line.extend_from_slice(&digits);
        }
        Value::Int(n) => line.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes()),
        Value::Float(x) if x.is_finite() => {
            // `write!` to a Vec cannot fail.
            let _ = write!(line, "{x:.4}");
        }
        Value::Float(_) | Value::Null => {}
        Value::Text(t) => line.extend_from_slice(t.as_bytes()),
        Value::Json(_) | Value::Steps { .. } => {
            let text = v.json_text().expect("a JSON value");
            line.extend_from_slice(text.as_bytes());
        }
        Value::Bytes(b) => {
            for (i, n) in b.iter().enumerate() {
                if i > 0 {
                    line.push(b' ');
                }
                line.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes());
            }
        }
        Value::Bool(b) => line.extend_from_slice(if *b { b"true" } else { b"false" }),
    }
}

/// Appends `text` as one CSV field, quoted (RFC 4180) only when it holds a separator, a
/// quote or a line break.
fn push_csv_text(line: &mut Vec<u8>, text: &str, sep: u8) {
    if !text
        .bytes()
        .any(|b| b == sep || matches!(b, b'"' | b'\n' | b'\r'))
    {
        line.extend_from_slice(text.as_bytes());
        return;
    }
    line.push(b'"');
    for b in text.bytes() {
        if b == b'"' {
            line.push(b'"');
        }
        line.push(b);
    }
    line.push(b'"');
}

impl TableWriter for TextTable {
    fn write_row(&mut self, row: &[Value<'_>]) -> io::Result<()> {
        debug_assert_eq!(row.len(), self.columns.len());
        self.line.clear();
        let mut first = true;
        for (v, &shown) in row.iter().zip(&self.shown) {
            if !shown {
                continue;
            }
            if !first {
                self.line.push(self.sep);
            }
            first = false;
            match v {
                Value::Text(t) => push_csv_text(&mut self.line, t, self.sep),
                Value::Json(_) | Value::Steps { .. } => {
                    let text = v.json_text().expect("a JSON value");
                    push_csv_text(&mut self.line, &text, self.sep);
                }
                Value::Null => self.line.extend_from_slice(self.missing.as_bytes()),
                v => push_plain(&mut self.line, v),
            }
        }
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    fn start_writeback(&self) {
        self.out.start_writeback();
    }

    fn finish(self: Box<Self>) -> io::Result<Target> {
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: &[Column] = &[
        Column {
            name: "record",
            kind: Kind::Int,
        },
        Column {
            name: "puzzle",
            kind: Kind::Grid,
        },
        Column {
            name: "note",
            kind: Kind::Text,
        },
        Column {
            name: "rating",
            kind: Kind::Float,
        },
        Column {
            name: "easy",
            kind: Kind::Bool,
        },
    ];

    fn written(format: TableFormat, rows: &[[Value<'_>; 5]]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t");
        let target = Target::create(path.to_str().unwrap()).unwrap();
        let mut w = table_writer(format, target, COLUMNS, ParquetCompression::None).unwrap();
        for r in rows {
            w.write_row(r).unwrap();
        }
        w.finish().unwrap().commit().unwrap();
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn csv_rows_read_back_field_by_field() {
        let g = Grid([3; CELLS]);
        let rows = [
            [
                Value::Int(7),
                Value::Grid(&g),
                Value::Text("a, \"b\"\nc"),
                Value::Float(1.23456),
                Value::Bool(true),
            ],
            [
                Value::Int(u64::MAX >> 1),
                Value::Null,
                Value::Text("plain"),
                Value::Null,
                Value::Bool(false),
            ],
        ];
        let text = written(TableFormat::Csv, &rows);
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(
            rdr.headers().unwrap(),
            vec!["record", "puzzle", "note", "rating", "easy"]
        );
        let got: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
        let digits = "3".repeat(81);
        assert_eq!(
            got[0].iter().collect::<Vec<_>>(),
            ["7", &digits, "a, \"b\"\nc", "1.2346", "true"]
        );
        let max = (u64::MAX >> 1).to_string();
        assert_eq!(
            got[1].iter().collect::<Vec<_>>(),
            [max.as_str(), "", "plain", "", "false"]
        );
    }

    #[test]
    fn txt_keeps_only_grid_columns() {
        let g = Grid([0; CELLS]);
        let row = [
            Value::Int(1),
            Value::Grid(&g),
            Value::Text("x"),
            Value::Float(0.0),
            Value::Bool(true),
        ];
        assert_eq!(
            written(TableFormat::Txt, &[row]),
            format!("{}\n", "0".repeat(81))
        );
    }

    /// `canon --output-format txt` wrote a lone space for a record that is
    /// not a puzzle (both grids missing), so the file read back had fewer records.
    #[test]
    fn txt_writes_a_missing_grid_as_a_dash_and_keeps_every_line() {
        let g = Grid([5; CELLS]);
        let row = |p, rating| {
            [
                Value::Int(0),
                p,
                Value::Text("x"),
                rating,
                Value::Bool(false),
            ]
        };
        let rows = [
            row(Value::Null, Value::Null),
            row(Value::Grid(&g), Value::Null),
            row(Value::Grid(&g), Value::Float(1.0)),
        ];
        let fives = "5".repeat(81);
        assert_eq!(
            written(TableFormat::Txt, &rows),
            format!("-\n{fives}\n{fives}\n")
        );
        // CSV keeps an empty field for a missing value.
        let csv = written(TableFormat::Csv, &rows[..1]);
        assert_eq!(csv.lines().nth(1), Some("0,,x,,false"));
    }

    /// A [`Kind::Steps`] column outside Parquet holds the steps' JSON array, as `trace`'s
    /// [`Kind::Json`] column does: raw in JSON Lines, one quoted field in CSV.
    #[test]
    fn steps_outside_parquet_are_the_json_array() {
        const STEPS: &[Column] = &[Column {
            name: "trace",
            kind: Kind::Steps,
        }];
        let mut puzzle = [0u8; CELLS];
        puzzle[..9].copy_from_slice(&[0, 2, 3, 4, 5, 6, 7, 8, 9]);
        let trace = crate::trace::trace(&Grid(puzzle));
        let mut json = String::new();
        crate::trace::json::steps_json(&trace, false, &mut json);
        assert!(json.contains(r#""technique":"#), "{json}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t");
        for format in [TableFormat::Jsonl, TableFormat::Csv] {
            let target = Target::create(path.to_str().unwrap()).unwrap();
            let mut w = table_writer(format, target, STEPS, ParquetCompression::None).unwrap();
            let steps = Value::Steps {
                trace: &trace,
                placements_only: false,
            };
            w.write_row(&[steps]).unwrap();
            w.finish().unwrap().commit().unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            let want = match format {
                TableFormat::Jsonl => format!("{{\"trace\":{json}}}\n"),
                _ => format!("trace\n\"{}\"\n", json.replace('"', "\"\"")),
            };
            assert_eq!(text, want, "{format:?}");
        }
    }

    #[test]
    fn formats_come_from_extensions() {
        assert_eq!(TableFormat::from_path("a/b.CSV"), Some(TableFormat::Csv));
        assert_eq!(TableFormat::from_path("b.jsonl"), Some(TableFormat::Jsonl));
        assert_eq!(TableFormat::from_path("b.npz"), Some(TableFormat::Npz));
        assert_eq!(TableFormat::from_path("b.txt"), Some(TableFormat::Txt));
        assert_eq!(TableFormat::from_path("-"), None);
        assert_eq!(TableFormat::from_path("/dev/null"), None);
        assert_eq!(TableFormat::from_path("x.parquet.gz"), None);
        // `solve` and `canon`: the extension decides unless it names the layout's own output.
        assert_eq!(
            TableFormat::for_rows("o.csv", None, true),
            Some(TableFormat::Csv)
        );
        assert_eq!(TableFormat::for_rows("o.csv", None, false), None);
        assert_eq!(
            TableFormat::for_rows("o.txt", None, false),
            Some(TableFormat::Txt)
        );
        assert_eq!(TableFormat::for_rows("o.txt", None, true), None);
        assert_eq!(
            TableFormat::for_rows("o.npz", None, true),
            Some(TableFormat::Npz)
        );
        assert_eq!(TableFormat::for_rows("o.out", None, true), None);
        let jsonl = Some(TableFormat::Jsonl);
        assert_eq!(TableFormat::for_rows("o.csv", jsonl, true), jsonl);
        // The flag decides as the extension does: `csv` on a CSV input and `txt` on a lines
        // input keep the layout's own output, whatever the name.
        let (csv, txt) = (Some(TableFormat::Csv), Some(TableFormat::Txt));
        assert_eq!(TableFormat::for_rows("-", csv, false), None);
        assert_eq!(TableFormat::for_rows("o.out", csv, true), csv);
        assert_eq!(TableFormat::for_rows("o.csv", txt, true), None);
        assert_eq!(TableFormat::for_rows("-", txt, false), txt);
        // `name` spells what `from_name` reads.
        for f in [
            TableFormat::Csv,
            TableFormat::Txt,
            TableFormat::Jsonl,
            TableFormat::Npz,
            TableFormat::Parquet,
        ] {
            assert_eq!(TableFormat::from_name(f.name()), Some(f));
        }
    }
}
