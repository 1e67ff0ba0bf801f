//! Committing a run's outputs: every [`Target`] synced to disk first, then all renamed
//! into place, so a failing disk leaves no partial set of outputs (issue 5).

use anyhow::{Context, Result};

use super::{cannot_write, Target};

/// Opens the output at `path` ([`Target::create`]), an error reading
/// `path: cannot write what: reason` ([`cannot_write`]).
///
/// # Errors
/// When `path` is a directory or cannot be created.
pub fn open_target(path: &str, what: &str) -> Result<Target> {
    Target::create(path).with_context(|| cannot_write(path, what))
}

/// [`open_target`] for a JSON document (`--report`, `--export-json`): [`Target::create_json`].
///
/// # Errors
/// As [`open_target`].
pub fn open_json_target(path: &str, what: &str) -> Result<Target> {
    Target::create_json(path).with_context(|| cannot_write(path, what))
}

/// Makes every output durable, then renames each into place, naming the output (`what`)
/// in an error: a sync error (a full or failing disk) comes before any rename, so it
/// leaves every target as it was and exit 2 never leaves a partial set (issue 5).
///
/// The commits run side by side, and `release` (the inputs' memory maps, say) is dropped
/// beside them: replacing an existing file frees it, which took 26 ms for an 82 MB output
/// and 13 ms for a 34 MB one on this project's machine (ext4 mounted with `discard`), and
/// unmapping an 82 MB input 5 ms (strace, 1M-puzzle run).
///
/// # Errors
/// The first output that cannot be synced, else the first that cannot be renamed.
pub fn commit_outputs<D: Send>(mut targets: Vec<(Target, String)>, release: D) -> Result<()> {
    for (t, what) in &mut targets {
        t.sync().with_context(|| what.clone())?;
    }
    std::thread::scope(|s| {
        let mut targets = targets.into_iter();
        let first = targets.next();
        let others: Vec<_> = targets
            .map(|(t, what)| s.spawn(move || t.commit().context(what)))
            .collect();
        // Last: unmapping holds the address-space lock that starting a thread needs.
        s.spawn(move || drop(release));
        let mut result = first.map_or(Ok(()), |(t, what)| t.commit().context(what));
        for h in others {
            let r = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            if result.is_ok() {
                result = r;
            }
        }
        result
    })
}

/// Writes `value` as pretty JSON to `path` (through a temporary renamed into place).
///
/// # Errors
/// When the file cannot be written; the message reads `path: cannot write what: reason`
/// ([`cannot_write`]).
pub fn write_json<T: serde::Serialize>(path: &str, what: &str, value: &T) -> Result<()> {
    Target::create_json(path)
        .and_then(|mut t| t.write_json(value).and_then(|()| t.commit()))
        .with_context(|| cannot_write(path, what))
}
