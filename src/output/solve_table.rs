//! `solve` written as a table (`.jsonl`, `.npz`, or `--output-format`): one row per record,
//! `record,input,line,puzzle,solution,status`, whatever the input's layout (issue 13).

use std::io;

use super::table::{Column, Kind, TableWriter, Value, INPUT, LINE, RECORD};
use super::{SolutionWriter, Target};
use crate::input::RawRecord;
use crate::record::SolvedRecord;

/// The columns: 0-based record over the run, the input's path as given (`-` for standard
/// input), 1-based line in that input, the puzzle as read (empty when it is not a
/// puzzle), the first solution found (empty when there is none; for `multiple` one of
/// several, as in CSV output) and the status word.
pub const SOLVE_COLUMNS: &[Column] = &[
    RECORD,
    INPUT,
    LINE,
    Column {
        name: "puzzle",
        kind: Kind::Grid,
    },
    Column {
        name: "solution",
        kind: Kind::Grid,
    },
    Column {
        name: "status",
        kind: Kind::Text,
    },
];

/// Writes `solve`'s results through a [`TableWriter`].
pub struct SolveTable(Box<dyn TableWriter + Send>);

impl SolveTable {
    /// A writer of [`SOLVE_COLUMNS`] through `table`.
    pub fn new(table: Box<dyn TableWriter + Send>) -> SolveTable {
        SolveTable(table)
    }

    /// Writes what the format keeps to the end and gives back the destination.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn into_target(self) -> io::Result<Target> {
        self.0.finish()
    }
}

impl SolutionWriter for SolveTable {
    fn write(&mut self, input: &str, raw: &RawRecord, res: &SolvedRecord) -> io::Result<()> {
        self.0.write_row(&[
            Value::Int(res.record),
            Value::Text(input),
            Value::Int(res.line),
            raw.puzzle.as_ref().map_or(Value::Null, Value::Grid),
            res.solution.as_ref().map_or(Value::Null, Value::Grid),
            Value::Text(res.status.as_str()),
        ])
    }

    fn start_writeback(&self) {
        self.0.start_writeback();
    }
}
