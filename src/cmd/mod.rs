//! The commands, one thin file each over the [`crate::engine`] and the
//! [`crate::input`] layer: a config (built by the command line in the binary, or by
//! hand in tests), a `run_*` function, and for a command that reads records a [`Sink`]
//! (and its [`Work`]) in the manner of ripgrep's searcher and sink. A new command is a new
//! file here: a `Work` for the per-record job, a `Sink` for the in-order consumer, and a
//! variant of [`Command`]; the engine gives it the parallel pipeline, the panic guard,
//! Ctrl-C and the input-change check. `canon`, `dedup` and `overlap` (issue 12) are two
//! closures each over [`crate::engine::Inputs`].
//!
//! [`Sink`]: crate::engine::Sink
//! [`Work`]: crate::engine::Work

pub mod bench;
pub mod canon;
pub mod classset;
pub mod dedup;
pub mod generate;
pub mod merge;
pub mod overlap;
pub mod plot;
mod rows;
pub mod solve;
pub mod trace;
pub mod verify;

#[cfg(test)]
mod tests;

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::bench::BenchConfig;
use crate::failure;
use crate::input::Cancel;
use solve::SolveConfig;
use verify::VerifyConfig;

/// A command line, validated: what [`run`] runs.
#[derive(Clone, Debug)]
pub enum Command {
    /// `solve`.
    Solve(SolveConfig),
    /// `verify`.
    Verify(VerifyConfig),
    /// `bench`.
    Bench(BenchConfig),
    /// `report merge`.
    MergeReports(merge::MergeConfig),
    /// `report plot`.
    PlotReports(plot::PlotConfig),
    /// `augment`.
    Augment(crate::dataset::augment::AugmentConfig),
    /// `rate`.
    Rate(crate::dataset::rate::RateConfig),
    /// `canon`.
    Canon(canon::CanonConfig),
    /// `dedup`.
    Dedup(dedup::DedupConfig),
    /// `overlap`.
    Overlap(overlap::OverlapConfig),
    /// `generate`: the run, and how its input files (`--from-solutions`, `--exclude`) are
    /// read.
    Generate(
        Box<crate::generate::GenerateConfig>,
        crate::engine::ReadConfig,
    ),
    /// `trace`.
    Trace(trace::TraceConfig),
}

impl Command {
    /// Makes `token` the command's stop token (every input it reads, every pass of
    /// `bench`), so that cancelling it stops the run as Ctrl-C does: the finished prefix
    /// is kept and the exit code is 130. Returns whether the command can be stopped so
    /// (`report merge` reads no records and cannot): the binary installs its Ctrl-C
    /// handler only then.
    pub fn cancel_with(&mut self, token: &Cancel) -> bool {
        let read = match self {
            Command::Solve(c) => &mut c.read,
            Command::Verify(c) => &mut c.read,
            Command::Augment(c) => &mut c.read,
            Command::Rate(c) => &mut c.read,
            Command::Canon(c) => &mut c.read,
            Command::Dedup(c) => &mut c.read,
            Command::Generate(_, read) => read,
            Command::Trace(c) => &mut c.read,
            Command::Overlap(c) => {
                c.test.cancel = token.clone();
                &mut c.train
            }
            Command::Bench(c) => {
                c.cancel = token.clone();
                return true;
            }
            Command::MergeReports(_) | Command::PlotReports(_) => return false,
        };
        read.cancel = token.clone();
        true
    }
}

/// The exit code [`run`] gives for an interrupted run: 130, the shell's code for Ctrl-C
/// (SIGINT). The library does not know which signal cancelled the run; the binary, which
/// installs the handler, replaces it with 128 + the number of the signal that came.
pub const INTERRUPTED: u8 = 130;

