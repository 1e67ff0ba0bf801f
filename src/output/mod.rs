//! Output: where results go. One [`SolutionWriter`] per format (lines, CSV), the per-record
//! stats CSV, and [`Target`], which writes a file through a temporary beside it and renames it
//! into place only when the run completes.

mod csv_out;
mod lines;

pub use csv_out::CsvWriter;
pub use lines::LinesWriter;

use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::batch::SolvedRecord;
use crate::input::RawRecord;

/// Writes one result per record, in input order.
pub trait SolutionWriter {
    /// Writes the result of `raw`.
    ///
    /// # Errors
    /// Any I/O error of the underlying writer.
    fn write(&mut self, raw: &RawRecord, res: &SolvedRecord) -> io::Result<()>;
    /// Flushes buffered output.
    ///
    /// # Errors
    /// Any I/O error of the underlying writer.
    fn flush(&mut self) -> io::Result<()>;
}

/// A destination: standard output, or a file written through a temporary that is renamed
/// over the target on [`Target::commit`]; dropped uncommitted, the temporary is removed and
/// the target is left as it was.
pub enum Target {
    /// Standard output (`-`).
    Stdout(BufWriter<io::Stdout>),
    /// A temporary file beside the target.
    File {
        /// The buffered temporary file.
        out: BufWriter<tempfile::NamedTempFile>,
        /// Where it goes on commit.
        path: std::path::PathBuf,
    },
}

impl Target {
    /// Opens `path` (`-` = stdout) for writing.
    ///
    /// # Errors
    /// When the temporary file cannot be created beside `path` (missing or read-only
    /// directory); the message names the path.
    pub fn create(path: &str) -> io::Result<Target> {
        if path == "-" {
            return Ok(Target::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout(),
            )));
        }
        let target = Path::new(path);
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if target.is_dir() {
            return Err(io::Error::other(format!("{path}: is a directory")));
        }
        let tmp = tempfile::Builder::new()
            .prefix(".sudoku-batch-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{path}: cannot write here: {e}")))?;
        Ok(Target::File {
            out: BufWriter::with_capacity(1 << 16, tmp),
            path: target.to_path_buf(),
        })
    }

    /// Flushes and, for a file, renames the temporary over the target.
    ///
    /// # Errors
    /// A write, flush or rename error, naming the path.
    pub fn commit(self) -> io::Result<()> {
        match self {
            Target::Stdout(mut w) => w.flush(),
            Target::File { out, path } => {
                let named =
                    |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
                let tmp = out.into_inner().map_err(|e| named(e.into_error()))?;
                tmp.as_file().sync_data().map_err(named)?;
                tmp.persist(&path).map_err(|e| named(e.error))?;
                Ok(())
            }
        }
    }
}

impl Write for Target {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Target::Stdout(w) => w.write(buf),
            Target::File { out, .. } => out.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Target::Stdout(w) => w.write_all(buf),
            Target::File { out, .. } => out.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Target::Stdout(w) => w.flush(),
            Target::File { out, .. } => out.flush(),
        }
    }
}

/// The header of the `--stats` CSV.
pub const STATS_HEADER: [&str; 8] = [
    "record",
    "line",
    "status",
    "solutions",
    "clues",
    "guesses",
    "solve_ns",
    "error",
];

/// Writes the per-record stats CSV (`--stats`): `record,line,status,solutions,clues,guesses,solve_ns,error`.
pub struct StatsWriter {
    out: csv::Writer<Target>,
}

impl StatsWriter {
    /// Writes the header to `target`.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn new(target: Target) -> io::Result<StatsWriter> {
        let mut out = csv::Writer::from_writer(target);
        out.write_record(STATS_HEADER)?;
        Ok(StatsWriter { out })
    }

    /// Writes one row.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write(&mut self, res: &SolvedRecord) -> io::Result<()> {
        let mut nums = itoa::Buffer::new();
        let clues = res.clues.map(|c| c.to_string()).unwrap_or_default();
        let error = res
            .error
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        self.out.write_field(nums.format(res.record))?;
        self.out.write_field(nums.format(res.line))?;
        self.out.write_field(res.status.as_str())?;
        self.out.write_field(nums.format(res.solutions))?;
        self.out.write_field(clues)?;
        self.out.write_field(nums.format(res.guesses))?;
        self.out.write_field(nums.format(res.solve_ns))?;
        self.out.write_field(error)?;
        self.out.write_record(None::<&[u8]>)?;
        Ok(())
    }

    /// Flushes and renames the file into place.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn commit(self) -> io::Result<()> {
        self.out
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?
            .commit()
    }
}
