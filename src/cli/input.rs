//! Flags shared by every command that reads puzzles: the inputs, their layout, worker
//! threads, memory mapping, shards and the quiet switch, validated into a
//! [`ReadConfig`].

use std::num::NonZeroUsize;

use clap::{Args, ValueEnum};

use sudoku_batch::batch::Cancel;
use sudoku_batch::engine::ReadConfig;
use sudoku_batch::input::{Format, LayoutOptions, Shard};

/// Input layout for `--format` (`--input-format`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Sniff: Parquet by its magic `PAR1`, JSON Lines by a first `{`, CSV by a header naming
    /// a puzzle column, else one puzzle per line.
    Auto,
    /// One 81-character puzzle per line.
    Lines,
    /// A CSV file with a puzzle column.
    Csv,
    /// JSON Lines: one object per line, the puzzle under a key.
    Jsonl,
    /// Apache Parquet (builds with the `parquet` feature): the puzzle in a column.
    Parquet,
}

/// Layout flags shared by every command that reads puzzles (`solve`, `verify`, `bench`).
#[derive(Debug, Args)]
pub struct LayoutArgs {
    /// Input layout.
    #[arg(
        long,
        visible_alias = "input-format",
        value_enum,
        default_value = "auto"
    )]
    pub format: FormatArg,
    /// Puzzle column of a CSV, JSON Lines or Parquet input: header name or key
    /// (case-insensitive) or 1-based index.
    #[arg(long, value_name = "NAME")]
    pub puzzle_column: Option<String>,
    /// The CSV has no header row (pick the puzzle column by index, or it is found by content,
    /// by majority of the first rows, not from row 1 alone).
    /// Like --puzzle-column and --delimiter, it means the input is CSV.
    #[arg(long)]
    pub no_header: bool,
    /// CSV field delimiter: one character, or `tab` [default: sniffed among `,` tab `;` `|`].
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,
    /// Of an archive input (a zip, or a tar plain or compressed) holding several data files,
    /// read this member: its path in the archive or its file name. An archive of one data
    /// file (beside directories and `__MACOSX/`, `.DS_Store`, `._*` entries) needs none.
    #[arg(long, value_name = "NAME")]
    pub member: Option<String>,
}

/// Parses `--delimiter`: one ASCII character other than a quote or a line end, or `tab`.
/// A quote or a line end is one ASCII character, refused for what it is
/// (`--delimiter '"'` is one ASCII character, so "not one ASCII character" would be wrong).
fn parse_delimiter(text: &str) -> Result<u8, String> {
    match text {
        "tab" | "\\t" => Ok(b'\t'),
        _ => match text.as_bytes() {
            [b'"'] => Err(
                "a quote cannot be the delimiter: in CSV `\"` quotes a field \
                           (one holding the delimiter or a line break); use `,`, `;`, `|` or \
                           `tab`"
                    .to_string(),
            ),
            [b'\n' | b'\r'] => Err("a line end cannot be the delimiter: it ends a row; use \
                                   `,`, `;`, `|` or `tab`"
                .to_string()),
            [b] if b.is_ascii() => Ok(*b),
            _ => Err(format!(
                "{text:?} is not one ASCII character (use `tab` for a tab)"
            )),
        },
    }
}

impl LayoutArgs {
    pub fn layout(&self) -> LayoutOptions {
        LayoutOptions {
            format: match self.format {
                FormatArg::Auto => Format::Auto,
                FormatArg::Lines => Format::Lines,
                FormatArg::Csv => Format::Csv,
                FormatArg::Jsonl => Format::Jsonl,
                FormatArg::Parquet => Format::Parquet,
            },
            puzzle_column: self.puzzle_column.clone(),
            solution_column: None,
            // Only verify, augment and overlap --by-solution read stored solutions; they
            // turn this off.
            skip_solutions: true,
            no_header: self.no_header,
            delimiter: self.delimiter,
            member: self.member.clone(),
        }
    }
}

/// Most worker threads accepted by `-j`: far above any core count we target, and low
/// enough that a typo (`-j 99999`) cannot make the OS spawn thousands of threads.
pub const MAX_THREADS: usize = 1024;

