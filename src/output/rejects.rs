//! The `verify --rejects FILE` CSV: one row per record whose verdict is not `ok`.

use std::io;

use super::Target;

/// The header of the rejects CSV.
pub const REJECTS_HEADER: [&str; 7] = [
    "record", "input", "line", "verdict", "detail", "puzzle", "solution",
];

/// One rejected row, as written.
#[derive(Clone, Copy, Debug)]
pub struct RejectRow<'a> {
    /// 0-based record over the whole run.
    pub record: u64,
    /// The input's path as given (`-` for standard input).
    pub input: &'a str,
    /// 1-based line in its input.
    pub line: u64,
    /// The verdict word (`clue-conflict`, `duplicate`, ...).
    pub verdict: &'a str,
    /// Why, naming the cell or unit.
    pub detail: &'a str,
    /// The puzzle field as found in the input (empty when the row has none).
    pub puzzle: &'a [u8],
    /// The solution field as found in the input (empty when the row has none).
    pub solution: &'a [u8],
}

/// Writes `record,input,line,verdict,detail,puzzle,solution` rows, quoted as CSV needs.
pub struct RejectsWriter {
    out: csv::Writer<Target>,
}

impl RejectsWriter {
    /// Writes the header to `target`.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn new(target: Target) -> io::Result<RejectsWriter> {
        let mut out = csv::Writer::from_writer(target);
        out.write_record(REJECTS_HEADER)?;
        Ok(RejectsWriter { out })
    }

    /// Writes one row.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write(&mut self, row: &RejectRow<'_>) -> io::Result<()> {
        let mut nums = itoa::Buffer::new();
        self.out.write_field(nums.format(row.record))?;
        self.out.write_field(row.input)?;
        self.out.write_field(nums.format(row.line))?;
        self.out.write_field(row.verdict)?;
        self.out.write_field(row.detail)?;
        self.out.write_field(row.puzzle)?;
        self.out.write_field(row.solution)?;
        self.out.write_record(None::<&[u8]>)?;
        Ok(())
    }

    /// Flushes the rows and gives back the destination, to sync and commit.
    ///
    /// # Errors
    /// A flush error.
    pub fn into_target(self) -> io::Result<Target> {
        self.out
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))
    }
}
