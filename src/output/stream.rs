//! Outputs that are streams rather than files to replace: the
//! process's own standard output or error under a path (`/dev/stdout`, `/dev/fd/2`, the file
//! stdout is redirected to), another open descriptor (`/dev/fd/N`, `/proc/self/fd/N`), a
//! device, a FIFO or a socket. Such a path is written in place and never truncated: reopening
//! `/dev/stdout` with `O_TRUNC` when stdout is a file redirected with `>>` (or shared with
//! stderr, `> log 2>&1`) would wipe what the file held and let the two writers overwrite
//! each other, each at its own offset.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::path::Path;

/// Where a stream output goes.
pub(super) enum Stream {
    /// Standard output itself: written through descriptor 1, at its own offset (and with
    /// its `O_APPEND`), as `-` is.
    Stdout,
    /// Standard error itself: written through descriptor 2.
    Stderr,
    /// A device, FIFO, socket or other open descriptor, opened without truncation (a
    /// descriptor path to a regular file in append mode, so it keeps what it holds).
    Other(File),
}

/// The stream `path` names, or `None` when it is (or will be) a regular file of its own,
/// to be replaced through a temporary.
///
/// # Errors
/// When a device, FIFO or descriptor path cannot be opened for writing (the reason only).
pub(super) fn open_stream(path: &str) -> io::Result<Option<Stream>> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(None);
    };
    if is_stream_of(&meta, io::stdout().as_fd()) {
        return Ok(Some(Stream::Stdout));
    }
    if is_stream_of(&meta, io::stderr().as_fd()) {
        return Ok(Some(Stream::Stderr));
    }
    if !meta.is_file() {
        // A device, FIFO or socket: nothing to truncate, nothing to rename over.
        let f = OpenOptions::new().write(true).open(path)?;
        return Ok(Some(Stream::Other(f)));
    }
    if names_a_descriptor(Path::new(path)) {
        // `3>> log` given as `/dev/fd/3`: appended to, as the redirection asked.
        let f = OpenOptions::new().append(true).open(path)?;
        return Ok(Some(Stream::Other(f)));
    }
    Ok(None)
}

/// Whether `meta` (a path's `stat`) is the file open on the standard stream `fd`.
fn is_stream_of(meta: &Metadata, fd: BorrowedFd) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Some(stream) = fd
        .try_clone_to_owned()
        .ok()
        .and_then(|fd| File::from(fd).metadata().ok())
    else {
        return false;
    };
    (meta.dev(), meta.ino()) == (stream.dev(), stream.ino())
}

/// Whether `path`, or a symlink on the way to what it names, is a descriptor path
/// (`/dev/fd/N`, `/dev/stdout`, `/proc/self/fd/N`, `/proc/PID/fd/N`): opening one opens the
/// descriptor's file anew, so it is a stream the caller set up, not a file to replace.
fn names_a_descriptor(path: &Path) -> bool {
    super::link_chain(path)
        .0
        .iter()
        .any(|p| is_descriptor_path(p))
}

/// Whether `path` is spelled as a descriptor path (see [`names_a_descriptor`]).
fn is_descriptor_path(path: &Path) -> bool {
    let s = path.to_string_lossy();
    if ["/dev/stdout", "/dev/stderr"].contains(&s.as_ref()) || s.starts_with("/dev/fd/") {
        return true;
    }
    let Some(rest) = s.strip_prefix("/proc/") else {
        return false;
    };
    let Some((process, rest)) = rest.split_once('/') else {
        return false;
    };
    let process_ok = matches!(process, "self" | "thread-self")
        || (!process.is_empty() && process.bytes().all(|b| b.is_ascii_digit()));
    process_ok && rest.starts_with("fd/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_paths_are_recognised_by_spelling() {
        for p in [
            "/dev/stdout",
            "/dev/stderr",
            "/dev/fd/3",
            "/proc/self/fd/1",
            "/proc/thread-self/fd/4",
            "/proc/1234/fd/5",
        ] {
            assert!(is_descriptor_path(Path::new(p)), "{p}");
        }
        for p in [
            "/dev/null",
            "/proc/self/status",
            "/proc/x1/fd/3",
            "fd/3",
            "out.csv",
        ] {
            assert!(!is_descriptor_path(Path::new(p)), "{p}");
        }
    }

    #[test]
    fn a_regular_file_of_its_own_is_not_a_stream() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        std::fs::write(&p, "old\n").unwrap();
        assert!(open_stream(p.to_str().unwrap()).unwrap().is_none());
        assert!(open_stream(dir.path().join("new.txt").to_str().unwrap())
            .unwrap()
            .is_none());
        assert!(matches!(
            open_stream("/dev/null").unwrap(),
            Some(Stream::Other(_))
        ));
    }
}
