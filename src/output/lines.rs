//! Lines output: one line per record, in input order.

use std::io::{self, Write};

use super::{SolutionWriter, Target};
use crate::input::RawRecord;
use crate::record::SolvedRecord;
use crate::report::Status;

/// Writes the 81-digit solution of each `solved` record on its own line; any other record
/// gets its status word instead (`multiple`, `unsolvable`, `invalid`), which can never be
/// mistaken for a grid. A non-unique puzzle has no solution to give: one of its solutions
/// written bare would read as *the* answer. (`--first` gives every solvable record a grid;
/// CSV output keeps the first solution found beside the status.)
pub struct LinesWriter {
    out: Target,
}

impl LinesWriter {
    /// A writer to `out`.
    pub fn new(out: Target) -> LinesWriter {
        LinesWriter { out }
    }

    /// The destination, to commit when the run is done.
    pub fn into_target(self) -> Target {
        self.out
    }
}

impl SolutionWriter for LinesWriter {
    fn write(&mut self, _: &str, _raw: &RawRecord, res: &SolvedRecord) -> io::Result<()> {
        match &res.solution {
            Some(g) if res.status == Status::Solved => {
                let mut line = [b'\n'; 82];
                let digits: &mut [u8; 81] = (&mut line[..81])
                    .try_into()
                    .expect("the first 81 bytes of an 82-byte array");
                g.write_digits(digits);
                self.out.write_all(&line)
            }
            _ => {
                self.out.write_all(res.status.as_str().as_bytes())?;
                self.out.write_all(b"\n")
            }
        }
    }

    fn start_writeback(&self) {
        self.out.start_writeback();
    }
}
