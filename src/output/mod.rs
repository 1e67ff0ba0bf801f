//! Output: where results go. One [`SolutionWriter`] per format (lines, CSV), the per-record
//! stats CSV, the `verify` rejects CSV, [`table`] output (CSV, text, JSON Lines, `.npz`) for
//! `augment` and `rate`, and [`Target`], which writes a file through a temporary beside it and renames it
//! into place only when the run completes.

mod commit;
mod csv_out;
mod jsonl;
mod lines;
pub mod npz;
#[cfg(feature = "parquet")]
mod parquet;
pub mod rejects;
mod solve_table;
#[cfg(feature = "parquet")]
mod steps_arrow;
mod stream;
pub mod table;

pub use commit::{commit_outputs, open_json_target, open_target, write_json};
pub use csv_out::CsvWriter;
pub(crate) use csv_out::{echo_delimiter, fit_row, fresh_name};
pub use lines::LinesWriter;
pub use rejects::RejectsWriter;
pub use solve_table::{SolveTable, SOLVE_COLUMNS};

use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::input::{Codec, RawRecord};
use crate::record::SolvedRecord;
use table::TableFormat;

/// How many records a command writes between two [`Target::start_writeback`] calls: each
/// call walks the file's dirty pages, so not every chunk.
pub const WRITEBACK_RECORDS: usize = 8 * 1024;

/// Writes one result per record, in input order.
pub trait SolutionWriter {
    /// Writes the result of `raw`, a record of the input at `input` (the path as given, `-`
    /// for standard input).
    ///
    /// # Errors
    /// Any I/O error of the underlying writer.
    fn write(&mut self, input: &str, raw: &RawRecord, res: &SolvedRecord) -> io::Result<()>;
    /// Starts writing what is written so far to disk ([`Target::start_writeback`]).
    fn start_writeback(&self);
}

/// A destination: standard output or error; a device, FIFO or open descriptor, written
/// directly and never truncated (the private `stream` module); or a regular file (for a
/// symlink, the file it names),
/// written through a temporary beside it that is renamed over the target on
/// [`Target::commit`]. Dropped uncommitted, the temporary is removed and the target is left
/// as it was.
pub enum Target {
    /// Standard output (`-`, or a path naming it: `/dev/stdout`, the file it is
    /// redirected to).
    Stdout(BufWriter<io::Stdout>),
    /// Standard error, named by a path (`/dev/stderr`, the file it is redirected to).
    Stderr(BufWriter<io::Stderr>),
    /// A device, FIFO, socket or descriptor path given as the target, written directly.
    Device(BufWriter<std::fs::File>),
    /// A temporary file beside the target.
    File {
        /// The buffered temporary file.
        out: BufWriter<std::fs::File>,
        /// The temporary's name: removed when dropped, renamed over `path` on commit.
        tmp: tempfile::TempPath,
        /// Where it goes on commit.
        path: std::path::PathBuf,
    },
}

impl Target {
    /// Opens `path` (`-` = stdout) for writing.
    ///
    /// # Errors
    /// When `path` is a directory, is named as a compressed file (`out.csv.gz`: see
    /// [`Codec::from_extension`]) or as a data format the tool does not write (`out.npy`:
    /// see [`table::unwritten_format`]), or the temporary file cannot be created beside it
    /// (missing or read-only directory, a parent that is a file). Like every error of a
    /// `Target`, the message gives only the reason: the caller puts the path and what it
    /// writes in front ([`cannot_write`]), so the path is named once.
    pub fn create(path: &str) -> io::Result<Target> {
        Target::open(path, false)
    }

    /// [`Target::create`] for a JSON document (`--report`, `--export-json`, a merged
    /// report), whose own name ends in `.json`: that extension is not refused.
    ///
    /// # Errors
    /// As [`Target::create`].
    pub fn create_json(path: &str) -> io::Result<Target> {
        Target::open(path, true)
    }

