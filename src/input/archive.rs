//! Archives read as inputs: a zip, or a tar (plain, or inside any codec: `.tar.gz`,
//! `.tar.zst`, ...), recognised by content (a zip's `PK 03 04`, a tar's `ustar` header).
//!
//! An archive is read as its one **data member**: entries that are directories or that
//! operating systems add (`__MACOSX/...`, `.DS_Store`, `._name` resource forks, `Thumbs.db`)
//! are not data. An archive of several data members is refused, naming them, unless
//! `--member NAME` ([`super::LayoutOptions::member`]) picks one (by its path in the archive or
//! its file name): its members are never merged into one run, and its headers never read as
//! records. A regular file's members are listed before any record is read; an archive on
//! standard input is read as it comes, and refused when a second data member appears.

use std::io::{self, Read};
use std::path::Path;

use super::feed::{pump, Sender};

/// Bytes of the decoded input looked at for a tar header: one 512-byte header block.
pub const TAR_HEAD: usize = 512;

/// Whether `head` (the first [`TAR_HEAD`] bytes of the decoded input) is a tar header: the
/// POSIX `ustar` magic at byte 257 (GNU tar and bsdtar write it too).
pub fn is_tar(head: &[u8]) -> bool {
    head.get(257..262) == Some(b"ustar")
}

/// Whether an archive entry named `name` (its path in the archive) holds data: not a
/// directory (a name ending in `/`) and not operating-system metadata (`__MACOSX/`,
/// `.DS_Store`, `._*` AppleDouble files, `Thumbs.db`, `desktop.ini`).
pub fn is_data_member(name: &str) -> bool {
    if name.is_empty() || name.ends_with('/') {
        return false;
    }
    let mut parts = name.split('/').filter(|p| !p.is_empty() && *p != ".");
    if parts.clone().any(|p| p == "__MACOSX") {
        return false;
    }
    let file = parts.next_back().unwrap_or("");
    !(file == ".DS_Store"
        || file.starts_with("._")
        || file.eq_ignore_ascii_case("Thumbs.db")
        || file.eq_ignore_ascii_case("desktop.ini"))
}

/// Whether `member` (as given to `--member`) names the entry `name`: its whole path in the
/// archive (a leading `./` aside), or its file name.
fn names(member: &str, name: &str) -> bool {
    let strip = |s: &'_ str| s.trim_start_matches("./").to_string();
    strip(member) == strip(name) || name.rsplit('/').next() == Some(member)
}

/// An invalid-data error with `why`.
fn invalid(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why)
}

/// `names` for a message: at most 20, then how many more.
fn listed(names: &[String]) -> String {
    let mut out = names
        .iter()
        .take(20)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 20 {
        out.push_str(&format!(", and {} more", names.len() - 20));
    }
    out
}

/// The member of an archive (`kind`: `zip` or `tar`) to read, from its entries' names in
/// order: the one `member` names, else the one data member.
///
/// # Errors
/// [`io::ErrorKind::InvalidData`] listing the data members, saying how to pick one, when
/// the archive holds several data members and `member` is `None`, none, or none that
/// `member` names.
pub fn pick(kind: &str, entries: &[String], member: Option<&str>) -> io::Result<String> {
    let data: Vec<String> = entries
        .iter()
        .filter(|n| is_data_member(n))
        .cloned()
        .collect();
    if let Some(m) = member {
        return entries
            .iter()
            .find(|n| names(m, n))
            .cloned()
            .ok_or_else(|| {
                invalid(format!(
                    "--member {m:?}: no such member in this {kind} archive; its data members: {}",
                    listed(&data)
                ))
            });
    }
    match data.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(invalid(format!(
            "a {kind} archive with no data file (its entries: {})",
            listed(entries)
        ))),
        [first, ..] => Err(invalid(format!(
            "a {kind} archive of {} data files ({}): they are not merged into one run; read \
             one with --member NAME (e.g. --member {first}), one run per member",
            data.len(),
            listed(&data)
        ))),
    }
}

/// The names of the entries of the zip file at `path`, from its central directory.
///
/// # Errors
/// The file cannot be read, or is no zip.
pub fn zip_entries(path: &Path) -> io::Result<Vec<String>> {
    let file = std::fs::File::open(path)?;
    let zip = zip::ZipArchive::new(file).map_err(|e| invalid(e.to_string()))?;
    let names = zip.file_names().map(|n| n.map(|n| n.into_owned()));
    names
        .collect::<Result<_, _>>()
        .map_err(|e| invalid(e.to_string()))
}

/// The names of the regular-file entries of the tar archive read from `tar` (decoded), in
/// order (directories, links and other special entries left out).
///
/// # Errors
/// A read error, or a damaged tar.
pub fn tar_entries(tar: impl Read) -> io::Result<Vec<String>> {
    let mut archive = tar::Archive::new(tar);
    let mut out = Vec::new();
    for entry in archive.entries()? {
        let entry = entry?;
        if entry.header().entry_type().is_file() {
            out.push(entry.path()?.to_string_lossy().into_owned());
        }
    }
    Ok(out)
}

