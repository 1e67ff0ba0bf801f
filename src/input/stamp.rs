//! Detects an input file that changed while it was memory-mapped (issue 5).
//!
//! A mapped file that another process truncates raises SIGBUS when a page past its new end
//! is read: [`super::guard`] turns that into an error. One that is rewritten or appended to
//! gives records read from a mix of old and new bytes: that is detected here. The input's
//! size and modification time are taken before mapping and compared after its last record
//! (also catching a truncation that came after the reader had passed the new end). A change
//! is a fatal error (exit 2) raised before any output is committed, so no output built from a
//! changing file is left under the target's name.

use std::fs::Metadata;
use std::time::SystemTime;

/// Size and modification time of a regular file, to compare before and after a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// Size, bytes.
    pub len: u64,
    /// Last modification time, if the platform reports one.
    pub modified: Option<SystemTime>,
}

impl Stamp {
    /// The stamp of `meta`.
    pub fn from_metadata(meta: &Metadata) -> Stamp {
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }

    /// The stamp of the regular file at `path`; `None` for stdin (`-`), special files and
    /// paths that cannot be read.
    pub fn of(path: &str) -> Option<Stamp> {
        if path == "-" {
            return None;
        }
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then(|| Stamp::from_metadata(&meta))
    }

    /// What changed at `path` since `self` was taken, in words; `None` when nothing did.
    pub fn changed(&self, path: &str) -> Option<String> {
        let Some(now) = Stamp::of(path) else {
            return Some("it was removed or replaced while it was read".to_string());
        };
        if now.len != self.len {
            return Some(format!(
                "its size changed from {} to {} bytes while it was read",
                self.len, now.len
            ));
        }
        (now.modified != self.modified)
            .then(|| "it was modified while it was read (same size, new time)".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn an_append_or_a_removal_is_detected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        std::fs::write(&path, "x\n").unwrap();
        let p = path.to_str().unwrap();
        let before = Stamp::of(p).unwrap();
        assert_eq!(before.changed(p), None);
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(b"y\n").unwrap();
        let why = before.changed(p).unwrap();
        assert!(why.contains("from 2 to 4 bytes"), "{why}");
        std::fs::remove_file(&path).unwrap();
        assert!(before.changed(p).unwrap().contains("removed"));
        assert_eq!(Stamp::of("-"), None);
    }
}