    /// [`Target::create`]; `json`: the output is a JSON document.
    fn open(path: &str, json: bool) -> io::Result<Target> {
        if path == "-" {
            return Ok(Target::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout(),
            )));
        }
        refuse_compressed_name(path)?;
        refuse_unwritten_format(path, json)?;
        if Path::new(path).is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        // Standard output or error by another name, a device, FIFO or descriptor path:
        // written in place, never truncated.
        match stream::open_stream(path)? {
            Some(stream::Stream::Stdout) => {
                return Ok(Target::Stdout(BufWriter::with_capacity(
                    1 << 16,
                    io::stdout(),
                )))
            }
            Some(stream::Stream::Stderr) => {
                return Ok(Target::Stderr(BufWriter::with_capacity(
                    1 << 16,
                    io::stderr(),
                )))
            }
            Some(stream::Stream::Other(f)) => {
                return Ok(Target::Device(BufWriter::with_capacity(1 << 16, f)))
            }
            None => {}
        }
        // A symlink to a file (`latest.txt -> run42.txt`), even one not created yet: the
        // temporary goes beside the file it names and is renamed over that file, so the
        // link stays a link and a failed run leaves the file as it was.
        let target = link_target(Path::new(path))?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".sudoku-batch-").suffix(".tmp");
        if let Some(perms) = output_permissions(&target) {
            builder.permissions(perms);
        }
        let tmp = builder
            .tempfile_in(dir)
            // tempfile's message names its own temporary, which means nothing to the user.
            .map_err(|e| io::Error::new(e.kind(), os_reason(&e)))?;
        // Written through the plain file, so an error does not name the temporary, as
        // tempfile's own writer's would.
        let (file, tmp) = tmp.into_parts();
        Ok(Target::File {
            out: BufWriter::with_capacity(1 << 16, file),
            tmp,
            path: target,
        })
    }

    /// Asks the kernel to start writing the file's dirty pages to disk now, without waiting
    /// for them, so that the sync in [`Target::commit`] finds little left to do: on a large
    /// output it overlaps the disk writes with the solving instead of waiting for them at
    /// the end. Linux only (`sync_file_range`); elsewhere, and for standard output or a
    /// device, it does nothing. Errors are ignored here: the sync at commit reports them.
    pub fn start_writeback(&self) {
        #[cfg(target_os = "linux")]
        if let Target::File { out, .. } = self {
            use std::os::fd::AsRawFd;
            let fd = out.get_ref().as_raw_fd();
            // SAFETY: `fd` is the open descriptor of the temporary that `out` owns and
            // keeps open for the whole call; sync_file_range reads and writes no memory of
            // ours. Offset 0 and length 0 mean "the whole file".
            unsafe {
                libc::sync_file_range(fd, 0, 0, libc::SYNC_FILE_RANGE_WRITE);
            }
        }
    }

    /// Writes `value` as pretty JSON and a final newline.
    ///
    /// # Errors
    /// A serialization or write error.
    pub fn write_json<T: serde::Serialize>(&mut self, value: &T) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *self, value)?;
        self.write_all(b"\n")
    }

    /// Flushes and, for a file, makes the temporary's data durable (`fdatasync`), without
    /// renaming it yet: syncing every output before renaming any means a failing disk stops
    /// the run before any output is committed.
    ///
    /// # Errors
    /// A write, flush or sync error (the reason only, as [`Target::create`]'s).
    pub fn sync(&mut self) -> io::Result<()> {
        self.flush()?;
        match self {
            Target::File { out, .. } => out.get_ref().sync_data(),
            _ => Ok(()),
        }
    }

    /// The buffered writer the bytes go through.
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Target::Stdout(w) => w,
            Target::Stderr(w) => w,
            Target::Device(w) => w,
            Target::File { out, .. } => out,
        }
    }

    /// Flushes and, for a file, syncs the temporary and renames it over the target.
    ///
    /// # Errors
    /// A write, flush, sync or rename error (the reason only, as [`Target::create`]'s).
    pub fn commit(mut self) -> io::Result<()> {
        self.sync()?;
        match self {
            Target::Stdout(_) | Target::Stderr(_) | Target::Device(_) => Ok(()),
            Target::File { out, tmp, path } => {
                let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
                drop(file);
                // The file being replaced is held open across the rename, so the rename
                // (under the directory's lock) does not free it; it is freed when
                // `replaced` is dropped, which lets several commits free their old files
                // side by side (`commit_outputs`).
                let replaced = std::fs::File::open(&path).ok();
                tmp.persist(&path).map_err(|e| e.error)?;
                drop(replaced);
                Ok(())
            }
        }
    }
}