/// Runs a command and returns the process exit code. `solve`: 0 when every record was
/// solved, 1 when some record is `multiple`, `unsolvable` or `invalid`. `verify`: 0 when
/// every row is `ok` or `duplicate`, 1 when some row is rejected. `bench`: 1 when a
/// solution did not verify. 130 when interrupted.
///
/// # Errors
/// Fatal errors (exit 2): unreadable inputs, unwritable outputs, reports that do not merge.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Solve(cfg) => {
            start_reading(&cfg.read);
            let report = solve::run_solve(&cfg).inspect_err(|e| {
                if failure::is_broken_pipe(e) {
                    note_dropped_outputs(&[
                        ("-o", Some(&cfg.output)),
                        ("--stats", cfg.stats.as_ref()),
                        ("--report", cfg.report.as_ref()),
                    ]);
                }
            })?;
            if report.header.interrupted {
                return Ok(ExitCode::from(INTERRUPTED));
            }
            let all_solved = report.counts.status.solved == report.counts.records;
            Ok(ExitCode::from(if all_solved { 0 } else { 1 }))
        }
        Command::Verify(cfg) => {
            start_reading(&cfg.read);
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
        Command::Bench(cfg) => {
            let Some(report) = bench::run_bench(&cfg)? else {
                // Rows cut short measure nothing: no table and no export.
                eprintln!("sudoku-batch bench: interrupted: no table or export written");
                return Ok(ExitCode::from(INTERRUPTED));
            };
            // An export sent to stdout (`-`) replaces the table there.
            let e = &cfg.exports;
            if ![&e.json, &e.csv, &e.markdown]
                .iter()
                .any(|p| p.as_deref() == Some("-"))
            {
                print!("{}", crate::export::text_table(&report));
            }
            let failed = report.results.iter().any(|r| r.validation_failures > 0);
            Ok(ExitCode::from(u8::from(failed)))
        }
        Command::Augment(cfg) => {
            start_reading(&cfg.read);
            let counts = crate::dataset::augment::run_augment(&cfg)?;
            if counts.interrupted {
                return Ok(ExitCode::from(INTERRUPTED));
            }
            Ok(ExitCode::from(u8::from(counts.skipped() > 0)))
        }
        Command::Rate(cfg) => {
            start_reading(&cfg.read);
            let summary = crate::dataset::rate::run_rate(&cfg)?;
            if summary.interrupted {
                return Ok(ExitCode::from(INTERRUPTED));
            }
            let all_rated = summary.status.solved == summary.status.total();
            Ok(ExitCode::from(u8::from(!all_rated)))
        }
        Command::Canon(cfg) => {
            start_reading(&cfg.read);
            let s = canon::run_canon(&cfg)?;
            Ok(exit_code(s.interrupted, s.invalid > 0))
        }
        Command::Dedup(cfg) => {
            start_reading(&cfg.read);
            let s = dedup::run_dedup(&cfg)?;
            Ok(exit_code(s.interrupted, s.invalid > 0))
        }
        Command::Overlap(cfg) => {
            let s = overlap::run_overlap(&cfg)?;
            Ok(exit_code(s.interrupted, s.found() > 0))
        }
        Command::PlotReports(cfg) => {
            for path in plot::run_plot(&cfg)? {
                eprintln!("sudoku-batch: wrote {path}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Generate(cfg, read) => {
            let s = generate::run(&cfg, &read)?;
            Ok(exit_code(s.interrupted, !s.complete()))
        }
        Command::Trace(cfg) => {
            start_reading(&cfg.read);
            let s = trace::run_trace(&cfg)?;
            let all_solved = s.status.solved == s.status.total();
            Ok(exit_code(s.interrupted, !all_solved))
        }
        Command::MergeReports(cfg) => {
            let merged = merge::merge_files(&cfg.inputs, cfg.partial)?;
            crate::output::write_json(&cfg.output, "merged report", &merged)?;
            eprintln!("sudoku-batch: {}", merged.summary(&cfg.output));
            eprintln!("sudoku-batch: {}", merged.rate_line());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// [`INTERRUPTED`] when Ctrl-C stopped the run, else 1 when `flagged`, else 0.
fn exit_code(interrupted: bool, flagged: bool) -> ExitCode {
    ExitCode::from(match (interrupted, flagged) {
        (true, _) => INTERRUPTED,
        (false, true) => 1,
        (false, false) => 0,
    })
}

/// What every command that reads records from `read`'s inputs does first: notes standard
/// input read from a terminal.
fn start_reading(read: &crate::engine::ReadConfig) {
    note_terminal_stdin(&read.inputs, read.quiet);
}

/// Says once, on stderr, that the puzzles are read from the terminal, so a command typed
/// without a file does not seem to hang.
fn note_terminal_stdin(inputs: &[String], quiet: bool) {
    if !quiet && inputs.iter().any(|p| p == "-") && std::io::stdin().is_terminal() {
        eprintln!(
            "sudoku-batch: reading puzzles from the terminal; end with Ctrl-D, or name a file"
        );
    }
}

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
