//! The `sudoku-batch` binary: parse flags, run the library, map the result to an exit code.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = sudoku_batch::cli::Cli::parse();
    match sudoku_batch::run(cli) {
        Ok(code) => code,
        Err(e) => {
            // A reader that went away (`| head`) is not an error worth a message.
            let broken_pipe = e
                .chain()
                .filter_map(|c| c.downcast_ref::<io::Error>())
                .any(|io| io.kind() == io::ErrorKind::BrokenPipe);
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(io::stderr(), "sudoku-batch: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