/// What `path` names once every symlink in its last component is followed: `path` itself
/// when it is not a link.
///
/// # Errors
/// A chain of links that does not end (a loop, `a -> b -> a`), which the kernel would
/// refuse too: renaming over the link the count stopped at would replace that link.
fn link_target(path: &Path) -> io::Result<std::path::PathBuf> {
    match link_chain(path) {
        (mut chain, true) => Ok(chain.pop().unwrap_or_else(|| path.to_path_buf())),
        (_, false) => Err(io::Error::other(
            "too many levels of symbolic links (a loop?)",
        )),
    }
}

/// Symlinks followed at most from one path, as the kernel follows them.
const MAX_LINKS: usize = 40;

/// The paths met on the way from `path` through the symlinks in its last component:
/// `path`, then each link's target (a relative target taken from the link's own
/// directory), and whether the chain ended at a path that is no link (`false`: it was cut
/// after [`MAX_LINKS`] links, a loop or a chain longer than the kernel follows).
fn link_chain(path: &Path) -> (Vec<std::path::PathBuf>, bool) {
    let mut chain = vec![path.to_path_buf()];
    loop {
        let last = &chain[chain.len() - 1];
        let Ok(next) = std::fs::read_link(last) else {
            return (chain, true);
        };
        if chain.len() > MAX_LINKS {
            return (chain, false);
        }
        let next = match last.parent() {
            Some(dir) => dir.join(next),
            None => next,
        };
        chain.push(next);
    }
}

/// Permissions for the temporary: those of the file it replaces, else what a plain
/// `create` gives (0666 less the umask) rather than tempfile's private 0600 (issue 5).
fn output_permissions(target: &Path) -> Option<std::fs::Permissions> {
    if let Ok(meta) = std::fs::metadata(target) {
        return Some(meta.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o666))
    }
    #[cfg(not(unix))]
    None
}

impl Write for Target {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

/// The context of an error writing the output at `path`: `path: cannot write what` (`what`:
/// `solutions`, `--stats`, ...), standard output (`-`) named as such. Every output's
/// create, write, flush and commit errors carry it, so a full disk names the file it
/// filled; it is the only place the path is named (a [`Target`]'s own errors give the
/// reason alone), so a message reads `path: cannot write what: reason` once.
pub fn cannot_write(path: &str, what: &str) -> String {
    let path = if path == "-" { "standard output" } else { path };
    format!("{path}: cannot write {what}")
}

/// Refuses an output named as a compressed file (`out.csv.gz`, `.zst`, `.xz`, `.bz2`,
/// `.zip`): every output is written uncompressed, and plain text under such a name would not
/// decompress. The reason says how to get the file compressed.
fn refuse_compressed_name(path: &str) -> io::Result<()> {
    let Some(codec) = Codec::from_extension(path) else {
        return Ok(());
    };
    // An example rather than the path itself, which the caller names once already.
    let pipe = match codec {
        Codec::Zip => "zip -q out.csv.zip -".to_string(),
        c => {
            let ext = Path::new(path).extension().map(|e| e.to_string_lossy());
            format!("{} > out.csv.{}", c.name(), ext.unwrap_or_default())
        }
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "compressed outputs are not written (this name would hold plain text); write \
             to standard output and pipe it through the compressor, e.g. -o - | {pipe}"
        ),
    ))
}

/// Refuses an output named as a data format the tool does not write (`out.npy`, `out.json`,
/// `out.feather`: [`table::unwritten_format`]), which would silently hold CSV;
/// `.json` is a JSON document's own name (`json`). The reason names the nearest
/// format the tool writes.
fn refuse_unwritten_format(path: &str, json: bool) -> io::Result<()> {
    let Some((what, nearest)) = table::unwritten_format(path) else {
        return Ok(());
    };
    let ext = Path::new(path).extension().map(|e| e.to_string_lossy());
    let ext = ext.unwrap_or_default();
    if json && ext.eq_ignore_ascii_case("json") {
        return Ok(());
    }
    let instead = match nearest {
        Some(TableFormat::Csv) => "name it .csv, the nearest it writes".to_string(),
        Some(f) => format!("name it .{}, the nearest it writes, or .csv", f.name()),
        None => "name it .csv, .jsonl, .npz or .parquet".to_string(),
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(".{ext} ({what}) is not a format this tool writes: {instead}"),
    ))
}