/// Parses one `-j` value: a whole number from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => {
            Ok(NonZeroUsize::new(n).expect("n >= 1 was checked"))
        }
        _ => Err(format!(
            "expected a whole number of threads from 1 to {MAX_THREADS}"
        )),
    }
}

/// Parses `--shard K/N`, or `--shard auto` from the cluster scheduler's environment
/// ([`sudoku_batch::cluster`]), `count` being `--shard-count`.
pub fn parse_shard(shard: Option<&str>, count: Option<u32>) -> Result<Option<Shard>, String> {
    match shard {
        None if count.is_some() => Err("--shard-count goes with --shard auto".into()),
        None => Ok(None),
        Some("auto") => {
            let (shard, from) =
                sudoku_batch::cluster::resolve(|name| std::env::var(name).ok(), count)?;
            // Said whatever --quiet says: a re-run's log shows which shard it read.
            eprintln!("sudoku-batch: --shard auto: shard {shard}, from {from}");
            Ok(Some(shard))
        }
        Some(_) if count.is_some() => Err("--shard-count goes with --shard auto; \
             --shard K/N already says N"
            .into()),
        Some(s) => s.parse().map(Some).map_err(|e| format!("--shard {e}")),
    }
}

/// How a command that reads puzzles runs them: shared by [`InputArgs`] and `overlap`'s flags.
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = parse_threads)]
    pub threads: Option<NonZeroUsize>,
    /// No progress bar and no summary on stderr. The records a command names there
    /// (`path:line: reason`, the first ten) are still named.
    #[arg(short, long)]
    pub quiet: bool,
    /// Read files as a stream in bounded blocks (about 1 MiB) instead of memory-mapping them:
    /// safe if a file may change while it is read.
    #[arg(long)]
    pub no_mmap: bool,
}

/// Flags shared by every command that reads puzzles.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files (`-` or none: standard input): lines of 81 cells, a CSV dataset, JSON
    /// Lines or Parquet (in a build with the `parquet` feature); see --format.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// How to read the inputs' layout.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Threads, quiet, memory mapping.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Read only shard K of N (1 <= K <= N) of each input: the K-th of N byte ranges cut at
    /// line starts, with the true record and line numbers of the whole file (with several
    /// inputs, part K of each in turn: joined shards are then in whole-run order once sorted
    /// by record). `auto`: K/N of this task of a Slurm job array or a Kubernetes indexed Job.
    #[arg(long, value_name = "K/N|auto", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// With `--shard auto` in a Kubernetes indexed Job: the number of completions (N).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_count: Option<u32>,
}

impl InputArgs {
    pub fn layout(&self) -> LayoutOptions {
        self.layout.layout()
    }

    /// The inputs, standard input (`-`) when none is named.
    ///
    /// # Errors
    /// Standard input named twice: it can be read only once.
    pub fn inputs(&self) -> Result<Vec<String>, String> {
        if self.inputs.is_empty() {
            Ok(vec!["-".to_string()])
        } else {
            one_stdin(self.inputs.clone())
        }
    }

    fn shard(&self) -> Result<Option<Shard>, String> {
        parse_shard(self.shard.as_deref(), self.shard_count)
    }

    /// The validated input settings for `inputs` (already defaulted to stdin).
    pub fn read_config(&self, inputs: Vec<String>) -> Result<ReadConfig, String> {
        Ok(ReadConfig {
            layout: self.layout(),
            threads: self.threads(),
            quiet: self.engine.quiet,
            mmap: !self.engine.no_mmap,
            shard: self.shard()?,
            inputs,
            cancel: Cancel::default(),
        })
    }

    fn threads(&self) -> usize {
        self.engine.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            NonZeroUsize::get,
        )
    }
}

/// `inputs`, unless standard input (`-`) is named twice.
pub fn one_stdin(inputs: Vec<String>) -> Result<Vec<String>, String> {
    if inputs.iter().filter(|p| *p == "-").count() > 1 {
        return Err("standard input (-) can be read only once".into());
    }
    Ok(inputs)
}
