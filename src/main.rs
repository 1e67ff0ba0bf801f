//! The `sudoku-batch` binary: parse flags, run the library, map the result to an exit code.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;

fn main() -> ExitCode {
    let cli = match sudoku_batch::cli::Cli::try_parse() {
        Ok(cli) => cli,
        // --help, --version, and a bare `sudoku-batch` (usage is the helpful answer there).
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        // A bad flag value (`-j 0`): one line, exit 2 (issue 5).
        Err(e) => {
            let text = e.render().to_string();
            let mut lines = text.lines();
            let first = lines.next().unwrap_or("bad arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // Missing arguments are listed on indented lines below the first: keep them.
            let listed: Vec<&str> = lines
                .take_while(|l| l.starts_with(' ') && !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let listed = if listed.is_empty() {
                String::new()
            } else {
                format!(" {}", listed.join(", "))
            };
            let _ = writeln!(
                io::stderr(),
                "sudoku-batch: error: {first}{listed} (see --help)"
            );
            return ExitCode::from(2);
        }
    };
    match sudoku_batch::run(cli) {
        Ok(code) => code,
        // A reader that went away (`| head`) is not an error worth a message.
        Err(e) if sudoku_batch::failure::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "sudoku-batch: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
