//! Input: every command reads its puzzles through one entry point, [`Dataset`].
//!
//! ```text
//! Dataset::open(path, &ReadOptions)      open the bytes (source), work out the layout
//!   .number_from(first_record)           (optional) number records after earlier inputs'
//!   .fill(&mut records, max)  ...        records in bounded blocks, in input order;
//!                                        an empty fill is the end (or .take(&mut chunk,
//!                                        max) then chunk.parse(), to parse elsewhere)
//!   .finish()                            the input-change check; what the report says
//! ```
//!
//! ```no_run
//! use sudoku_batch::input::{Dataset, ReadOptions};
//! # fn main() -> Result<(), sudoku_batch::input::InputError> {
//! let mut data = Dataset::open("puzzles.txt", &ReadOptions::default())?;
//! let mut records = Vec::new();
//! loop {
//!     data.fill(&mut records, 1024)?;
//!     if records.is_empty() {
//!         break;
//!     }
//!     for r in &records {
//!         println!("record {} (line {}): {:?}", r.record, r.line, r.puzzle.is_ok());
//!     }
//! }
//! let done = data.finish()?;
//! println!("{} bytes, {} layout", done.bytes, done.layout);
//! # Ok(())
//! # }
//! ```
//!
//! One file per concern:
//! - [`source`]: where bytes come from (a read-only memory map, or a stream: standard input,
//!   a pipe, `--no-mmap`), compression by content and UTF-16 decoding;
//! - [`feed`]: a stream read on a thread of its own (a decoder, a live input), so a block
//!   can be handed over when the producer pauses and a wait can be given up on Ctrl-C;
//! - `blocks`: a stream read in bounded blocks cut at record boundaries, and shards of it;
//! - `dataset`: the entry point, [`Dataset`];
//! - [`layout`]: lines or CSV, which field holds the puzzle and the stored solution;
//! - [`sniff`]: working the layout out from the first lines, the user's options first;
//! - [`record`]: what a data record is — the one rule used by the readers, the shard ranges
//!   and `verify`;
//! - `reader`: the line and CSV readers, cursors over blocks of bytes;
//! - `chunk`: [`RawChunk`], the records of one take, whose lines and CSV rows are parsed
//!   after the take (outside the batch engine's read lock);
//! - `jsonl`: JSON Lines, read as lines whose records are objects;
//! - `parquet` (cargo feature `parquet`): the rows of a Parquet file, in Arrow batches;
//! - [`range`]: `--shard K/N` byte ranges;
//! - [`stamp`]: the check that a mapped file did not change while it was read;
//! - [`guard`]: a mapped file that shrinks while it is read (SIGBUS) stops the run with one
//!   line (exit 2, nothing committed) instead of killing the process.
//!
//! Four layouts are read:
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
//! - **jsonl**: one JSON object per line (found by content: the first byte that is not blank
//!   is `{`); the first object's keys name the columns, chosen as a CSV header's.
//! - **parquet**: a Parquet file (found by its magic `PAR1`); the schema names the columns,
//!   chosen as a CSV header's; `line` is the 1-based row of the file.
//!
//! Every record carries its position: `record` (0-based, data records only, counted over the
//! whole run) and `line` (1-based physical line of the input where the record starts), the
//! same whether the input is read whole or as a shard.

mod archive;
mod blocks;
mod chunk;
mod dataset;
pub mod feed;
pub mod guard;
mod jsonl;
pub mod layout;
#[cfg(feature = "parquet")]
mod parquet;
pub mod range;
mod reader;
pub mod record;
pub mod sniff;
pub mod source;
pub mod stamp;

use std::io;

pub use blocks::BLOCK;
pub use chunk::RawChunk;
pub use dataset::{Dataset, RecordCount};
pub use layout::{
    ColumnFormat, Format, Layout, LayoutOptions, LINES_SOLUTION_SOURCE, PUZZLE_NAMES,
    SOLUTION_NAMES,
};
pub use range::{Shard, ShardRange};
pub use sniff::detect;
pub use source::{Codec, Source};

