//! Input: every command reads its puzzles through one entry point, [`Dataset`].
//!
//! ```text
//! Dataset::open(path, &ReadOptions)      open the bytes (source), work out the layout
//!   .number_from(first_record)           (optional) number records after earlier inputs'
//!   .fill(&mut records, max)  ...        records in bounded blocks, in input order;
//!                                        an empty fill is the end
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
//! - [`source`]: where bytes come from (a read-only memory map, or bytes read from standard
//!   input, a pipe or a file with `--no-mmap`);
//! - [`layout`]: lines or CSV, which field holds the puzzle and the stored solution;
//! - [`sniff`]: working the layout out from the first lines, the user's options first;
//! - [`record`]: what a data record is — the one rule used by the readers, the shard ranges
//!   and `verify`;
//! - `reader`: the line and CSV readers, cursors over blocks of bytes;
//! - [`range`]: `--shard K/N` byte ranges;
//! - [`stamp`]: the check that a mapped file did not change while it was read.
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
//! Every record carries its position: `record` (0-based, data records only, counted over the
//! whole run) and `line` (1-based physical line of the input where the record starts), the
//! same whether the input is read whole or as a shard.

pub mod layout;
pub mod range;
mod reader;
pub mod record;
pub mod sniff;
pub mod source;
pub mod stamp;

use std::io;

pub use layout::{Format, Layout, LayoutOptions, PUZZLE_NAMES, SOLUTION_NAMES};
pub use range::{Shard, ShardRange};
pub use sniff::detect;
pub use source::Source;

use crate::grid::{Grid, ParseError};
use reader::Cursor;
use stamp::Stamp;

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
    /// Lines: only with [`ReadOptions::keep_text`], the puzzle field and the stored-solution
    /// field (empty when absent). Read them with [`Layout::record_text`].
    pub fields: Option<csv::ByteRecord>,
}

/// How to read inputs: the same for every input of a run.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// What the user said about the layout.
    pub layout: LayoutOptions,
    /// Memory-map regular files (else read them).
    pub mmap: bool,
    /// Read only this shard of the input (`--shard K/N`); `None` reads all of it.
    pub shard: Option<Shard>,
    /// Lines records keep their puzzle and solution text ([`RawRecord::fields`]), for a
    /// command that quotes rows (`verify`); costs an allocation per record.
    pub keep_text: bool,
    /// Compute the SHA-256 of the input's bytes ([`Finished::sha256`]).
    pub hash: bool,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            layout: LayoutOptions::default(),
            mmap: true,
            shard: None,
            keep_text: false,
            hash: false,
        }
    }
}

/// What a command reports about one input once it has been read ([`Dataset::finish`]).
#[derive(Clone, Debug)]
pub struct Finished {
    /// Size of the input, bytes.
    pub bytes: u64,
    /// `lines` or `csv` ([`Layout::name`]).
    pub layout: &'static str,
    /// The number the first record of the run's next input gets: after all of this input's
    /// records, also when only a shard of it was read.
    pub next_record: u64,
    /// SHA-256 of the input's bytes, lowercase hex, when [`ReadOptions::hash`] asked for it.
    pub sha256: Option<String>,
}

/// One input being read: its bytes, its layout and a cursor over its records (see the
/// module documentation for the sequence of calls).
pub struct Dataset {
    path: String,
    source: Source,
    layout: Layout,
    /// Size and time before the map was made, for the change check (mapped files only).
    stamp: Option<Stamp>,
    cursor: Cursor,
    /// One past the last byte this dataset reads (the end of its shard).
    end: usize,
    /// Records of the whole input before the first one read (a shard's offset).
    skipped_records: u64,
    /// The number of the input's first record ([`Dataset::number_from`]).
    base: u64,
    shard: Option<Shard>,
    hash: bool,
}

impl Dataset {
    /// Opens `path` (`-` = standard input), reads what is needed to work out its layout and
    /// places the cursor at its first record (of the shard, with one). Regular files are
    /// memory-mapped when `opts.mmap` is true; everything else is read.
    ///
    /// # Errors
    /// [`InputError::Io`] when the input cannot be opened or read, [`InputError::Directory`]
    /// for a directory, [`InputError::Layout`] when the layout cannot be worked out or does
    /// not fit the options.
    pub fn open(path: &str, opts: &ReadOptions) -> Result<Dataset, InputError> {
        let stamp = Stamp::of(path);
        let source = source::open(path, opts.mmap)?;
        let stamp = stamp.filter(|_| matches!(source, Source::Mapped(_)));
        Dataset::new(path, source, stamp, opts)
    }