/// The error for an archive read as it comes whose data members `seen` (so far) are more
/// than one.
fn several(kind: &str, seen: &[String]) -> io::Error {
    invalid(format!(
        "a {kind} archive of several data files ({}, and perhaps more: one read as it comes \
         is not listed ahead): they are not merged into one run; read one with --member NAME \
         (e.g. --member {}), one run per member",
        listed(seen),
        seen[0]
    ))
}

/// The choice of the member to send among an archive's entries as they come: the one named
/// `chosen`, or (`None`: an archive on standard input, not listed first) the one data
/// member, a second one refused.
struct Choice<'a> {
    kind: &'static str,
    chosen: Option<&'a str>,
    seen: Vec<String>,
}

impl Choice<'_> {
    /// Whether the entry `name` (`file`: a regular file) is the one to send.
    ///
    /// # Errors
    /// A second data member when none was chosen, naming those seen.
    fn wanted(&mut self, name: String, file: bool) -> io::Result<bool> {
        let wanted = match self.chosen {
            Some(c) => names(c, &name),
            None => file && is_data_member(&name),
        };
        if wanted {
            self.seen.push(name);
            if self.chosen.is_none() && self.seen.len() > 1 {
                return Err(several(self.kind, &self.seen));
            }
        }
        Ok(wanted)
    }

    /// Whether the reading is over once the wanted member is sent: a chosen member is the
    /// only one looked for; else the rest is read to refuse a second data member.
    fn done(&self) -> bool {
        self.chosen.is_some()
    }

    /// The end of the entries: an error when no member was sent.
    fn end(self) -> io::Result<()> {
        match self.seen.is_empty() {
            true => Err(invalid(format!(
                "a {} archive with no data file",
                self.kind
            ))),
            false => Ok(()),
        }
    }
}

/// Sends the bytes of one member of the zip archive read from `raw`: the one named `chosen`
/// (picked from the listing), or, when the archive could not be listed first (standard
/// input), its one data member.
///
/// # Errors
/// A damaged zip; no data member, or (`chosen` is `None`) a second data member, naming
/// the data members seen.
pub fn pump_zip(mut raw: impl Read, chosen: Option<&str>, tx: &Sender) -> io::Result<()> {
    let zip_err = |e: zip::result::ZipError| invalid(e.to_string());
    let mut choice = Choice {
        kind: "zip",
        chosen,
        seen: Vec::new(),
    };
    while let Some(entry) = zip::read::read_zipfile_from_stream(&mut raw).map_err(zip_err)? {
        let name = entry.name().map_err(zip_err)?.into_owned();
        if choice.wanted(name, !entry.is_dir())? {
            pump(entry, tx)?;
            if choice.done() {
                break;
            }
        }
    }
    choice.end()
}

/// Sends the bytes of one member of the tar archive read from `tar` (decoded): the one
/// named `chosen`, or (standard input) its one data member, as [`pump_zip`].
///
/// # Errors
/// As [`pump_zip`], for a tar.
pub fn pump_tar(tar: impl Read, chosen: Option<&str>, tx: &Sender) -> io::Result<()> {
    let mut archive = tar::Archive::new(tar);
    let mut choice = Choice {
        kind: "tar",
        chosen,
        seen: Vec::new(),
    };
    for entry in archive.entries()? {
        let entry = entry?;
        let file = entry.header().entry_type().is_file();
        let name = entry.path()?.to_string_lossy().into_owned();
        if choice.wanted(name, file)? {
            pump(entry, tx)?;
            if choice.done() {
                break;
            }
        }
    }
    choice.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_and_os_metadata_are_not_data() {
        for name in [
            "d/",
            "__MACOSX/._a.csv",
            "__MACOSX/d/a.csv",
            ".DS_Store",
            "d/.DS_Store",
            "._a.csv",
            "d/Thumbs.db",
        ] {
            assert!(!is_data_member(name), "{name}");
        }
        for name in ["a.csv", "d/train.csv", "./a.txt", ".hidden.csv"] {
            assert!(is_data_member(name), "{name}");
        }
    }

    #[test]
    fn one_data_member_is_picked_several_are_listed() {
        let entries: Vec<String> = ["d/", "d/a.csv", "__MACOSX/d/._a.csv", "d/.DS_Store"]
            .map(String::from)
            .to_vec();
        assert_eq!(pick("zip", &entries, None).unwrap(), "d/a.csv");
        let several: Vec<String> = ["d/", "d/train.csv", "d/test.csv"]
            .map(String::from)
            .to_vec();
        let e = pick("tar", &several, None).unwrap_err().to_string();
        assert!(
            e.contains("2 data files (d/train.csv, d/test.csv)") && e.contains("--member"),
            "{e}"
        );
        assert_eq!(
            pick("tar", &several, Some("test.csv")).unwrap(),
            "d/test.csv"
        );
        assert_eq!(
            pick("tar", &several, Some("d/train.csv")).unwrap(),
            "d/train.csv"
        );
        let e = pick("tar", &several, Some("x.csv"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no such member") && e.contains("d/train.csv"),
            "{e}"
        );
    }
}
