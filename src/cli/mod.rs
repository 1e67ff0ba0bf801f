//! Command-line flags (clap derive) and their validation into the library's configs: the
//! only module that knows clap, part of the binary, not of the library.
//!
//! One file per command's flags (`solve.rs`, `verify.rs`, ...), each with its
//! `into_config` (the cross-flag checks); [`input`] holds the flags every reading command
//! shares and [`output`] the checks every writing command shares.

use clap::{Parser, Subcommand};

use sudoku_batch::cmd::Command as Run;

mod augment;
mod bench;
mod canon;
mod dedup;
mod input;
pub mod interrupt;
mod output;
mod overlap;
mod rate;
mod report;
mod solve;
mod verify;

use augment::AugmentArgs;
use bench::BenchArgs;
use canon::CanonArgs;
use dedup::DedupArgs;
use overlap::OverlapArgs;
use rate::RateArgs;
use report::ReportCommand;
use solve::SolveArgs;
use verify::VerifyArgs;

/// Solve, verify and benchmark Sudoku puzzle datasets, millions of puzzles at a time.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the process's arguments, with negative numbers taken as values in every
    /// command, so `--min-time -1` or `-j -1` reach their value checks ("expected ...")
    /// instead of clap's advice to write `-- -1`.
    ///
    /// # Errors
    /// clap's error for a bad command line, `--help` and `--version` (the caller prints it).
    pub fn parse_args() -> Result<Cli, clap::Error> {
        fn allow_negative(cmd: clap::Command) -> clap::Command {
            cmd.allow_negative_numbers(true)
                .mut_subcommands(allow_negative)
        }
        let matches = allow_negative(<Cli as clap::CommandFactory>::command()).try_get_matches()?;
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches)
    }

    /// Checks the flags together and builds what the library runs.
    ///
    /// # Errors
    /// A message naming the flag when flags do not fit together.
    pub fn into_command(self) -> Result<Run, String> {
        Ok(match self.command {
            Command::Solve(args) => Run::Solve(args.into_config()?),
            Command::Verify(args) => Run::Verify(args.into_config()?),
            Command::Bench(args) => Run::Bench(args.into_config()?),
            Command::Augment(args) => Run::Augment(args.into_config()?),
            Command::Rate(args) => Run::Rate(args.into_config()?),
            Command::Canon(args) => Run::Canon(args.into_config()?),
            Command::Dedup(args) => Run::Dedup(args.into_config()?),
            Command::Overlap(args) => Run::Overlap(args.into_config()?),
            Command::Report(command) => command.into_command()?,
        })
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of one or more files; write solutions in input order.
    Solve(SolveArgs),
    /// Time the solver: puzzles/s, µs/puzzle, latency percentiles, guesses, scaling over threads.
    Bench(BenchArgs),
    /// Check every row of a dataset: puzzle shape, clue conflicts, uniqueness, and the stored
    /// solution when there is one; name each row that is wrong and why.
    Verify(VerifyArgs),
    /// Write each record's canonical form (minlex), in input order.
    Canon(CanonArgs),
    /// Keep the first occurrence of each puzzle, exactly or (--iso) up to symmetry.
    Dedup(DedupArgs),
    /// List the test rows that are the same puzzle as a train row, exactly or up to
    /// symmetry (exit 1 when any is found, 0 when the split is clean).
    Overlap(OverlapArgs),
    /// Write K random isomorphs of every puzzle with their solutions, reproducibly from a
    /// seed: source_record,puzzle,solution,transform.
    Augment(AugmentArgs),
    /// Rate every puzzle's difficulty the same for all its isomorphs, as
    /// record,input,line,clues,status,singles_only,rating,guesses_min,guesses_median,guesses_max.
    Rate(RateArgs),
    /// Work with JSON reports.
    #[command(subcommand)]
    Report(ReportCommand),
}

/// The one line `main` prints for a command line clap refuses: clap's first line, the
/// arguments it lists as missing, and its suggestions ("a similar subcommand exists:
/// 'solve'"). A first argument that names a file (`sudoku-batch puzzles.txt`) gets the
/// command it was probably meant for.
pub fn error_line(e: &clap::Error, args: &[std::ffi::OsString]) -> String {
    let first_arg = args.get(1).map(std::ffi::OsString::as_os_str);
    if e.kind() == clap::error::ErrorKind::InvalidUtf8 {
        // Trial 11, finding 9: clap's "invalid UTF-8 was detected in one or more arguments"
        // named none of them.
        if let Some(line) = not_utf8(args) {
            return line;
        }
    }
    if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
        if let Some(arg) = first_arg.filter(|a| std::path::Path::new(a).is_file()) {
            let arg = arg.to_string_lossy();
            return format!(
                "'{arg}' is not a command; to solve that file: sudoku-batch solve {arg}"
            );
        }
    }
    let text = e.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("bad arguments");
    let mut out = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // Missing arguments are listed on indented lines below the first: keep them.
    let listed: Vec<&str> = lines
        .take_while(|l| l.starts_with(' ') && !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if !listed.is_empty() {
        out = format!("{out} {}", listed.join(", "));
    }
    for tip in text.lines().filter_map(|l| l.trim().strip_prefix("tip: ")) {
        out = format!("{out}; {tip}");
    }
    format!("{out} (see --help)")
}

/// The message for the first argument in `args` (the program name first) that is not
/// valid UTF-8: which it is, as far as it can be shown, and what to do. Paths are text in
/// the reports, the stats and the messages, so such a name is refused (exit 2) rather than
/// read.
fn not_utf8(args: &[std::ffi::OsString]) -> Option<String> {
    let (i, arg) = (args.iter().enumerate().skip(1)).find(|(_, a)| a.to_str().is_none())?;
    let shown: String = arg.to_string_lossy().escape_debug().collect();
    Some(format!(
        "argument {i} ('{shown}', a byte that is not UTF-8 shown as U+FFFD) is not valid \
         UTF-8: file names must be UTF-8; rename the file or link it under a UTF-8 name (ln \
         -s), or redirect it: an input as `- < FILE`, an output as `-o - > FILE`"
    ))
}

/// Parses a `--seed` value (`augment`, `rate`, `bench`): a whole number that fits in 64
/// bits. Its own message for anything else, so `--seed -1` is not told of an "invalid
/// digit" (a new-user trial finding).
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected a whole number from 0 to {}", u64::MAX))
}