pub use crate::cancel::Cancel;
use crate::grid::{Grid, ParseError};

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
    /// A memory-mapped file changed while it was read.
    #[error(
        "{path}: {why}: its results may mix old and new bytes, so no output was committed; \
         use --no-mmap for a file that changes"
    )]
    Changed {
        /// The input path as given.
        path: String,
        /// What changed, in words.
        why: String,
    },
    /// A memory-mapped file shrank (or a page of it could not be read) while it was read:
    /// the read faulted, and [`guard`] turned the fault into this error.
    #[error(
        "{path}: {why} while it was memory-mapped, so the run stopped and no output was \
         committed; --no-mmap reads a file that may change without this risk"
    )]
    Truncated {
        /// The input path as given.
        path: String,
        /// What happened, in words (`the file was truncated from 200000000 to 100 bytes`).
        why: String,
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

impl InputError {
    /// A layout error for `path`.
    pub(crate) fn layout(path: &str, reason: String) -> InputError {
        InputError::Layout {
            path: path.to_string(),
            reason,
        }
    }
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
    /// The record's fields as read. CSV: every field of the row, to copy into CSV output.
    /// Lines: only with [`ReadOptions::keep_text`], the puzzle field, the stored-solution
    /// field (empty when absent) and the whole data line (without blanks at its ends or
    /// its line ending). Read the first two with [`Layout::record_text`].
    pub fields: Option<csv::ByteRecord>,
}

impl RawRecord {
    /// The record's puzzle, or why it is not one: its parse error, or clashing givens
    /// ([`ParseError::Conflict`] naming the clash). What canon, dedup, overlap and rate
    /// treat as a puzzle.
    ///
    /// # Errors
    /// The record's parse error, or [`ParseError::Conflict`].
    pub fn checked_puzzle(&self) -> Result<&Grid, ParseError> {
        let puzzle = self.puzzle.as_ref().map_err(Clone::clone)?;
        if puzzle.has_conflict() {
            let why = puzzle
                .conflicts()
                .unwrap_or_else(|| "two givens clash".into());
            return Err(ParseError::Conflict(why));
        }
        Ok(puzzle)
    }
}

/// How to read inputs: the same for every input of a run.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// What the user said about the layout.
    pub layout: LayoutOptions,
    /// Memory-map plain regular files (else read them as streams, in bounded blocks).
    /// Off by default: a map is faster on large files but is guarded against the file
    /// shrinking under it by a process-wide SIGBUS handler ([`guard`]), installed on the
    /// first map, which a program embedding the library must opt into. The binary maps
    /// unless `--no-mmap` is given.
    pub mmap: bool,
    /// Read only this shard of the input (`--shard K/N`); `None` reads all of it.
    pub shard: Option<Shard>,
    /// Lines records keep their puzzle and solution text ([`RawRecord::fields`]), for a
    /// command that quotes rows (`verify`); costs an allocation per record.
    pub keep_text: bool,
    /// Compute the SHA-256 of the input's bytes ([`Finished::sha256`]).
    pub hash: bool,
    /// Bytes per block when a stream is read in blocks (default [`BLOCK`], 1 MiB); a
    /// block holds at least this many bytes and at least one whole line. Tests make it
    /// small to cut inputs into many blocks.
    pub block: usize,
    /// Once set, a wait for more bytes of a live input (standard input, a pipe, a
    /// terminal) is given up and the input is read no further, as if it ended after its
    /// last whole line (without a content hash). The batch engine stops claiming records
    /// once it is set too (the binary sets it on Ctrl-C). Default: a token of its own,
    /// never set.
    pub stop: Cancel,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            layout: LayoutOptions::default(),
            mmap: false,
            shard: None,
            keep_text: false,
            hash: false,
            block: BLOCK,
            stop: Cancel::new(),
        }
    }
}

/// What a command reports about one input once it has been read ([`Dataset::finish`]).
#[derive(Clone, Debug)]
pub struct Finished {
    /// Size of the input as stored (compressed), bytes; 0 when unknown (standard input, a
    /// pipe).
    pub bytes: u64,
    /// `lines` or `csv` ([`Layout::name`]).
    pub layout: &'static str,
    /// How the input was compressed ([`Codec::name`]: `none`, `gzip`, `zstd`, ...).
    pub codec: &'static str,
    /// The number the first record of the run's next input gets: after all of this input's
    /// records, also when only a shard of it was read.
    pub next_record: u64,
    /// SHA-256 of the input's bytes (decompressed, and transcoded from UTF-16), lowercase
    /// hex, when [`ReadOptions::hash`] asked for it and the input was read to its end.
    pub sha256: Option<String>,
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(bytes))
}

