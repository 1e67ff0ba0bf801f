//! The `sudoku-batch` binary: parse flags, run the library, map the result to an exit code.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use sudoku_batch::batch::Cancel;

mod cli;

fn main() -> ExitCode {
    let cli = match cli::Cli::parse_args() {
        Ok(cli) => cli,
        // --help, --version, and a bare `sudoku-batch` (usage is the helpful answer there).
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        // A bad flag value (`-j 0`), a misspelt flag or command: one line, exit 2.
        Err(e) => {
            let args: Vec<_> = std::env::args_os().collect();
            let line = cli::error_line(&e, &args);
            let _ = writeln!(io::stderr(), "sudoku-batch: error: {line}");
            return ExitCode::from(2);
        }
    };
    let mut command = match cli.into_command() {
        Ok(command) => command,
        Err(why) => {
            let _ = writeln!(io::stderr(), "sudoku-batch: error: {why}");
            return ExitCode::from(2);
        }
    };
    // SUDOKU_BATCH_KERNEL: an unknown kernel, or one this CPU lacks, stops here.
    if let Err(why) = sudoku_batch::solver::select_kernel() {
        let _ = writeln!(io::stderr(), "sudoku-batch: error: {why}");
        return ExitCode::from(2);
    }
    // Ctrl-C, SIGTERM and SIGHUP cancel the run's token (the library has no handler of its
    // own): the finished prefix is kept and the run exits 128 + the signal's number.
    let cancel = Cancel::new();
    if command.cancel_with(&cancel) {
        // Inputs are memory-mapped unless --no-mmap: a file that shrinks under its map
        // stops the run with one line instead of killing the process (input::guard).
        sudoku_batch::input::guard::install();
        if let Err(why) = cli::interrupt::install_handler(cancel) {
            let _ = writeln!(io::stderr(), "sudoku-batch: error: {why}");
            return ExitCode::from(2);
        }
    }
    match sudoku_batch::run(command) {
        // The library says INTERRUPTED (130) for any interruption; the shell's code names the
        // signal.
        Ok(code) if code == ExitCode::from(sudoku_batch::cmd::INTERRUPTED) => {
            ExitCode::from(cli::interrupt::exit_code())
        }
        Ok(code) => code,
        // A reader that went away (`| head`) is not an error worth a message.
        Err(e) if sudoku_batch::failure::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "sudoku-batch: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
