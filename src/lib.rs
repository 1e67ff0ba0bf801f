//! sudoku-batch: solve, verify and benchmark Sudoku puzzle datasets.
//!
//! The pipeline: [`input`] opens a file (memory-mapped) and works out its layout (one
//! puzzle per line, or a CSV dataset), then cuts it into records; [`batch`] solves the
//! records in chunks claimed by every worker of a rayon pool with the stack-allocated
//! bitmask [`solver`], and writes results in input order through [`output`]; [`report`] gathers
//! counts, latency percentiles and guesses. [`input::range`] cuts an input into `--shard K/N` byte
//! ranges, and [`merge`] adds shard reports back together. [`bench`](mod@bench) times the solver alone
//! on parsed (optionally [`isomorph`]-shuffled) puzzles and writes through [`export`].
//! [`verify`] runs the batch engine to check a dataset's puzzles and stored solutions row by
//! row.
//!
//! ```
//! use sudoku_batch::{grid::parse_cells, solver::solve};
//! let line = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
//! let puzzle = parse_cells(line.as_bytes()).unwrap();
//! let found = solve(&puzzle, 2);
//! assert_eq!(found.count, 1);
//! let solution = found.grid.unwrap();
//! assert!(solution.is_complete_valid() && solution.keeps_givens(&puzzle));
//! ```

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, clippy::undocumented_unsafe_blocks)]

pub mod batch;
pub mod bench;
pub mod canon;
pub mod cli;
pub mod cluster;
pub mod dataset;
pub mod export;
pub mod failure;
pub mod grid;
pub mod input;
pub mod interrupt;
pub mod isomorph;
pub mod merge;
pub mod output;
pub mod report;
pub mod solver;
pub mod summary;
pub mod verify;

use std::process::ExitCode;

/// A closed standard output ends `solve` and `verify` quietly (exit 0, see [`failure`]), but
/// the files they were also asked to write (`outputs`: flag and path) are then not
/// committed: says which, in one line, so a `--stats` file missing after
/// `solve ... -o - --stats s.csv | head` is not a surprise.
fn note_dropped_outputs(outputs: &[(&str, Option<&String>)]) {
    let files: Vec<&str> = outputs
        .iter()
        .filter(|(_, p)| p.is_some_and(|p| p != "-"))
        .map(|(flag, _)| *flag)
        .collect();
    if !files.is_empty() {
        eprintln!(
            "sudoku-batch: note: standard output was closed before the end, so {} {} not written",
            files.join(" and "),
            if files.len() == 1 { "was" } else { "were" }
        );
    }
}

/// Runs a parsed command line and returns the process exit code. `solve`: 0 when every
/// record was solved, 1 when some record is `multiple`, `unsolvable` or `invalid`. `verify`:
/// 0 when every row is `ok` or `duplicate`, 1 when some row is rejected.
///
/// # Errors
/// Fatal errors (exit 2): bad flag combinations, unreadable inputs, unwritable outputs.
pub fn run(cli: cli::Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        cli::Command::Solve(args) => {
            let cfg = args.into_config().map_err(anyhow::Error::msg)?;
            interrupt::install_handler().map_err(anyhow::Error::msg)?;
            let report = batch::run_solve(&cfg).inspect_err(|e| {
                if failure::is_broken_pipe(e) {
                    note_dropped_outputs(&[
                        ("-o", Some(&cfg.output)),
                        ("--stats", cfg.stats.as_ref()),
                        ("--report", cfg.report.as_ref()),
                    ]);
                }
            })?;
            if report.header.interrupted {
                return Ok(ExitCode::from(130));
            }
            let all_solved = report.counts.status.solved == report.counts.records;
            Ok(ExitCode::from(if all_solved { 0 } else { 1 }))
        }
        cli::Command::Bench(args) => {
            let cfg = args.into_config().map_err(anyhow::Error::msg)?;
            let report = bench::run_bench(&cfg)?;
            // An export sent to stdout (`-`) replaces the table there.
            let e = &cfg.exports;
            if ![&e.json, &e.csv, &e.markdown]
                .iter()
                .any(|p| p.as_deref() == Some("-"))
            {
                print!("{}", export::text_table(&report));
            }
            let failed = report.results.iter().any(|r| r.validation_failures > 0);
            Ok(ExitCode::from(u8::from(failed)))
        }
        cli::Command::Report(cli::ReportCommand::Merge {
            output,
            inputs,
            partial,
        }) => {
            cli::check_merge_paths(&output, &inputs).map_err(anyhow::Error::msg)?;
            let merged = merge::merge_files(&inputs, partial)?;
            batch::write_json(&output, &merged)?;
            Ok(ExitCode::SUCCESS)
        }
        cli::Command::Augment(args) => {
            let cfg = args.into_config().map_err(anyhow::Error::msg)?;
            interrupt::install_handler().map_err(anyhow::Error::msg)?;
            let counts = dataset::augment::run_augment(&cfg)?;
            if counts.interrupted {
                return Ok(ExitCode::from(130));
            }
            Ok(ExitCode::from(u8::from(counts.skipped() > 0)))
        }
        cli::Command::Verify(args) => {
            let cfg = args.into_config().map_err(anyhow::Error::msg)?;
            interrupt::install_handler().map_err(anyhow::Error::msg)?;
            let report = verify::run_verify(&cfg).inspect_err(|e| {
                if failure::is_broken_pipe(e) {
                    note_dropped_outputs(&[
                        ("--rejects", cfg.rejects.as_ref()),
                        ("--report", cfg.report.as_ref()),
                    ]);
                }
            })?;
            Ok(ExitCode::from(report.exit_code()))
        }
    }
}
