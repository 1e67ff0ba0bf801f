//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: stop promptly, keep what was finished, say so.
//! A batch job killed by a scheduler (SIGTERM) keeps its finished work too.
//!
//! The binary's own (the library keeps no process-wide state): the first signal cancels
//! the run's token ([`Cancel`], carried by the command's configs to the engine, the input
//! readers and `bench`'s passes). The batch engine then stops handing
//! records to the workers (each worker checks the flag before every record, so "promptly"
//! means within one puzzle's solve time), writes the results that were finished *as a
//! prefix in input order* (a finished record after an unfinished one is dropped, so the
//! output never has holes), commits `-o`, `--stats` and `--report` with
//! `"interrupted": true` and `records` = the records written, and exits with the shell's
//! code for that signal, 128 + its number ([`exit_code`]): 130 for Ctrl-C, 143 for SIGTERM,
//! 129 for SIGHUP, so a job script or scheduler can tell a time limit from a user's Ctrl-C.
//!
//! A second signal exits at once, with its own code: that is the way out of a run blocked
//! on a terminal or a pipe that never ends. Its temporary files (`.sudoku-batch-*.tmp`
//! beside each output) are then left behind and no output is renamed into place.
//!
//! A repeat that arrives within [`REPEAT_GRACE`] of the first signal is ignored: GNU
//! `timeout` (and schedulers or wrappers that signal both the process and its group)
//! sends the same signal twice within microseconds, and treating that as "the user means
//! it" threw away every output of such a run by luck of timing.
//! A person's second Ctrl-C comes later than that.

use std::sync::atomic::Ordering;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use sudoku_batch::batch::Cancel;
use sudoku_batch::cmd::INTERRUPTED;

/// How long after the first signal a repeat is taken as the same request (1 second):
/// `timeout`'s second `kill` to the process group, not a second Ctrl-C.
pub const REPEAT_GRACE: Duration = Duration::from_secs(1);

/// The first signal received: when, and 128 + its number. Set once, on the signal thread.
static FIRST: OnceLock<(Instant, u8)> = OnceLock::new();

/// The exit code of a run the first signal stopped: 128 + that signal's number (130
/// SIGINT, 129 SIGHUP, 143 SIGTERM); [`INTERRUPTED`] (Ctrl-C's) when none was received (a
/// command that reports "interrupted" without one).
pub fn exit_code() -> u8 {
    FIRST.get().map_or(INTERRUPTED, |&(_, code)| code)
}

/// What one signal does, `code` being 128 + its number: the first cancels `token`; a
/// repeat within [`REPEAT_GRACE`] is ignored; a later one exits at once with `code`.
fn on_signal(token: &Cancel, code: u8) {
    let (first, _) = *FIRST.get_or_init(|| (Instant::now(), code));
    if token.flag().swap(true, Ordering::SeqCst) {
        if first.elapsed() < REPEAT_GRACE {
            return; // the same request sent twice (`timeout`), not a second Ctrl-C
        }
        // A second signal: the user means it. Clear the progress bar's line first, so no
        // fragment of it is left.
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            eprint!("\r\x1b[2K");
        }
        eprintln!("sudoku-batch: interrupted again: exiting without writing");
        std::process::exit(i32::from(code));
    }
}

/// Installs the handler of SIGINT, SIGTERM and SIGHUP once per process, cancelling
/// `token` on the first signal; later calls return the first result (and leave the first
/// token in place). The signals are taken on a thread of their own, one at a time, so the
/// first signal's time is set before any repeat is looked at.
///
/// # Errors
/// The message of the signal library when the handler cannot be installed.
#[cfg(unix)]
pub fn install_handler(token: Cancel) -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
                .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))?;
            std::thread::Builder::new()
                .name("signals".into())
                .spawn(move || {
                    for signal in signals.forever() {
                        on_signal(&token, u8::try_from(128 + signal).unwrap_or(INTERRUPTED));
                    }
                })
                .map(drop)
                .map_err(|e| format!("cannot start the signal thread: {e}"))
        })
        .clone()
}

/// Installs the Ctrl-C handler once per process (ctrlc: the console's Ctrl-C, exit 130).
///
/// # Errors
/// The message of the signal library when the handler cannot be installed.
#[cfg(not(unix))]
pub fn install_handler(token: Cancel) -> Result<(), String> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(move || on_signal(&token, INTERRUPTED))
                .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
        })
        .clone()
}
