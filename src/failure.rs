//! How a failed run ends: which fatal errors are really a reader that went away.
//!
//! Rust ignores SIGPIPE, so a closed standard output (`sudoku-batch solve big.txt | head`)
//! surfaces as an `EPIPE` write error, possibly deep inside `csv::Writer`, a `BufWriter`
//! flush or `serde_json`, and possibly wrapped in another `io::Error` or in context. Such a
//! run ends quietly with exit 0 (issue 5).

use std::error::Error;
use std::io;

/// Whether `err`, or any error it wraps, is a broken pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(wraps_broken_pipe)
}

fn wraps_broken_pipe(e: &(dyn Error + 'static)) -> bool {
    if let Some(io) = e.downcast_ref::<io::Error>() {
        if io.kind() == io::ErrorKind::BrokenPipe {
            return true;
        }
        // `io::Error::new(kind, inner)`: its `source()` skips `inner` itself.
        if let Some(inner) = io.get_ref() {
            if wraps_broken_pipe(inner) {
                return true;
            }
        }
    }
    if let Some(c) = e.downcast_ref::<csv::Error>() {
        if let csv::ErrorKind::Io(io) = c.kind() {
            return io.kind() == io::ErrorKind::BrokenPipe;
        }
    }
    if let Some(j) = e.downcast_ref::<serde_json::Error>() {
        return j.io_error_kind() == Some(io::ErrorKind::BrokenPipe);
    }
    e.source().is_some_and(wraps_broken_pipe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    fn pipe() -> io::Error {
        io::Error::from(io::ErrorKind::BrokenPipe)
    }

    #[test]
    fn finds_a_broken_pipe_however_it_is_wrapped() {
        let plain = anyhow::Error::from(pipe());
        assert!(is_broken_pipe(&plain));
        let csv_wrapped: io::Error = csv::Error::from(pipe()).into();
        let e = Err::<(), _>(csv_wrapped).context("cannot write solutions");
        assert!(is_broken_pipe(&e.unwrap_err()));
        let json = serde_json::Error::io(pipe());
        assert!(is_broken_pipe(&anyhow::Error::from(io::Error::other(json))));
        let other = anyhow::Error::from(io::Error::from(io::ErrorKind::StorageFull));
        assert!(!is_broken_pipe(&other));
    }
}
