//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: stop promptly, keep what was finished, say so
//! (issue 5). A batch job killed by a scheduler (SIGTERM) keeps its finished work too.
//!
//! The binary's own (the library keeps no process-wide state): the first signal cancels
//! the run's token ([`Cancel`], carried by the command's configs to the engine, the input
//! readers and `bench`'s passes). The batch engine then stops handing
//! records to the workers (each worker checks the flag before every record, so "promptly"
//! means within one puzzle's solve time), writes the results that were finished *as a
//! prefix in input order* (a finished record after an unfinished one is dropped, so the
//! output never has holes), commits `-o`, `--stats` and `--report` with
//! `"interrupted": true` and `records` = the records written, and exits 130.
//!
//! A second signal exits at once with 130: that is the way out of a run blocked on a
//! terminal or a pipe that never ends. Its temporary files (`.sudoku-batch-*.tmp` beside
//! each output) are then left behind and no output is renamed into place.
//!
//! A repeat that arrives within [`REPEAT_GRACE`] of the first signal is ignored: GNU
//! `timeout` (and schedulers or wrappers that signal both the process and its group)
//! sends the same signal twice within microseconds, and treating that as "the user means
//! it" threw away every output of such a run by luck of timing (trial 10, finding 2).
//! A person's second Ctrl-C comes later than that.

use std::sync::atomic::Ordering;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use sudoku_batch::batch::Cancel;

/// How long after the first signal a repeat is taken as the same request (1 second):
/// `timeout`'s second `kill` to the process group, not a second Ctrl-C.
pub const REPEAT_GRACE: Duration = Duration::from_secs(1);

/// Installs the SIGINT handler once per process, cancelling `token` on the first signal;
/// later calls return the first result (and leave the first token in place).
///
/// # Errors
/// The message of the signal library when the handler cannot be installed.
pub fn install_handler(token: Cancel) -> Result<(), String> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            // The handler runs on ctrlc's one thread, one signal at a time, so the
            // first signal's time is set before any repeat is looked at.
            static FIRST: OnceLock<Instant> = OnceLock::new();
            ctrlc::set_handler(move || {
                let first = *FIRST.get_or_init(Instant::now);
                if token.flag().swap(true, Ordering::SeqCst) {
                    if first.elapsed() < REPEAT_GRACE {
                        return; // the same request sent twice (`timeout`), not a second Ctrl-C
                    }
                    // Second Ctrl-C: the user means it. Runs on ctrlc's own thread. Clear
                    // the progress bar's line first, so no fragment of it is left.
                    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                        eprint!("\r\x1b[2K");
                    }
                    eprintln!("sudoku-batch: interrupted again: exiting without writing");
                    std::process::exit(130);
                }
            })
            .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
        })
        .clone()
}
