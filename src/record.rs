//! [`SolvedRecord`]: what `solve` found for one record. Shared by the solve command, which
//! makes it, and the writers in [`crate::output`], which write it, so it lives below both.

use crate::grid::{Grid, ParseError};
use crate::input::RawRecord;
use crate::report::Status;

/// The result of solving one record.
#[derive(Clone, Debug)]
pub struct SolvedRecord {
    /// 0-based record index over the whole run.
    pub record: u64,
    /// 1-based line in its input.
    pub line: u64,
    /// What happened.
    pub status: Status,
    /// Solutions found, up to the limit.
    pub solutions: u32,
    /// The count stopped at a limit of 2 or more: the puzzle has at least `solutions`
    /// solutions (a lower bound, written `>=N` in the stats).
    pub capped: bool,
    /// Givens in the puzzle, when it parsed.
    pub clues: Option<u32>,
    /// Guesses the solver made.
    pub guesses: u32,
    /// Time spent in the solver (which also finds clashing givens), nanoseconds, monotonic
    /// clock.
    pub solve_ns: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Why the record is `invalid`, else `None`.
    pub error: Option<ParseError>,
}

impl SolvedRecord {
    /// The record `raw` as `invalid` with nothing found yet: the start of every result.
    pub fn new(raw: &RawRecord) -> SolvedRecord {
        SolvedRecord {
            record: raw.record,
            line: raw.line,
            status: Status::Invalid,
            solutions: 0,
            capped: false,
            clues: None,
            guesses: 0,
            solve_ns: 0,
            solution: None,
            error: None,
        }
    }
}