/// Why the temporary could not be created, in the operating system's words for the common
/// cases, without the temporary's path that `tempfile` puts in its message.
fn os_reason(e: &io::Error) -> String {
    use io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "No such file or directory".into(),
        K::NotADirectory => "Not a directory".into(),
        K::PermissionDenied => "Permission denied".into(),
        K::ReadOnlyFilesystem => "Read-only file system".into(),
        K::StorageFull => "No space left on device".into(),
        kind => kind.to_string(),
    }
}

/// The header of the `--stats` CSV.
pub const STATS_HEADER: [&str; 9] = [
    "record",
    "input",
    "line",
    "status",
    "solutions",
    "clues",
    "guesses",
    "solve_ns",
    "error",
];

/// Writes the per-record stats CSV (`--stats`):
/// `record,input,line,status,solutions,clues,guesses,solve_ns,error`; `input` is the path as
/// given (`-` for standard input).
///
/// Every field but `error` is a number or a status word, which never needs quoting, so the
/// row is written with `itoa` straight into the output buffer; the `error` text, when there
/// is one, is quoted by the `csv` crate. (Writing every field through `csv::Writer` cost 6%
/// of an end-to-end run's instructions.)
pub struct StatsWriter {
    out: Target,
    /// Scratch for one quoted `error` field.
    quoted: Vec<u8>,
    /// The last input path written and its field as CSV writes it (quoted when it must be).
    input: (String, Vec<u8>),
}