/// `bytes` in lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 * bytes.len());
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};

    /// A headerless `puzzle|solution` file, read as lines (which do not split at `|`),
    /// must not give `163 characters, expected 81` with no word of `--no-header`.
    /// Every delimiter the sniffer tries gets the hint, and a lines input of such rows says it.
    #[test]
    fn a_headerless_csv_line_gets_a_no_header_hint() {
        let (layout, recs) = read_all(format!("{P}|{S}\n").as_bytes(), &LayoutOptions::default());
        assert!(matches!(layout, Layout::Lines { .. }), "{layout:?}");
        assert_eq!(
            recs[0].puzzle.as_ref().unwrap_err().to_string(),
            "163 characters, expected 81 (81 cells then '|': a headerless CSV? give --no-header)"
        );
        for &d in &sniff::DELIMITERS {
            let line = format!("{P}{}{S}", d as char);
            match crate::grid::parse_cells(line.as_bytes()) {
                Err(crate::grid::ParseError::Length { found: 163, hint }) => {
                    assert!(
                        hint.ends_with("a headerless CSV? give --no-header)"),
                        "{hint}"
                    );
                    let named = if d == b'\t' {
                        "a tab".to_string()
                    } else {
                        format!("'{}'", d as char)
                    };
                    assert!(hint.contains(&format!("81 cells then {named}:")), "{hint}");
                }
                other => panic!("{:?}: {other:?}", d as char),
            }
        }
        // Not for other lengths, other characters after the cells, or a bad cell.
        for line in [
            format!("{P}|"),
            format!("{P}/{S}"),
            format!("x{}|{S}", &P[1..]),
        ] {
            let hint = match crate::grid::parse_cells(line.as_bytes()) {
                Err(
                    crate::grid::ParseError::Length { hint, .. }
                    | crate::grid::ParseError::BadChar { hint, .. }
                    | crate::grid::ParseError::LengthAndChar { hint, .. },
                ) => hint,
                other => panic!("{line}: {other:?}"),
            };
            assert!(!hint.contains("--no-header"), "{line}: {hint}");
        }
    }

    fn read_all(bytes: &[u8], opts: &LayoutOptions) -> (Layout, Vec<RawRecord>) {
        let opts = ReadOptions {
            layout: opts.clone(),
            ..ReadOptions::default()
        };
        let mut r = Dataset::from_bytes("test", bytes.to_vec(), &opts).unwrap();
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
        (r.layout().clone(), all)
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
        assert_eq!(errs[2], "r1c1: invalid character 'x' (character 1)");
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
                solution: Some(2),
                delimiter: b',',
                width: Some(3),
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
                solution: Some(2),
                delimiter: b',',
                width: Some(3),
            }
        );
        let opts = LayoutOptions {
            puzzle_column: Some("2".into()),
            ..opts
        };
        let (_, recs) = read_all(text.as_bytes(), &opts);
        assert_eq!(recs[0].puzzle.as_ref().unwrap().to_string(), P);
    }

    /// The sniffer's sample skipped a row that follows a `#` comment line: the crate
    /// places such a row's start before the comment, and the sample judged the comment. So
    /// the columns were judged on the one row before the comments, not by majority.
    #[test]
    fn headerless_columns_are_judged_on_the_rows_after_comment_lines_too() {
        let text = format!("{P},{S}\n{}", format!("# c\n{S},{P}\n").repeat(4));
        let opts = LayoutOptions {
            format: Format::Csv,
            no_header: true,
            ..LayoutOptions::default()
        };
        let (layout, recs) = read_all(text.as_bytes(), &opts);
        assert_eq!(
            layout,
            Layout::Csv {
                header: None,
                puzzle: 1,
                solution: Some(0),
                delimiter: b',',
                width: Some(2),
            }
        );
        assert_eq!(recs.len(), 5);
        let lines: Vec<u64> = recs.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 3, 5, 7, 9]);
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
                    skip_solutions: false,
                    delimiter: None,
                    member: None,
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
