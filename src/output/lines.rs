//! Lines output: one line per record, in input order.

use std::io::{self, Write};

use super::{SolutionWriter, Target};
use crate::batch::SolvedRecord;
use crate::input::RawRecord;

/// Writes the 81-digit solution of each record on its own line; a record without a
/// solution (`unsolvable`, `invalid`) gets its status word instead, which can never be
/// mistaken for a grid. A `multiple` record gets the first solution found.
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
    fn write(&mut self, _raw: &RawRecord, res: &SolvedRecord) -> io::Result<()> {
        match &res.solution {
            Some(g) => {
                let mut line = [b'\n'; 82];
                let digits: &mut [u8; 81] = (&mut line[..81])
                    .try_into()
                    .expect("the first 81 bytes of an 82-byte array");
                g.write_digits(digits);
                self.out.write_all(&line)
            }
            None => {
                self.out.write_all(res.status.as_str().as_bytes())?;
                self.out.write_all(b"\n")
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn start_writeback(&self) {
        self.out.start_writeback();
    }
}