impl StatsWriter {
    /// Writes the header to `target`.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn new(mut target: Target) -> io::Result<StatsWriter> {
        target.write_all(STATS_HEADER.join(",").as_bytes())?;
        target.write_all(b"\n")?;
        Ok(StatsWriter {
            out: target,
            quoted: Vec::new(),
            input: (String::new(), b"\"\"".to_vec()),
        })
    }

    /// Writes one row for a record of the input at `input` (the path as given).
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write(&mut self, input: &str, res: &SolvedRecord) -> io::Result<()> {
        if self.input.0 != input || self.input.1.is_empty() {
            // Quoted as RFC 4180 asks, only when it must be.
            let field = if input.contains([',', '"', '\n', '\r']) || input.is_empty() {
                format!("\"{}\"", input.replace('"', "\"\""))
            } else {
                input.to_string()
            };
            self.input = (input.to_string(), field.into_bytes());
        }
        // Six numbers of at most 20 digits, `>=`, a status word of at most 10 bytes, 7 commas.
        let mut row = [0u8; 160];
        let mut len = 0;
        let mut put = |bytes: &[u8]| {
            row[len..len + bytes.len()].copy_from_slice(bytes);
            len += bytes.len();
        };
        let mut nums = itoa::Buffer::new();
        put(nums.format(res.record).as_bytes());
        put(b",");
        self.out.write_all(&row[..len])?;
        self.out.write_all(&self.input.1)?;
        let mut len = 0;
        let mut put = |bytes: &[u8]| {
            row[len..len + bytes.len()].copy_from_slice(bytes);
            len += bytes.len();
        };
        put(b",");
        put(nums.format(res.line).as_bytes());
        put(b",");
        put(res.status.as_str().as_bytes());
        put(b",");
        // A count that stopped at the limit is a lower bound: `>=N`, as `verify` says "at least".
        if res.capped {
            put(b">=");
        }
        put(nums.format(res.solutions).as_bytes());
        put(b",");
        if let Some(c) = res.clues {
            put(nums.format(c).as_bytes());
        }
        put(b",");
        put(nums.format(res.guesses).as_bytes());
        put(b",");
        put(nums.format(res.solve_ns).as_bytes());
        put(b",");
        self.out.write_all(&row[..len])?;
        match &res.error {
            None => self.out.write_all(b"\n"),
            Some(e) => {
                // The field and the record's end, which closes a quoted field.
                self.quoted.clear();
                let mut w = csv::Writer::from_writer(&mut self.quoted);
                w.write_field(e.to_string())?;
                w.write_record(None::<&[u8]>)?;
                w.flush()?;
                drop(w);
                self.out.write_all(&self.quoted)
            }
        }
    }

    /// Starts writing what is in the file so far to disk ([`Target::start_writeback`]).
    pub fn start_writeback(&self) {
        self.out.start_writeback();
    }

    /// The destination, to sync and commit when the run is done.
    pub fn into_target(self) -> Target {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::ParseError;
    use crate::report::Status;

    /// Rows read back by the csv crate give every field as written, whatever the error text
    /// holds (commas, quotes, a newline) and for the largest numbers.
    #[test]
    fn stats_rows_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.csv");
        let mut w = StatsWriter::new(Target::create(path.to_str().unwrap()).unwrap()).unwrap();
        let mut rec = SolvedRecord {
            record: u64::MAX,
            line: u64::MAX - 1,
            status: Status::Solved,
            solutions: u32::MAX,
            capped: true,
            clues: Some(81),
            guesses: u32::MAX,
            solve_ns: u64::MAX,
            solution: None,
            error: None,
        };
        w.write("in, \"a\".txt", &rec).unwrap();
        rec.status = Status::Invalid;
        rec.clues = None;
        rec.capped = false;
        let texts = ["a, \"quoted\" cell", "two\nlines", "plain"];
        for t in texts {
            rec.error = Some(ParseError::Conflict(t.to_string()));
            w.write("-", &rec).unwrap();
        }
        w.into_target().commit().unwrap();
        let mut rdr = csv::Reader::from_path(&path).unwrap();
        assert_eq!(rdr.headers().unwrap(), STATS_HEADER.as_slice());
        let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 1 + texts.len());
        let max = u64::MAX.to_string();
        let first: Vec<&str> = rows[0].iter().collect();
        let u32max = u32::MAX.to_string();
        let at_least = format!(">={u32max}");
        let line = (u64::MAX - 1).to_string();
        let input = "in, \"a\".txt";
        let expect = [
            &max, input, &line, "solved", &at_least, "81", &u32max, &max, "",
        ];
        assert_eq!(first, expect);
        for (row, t) in rows[1..].iter().zip(texts) {
            assert_eq!(&row[1], "-");
            assert_eq!(&row[3], "invalid");
            assert_eq!(&row[4], u32max, "not capped: the number alone");
            assert_eq!(&row[5], "");
            assert_eq!(&row[8], ParseError::Conflict(t.to_string()).to_string());
        }
    }

    #[test]
    fn regular_file_is_replaced_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        let p = path.to_str().unwrap();
        let mut t = Target::create(p).unwrap();
        t.write_all(b"new").unwrap();
        t.flush().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        drop(t);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "old",
            "dropped: target untouched"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temporary removed"
        );
        let mut t = Target::create(p).unwrap();
        t.write_all(b"new").unwrap();
        t.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn outputs_get_normal_permissions_and_keep_existing_ones() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let p = path.to_str().unwrap();
        Target::create(p).unwrap().commit().unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, "").unwrap();
        assert_eq!(
            mode(&path),
            mode(&plain),
            "as File::create, not a private temp"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        Target::create(p).unwrap().commit().unwrap();
        assert_eq!(mode(&path), 0o640);
    }

    #[test]
    fn symlink_target_is_written_through_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut t = Target::create(link.to_str().unwrap()).unwrap();
        t.write_all(b"new").unwrap();
        t.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn a_symlinked_output_is_replaced_atomically_at_the_file_it_names() {
        // The link's file was truncated and written in place, so a
        // run that failed left it half-written. Now an uncommitted run leaves it as it was.
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&real, "precious").unwrap();
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        let mut t = Target::create(link.to_str().unwrap()).unwrap();
        t.write_all(b"half of a run").unwrap();
        t.flush().unwrap();
        drop(t);
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "precious");
        // A dangling relative link, through a second link: the file is created where the
        // last link points, beside it, and both links stay links.
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::os::unix::fs::symlink("new.txt", sub.join("inner")).unwrap();
        let outer = dir.path().join("outer");
        std::os::unix::fs::symlink("sub/inner", &outer).unwrap();
        let mut t = Target::create(outer.to_str().unwrap()).unwrap();
        t.write_all(b"fresh").unwrap();
        t.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(sub.join("new.txt")).unwrap(),
            "fresh"
        );
        for l in [&outer, &sub.join("inner")] {
            assert!(std::fs::symlink_metadata(l).unwrap().is_symlink(), "{l:?}");
        }
    }

    #[test]
    fn a_symlink_to_a_stream_directory_or_loop_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let create = |name: &str| Target::create(d.join(name).to_str().unwrap());
        // A link to a device or to standard output is written as that stream: renaming a
        // temporary over `/dev/null` would need root and replace the device.
        std::os::unix::fs::symlink("/dev/null", d.join("null")).unwrap();
        let mut t = create("null").unwrap();
        assert!(matches!(t, Target::Device(_)));
        t.write_all(b"gone").unwrap();
        t.commit().unwrap();
        std::os::unix::fs::symlink("/dev/stdout", d.join("out")).unwrap();
        assert!(matches!(create("out").unwrap(), Target::Stdout(_)));
        // A link to a directory is refused as the directory is.
        std::fs::create_dir(d.join("dir")).unwrap();
        std::os::unix::fs::symlink("dir", d.join("to_dir")).unwrap();
        let e = create("to_dir").err().unwrap();
        assert_eq!(e.to_string(), "is a directory");
        // A loop fails, rather than hanging or renaming over one of its links.
        std::os::unix::fs::symlink("b", d.join("a")).unwrap();
        std::os::unix::fs::symlink("a", d.join("b")).unwrap();
        let e = create("a").err().unwrap();
        assert_eq!(e.to_string(), "too many levels of symbolic links (a loop?)");
        for l in ["null", "out", "to_dir", "a", "b"] {
            assert!(
                std::fs::symlink_metadata(d.join(l)).unwrap().is_symlink(),
                "{l}"
            );
        }
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        let names: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 6, "no temporaries left: {names:?}");
    }

    /// A `Target`'s errors give the reason alone and the caller's [`cannot_write`] names
    /// the path, so a message names it once, not `out.csv: cannot write solutions: out.csv:
    /// No space left on device` as it did. Each failure here fails for root too.
    #[test]
    fn errors_name_the_path_once() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").unwrap();
        let in_context = |e: io::Error, p: &str| {
            format!(
                "{:#}",
                anyhow::Error::new(e).context(cannot_write(p, "solutions"))
            )
        };
        // Creating: a parent that is a regular file, and a directory as the target.
        let under_file = plain.join("out.csv");
        let p = under_file.to_str().unwrap();
        let e = Target::create(p).err().unwrap();
        assert_eq!(
            in_context(e, p),
            format!("{p}: cannot write solutions: Not a directory")
        );
        let p = dir.path().to_str().unwrap();
        let e = Target::create(p).err().unwrap();
        assert_eq!(
            in_context(e, p),
            format!("{p}: cannot write solutions: is a directory")
        );
        // Writing: a temporary whose descriptor refuses writes (opened read-only).
        let out = dir.path().join("out.csv");
        let p = out.to_str().unwrap();
        let (_, tmp) = tempfile::NamedTempFile::new_in(dir.path())
            .unwrap()
            .into_parts();
        let read_only = std::fs::File::open(&tmp).unwrap();
        let mut t = Target::File {
            out: BufWriter::new(read_only),
            tmp,
            path: out.clone(),
        };
        t.write_all(b"123456789\n").unwrap();
        let msg = in_context(t.flush().unwrap_err(), p);
        assert!(
            msg.starts_with(&format!("{p}: cannot write solutions: ")),
            "{msg}"
        );
        let dir_name = dir.path().to_str().unwrap();
        assert_eq!(msg.matches(dir_name).count(), 1, "path named once: {msg}");
        let msg = in_context(t.commit().unwrap_err(), p);
        assert_eq!(msg.matches(dir_name).count(), 1, "path named once: {msg}");
        assert!(!out.exists(), "a failed commit renames nothing");
    }

    #[test]
    fn directory_target_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = Target::create(dir.path().to_str().unwrap()).err().unwrap();
        assert!(e.to_string().contains("is a directory"), "{e}");
    }
}