    /// A dataset over `bytes` already in memory, named `path` in messages (for tests and
    /// fuzzing: the same readers as [`Dataset::open`]).
    ///
    /// # Errors
    /// [`InputError::Layout`] as for [`Dataset::open`].
    pub fn from_bytes(
        path: &str,
        bytes: Vec<u8>,
        opts: &ReadOptions,
    ) -> Result<Dataset, InputError> {
        Dataset::new(path, Source::Owned(bytes), None, opts)
    }

    fn new(
        path: &str,
        source: Source,
        stamp: Option<Stamp>,
        opts: &ReadOptions,
    ) -> Result<Dataset, InputError> {
        let source = source::decode_utf16(source);
        let bytes = source.bytes();
        let layout =
            detect(bytes, &opts.layout).map_err(|reason| InputError::layout(path, reason))?;
        let range = match opts.shard {
            Some(s) => range::range(bytes, &layout, s),
            None => ShardRange::whole(bytes, &layout),
        };
        let cursor = Cursor::new(
            &layout,
            range.start,
            range.first_line,
            range.first_record,
            opts.keep_text,
        );
        Ok(Dataset {
            path: path.to_string(),
            end: range.end,
            skipped_records: range.first_record,
            base: 0,
            source,
            layout,
            stamp,
            cursor,
            shard: opts.shard,
            hash: opts.hash,
        })
    }

    /// Numbers this input's records from `first_record` (the count of the run's earlier
    /// inputs' records; a shard adds the records of the input before it). Call it before
    /// the first [`Dataset::fill`].
    pub fn number_from(&mut self, first_record: u64) {
        self.base = first_record;
        self.cursor
            .set_next_record(first_record + self.skipped_records);
    }

    /// The path as given (`-` for standard input).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The input's layout, as detected or chosen.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Size of the input, bytes (for a progress bar over [`Dataset::consumed`]).
    pub fn len(&self) -> u64 {
        self.source.bytes().len() as u64
    }

    /// Whether the input has no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Clears `out` and fills it with up to `max` records, in input order. An empty `out`
    /// means the end of the input (or of its shard).
    ///
    /// # Errors
    /// [`InputError::Csv`] when the CSV reader fails; bad records are records with an error.
    pub fn fill(&mut self, out: &mut Vec<RawRecord>, max: usize) -> Result<(), InputError> {
        out.clear();
        let block = &self.source.bytes()[..self.end];
        self.cursor
            .fill(block, out, max)
            .map_err(|source| InputError::Csv {
                path: self.path.clone(),
                line: source.position().map_or(0, csv::Position::line),
                source,
            })
    }

    /// Bytes of the input consumed so far (for a progress bar).
    pub fn consumed(&self) -> u64 {
        self.cursor.pos() as u64
    }

    /// The number the next record will get.
    pub fn next_record(&self) -> u64 {
        self.cursor.next_record()
    }

    /// Ends the reading: checks that a memory-mapped file did not change while it was
    /// read, and says what the report needs. The map stays alive until the dataset is
    /// dropped (a caller may drop it beside other work).
    ///
    /// # Errors
    /// [`InputError::Changed`] when the file changed size or time while it was mapped.
    pub fn finish(&mut self) -> Result<Finished, InputError> {
        if let Some(why) = self.stamp.and_then(|s| s.changed(&self.path)) {
            return Err(InputError::Changed {
                path: self.path.clone(),
                why,
            });
        }
        let bytes = self.source.bytes();
        // A shard numbers the next input's records after all of this input's, as the whole
        // run does.
        let next_record = match self.shard {
            None => self.cursor.next_record(),
            Some(_) => self.base + range::total_records(bytes, &self.layout),
        };
        Ok(Finished {
            bytes: self.len(),
            layout: self.layout.name(),
            next_record,
            sha256: self.hash.then(|| sha256_hex(bytes)),
        })
    }
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};

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
                solution: Some(2),
                delimiter: b',',
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
                    delimiter: None,
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
