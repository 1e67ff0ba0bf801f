//! [`SolvedRecord`]: what `solve` found for one record. Shared by the solve command, which
//! makes it, and the writers in [`crate::output`], which write it, so it lives below both.

use crate::grid::{Grid, ParseError};
use crate::input::RawRecord;
use crate::report::Status;
use crate::solver;
use std::time::Instant;

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
        SolvedRecord::at(raw.record, raw.line)
    }

    /// Record `record` (0-based) at `line` (1-based) as `invalid` with nothing found yet.
    pub(crate) fn at(record: u64, line: u64) -> SolvedRecord {
        SolvedRecord {
            record,
            line,
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

    /// Solves `puzzle` into this record, counting solutions up to `limit`: its clues, the
    /// solver's time, count, guesses and first solution, and the status (`invalid` with
    /// [`ParseError::Conflict`] when two givens clash). The one classification of a puzzle
    /// that `solve` and [`crate::batch`] share.
    pub fn solve(&mut self, puzzle: &Grid, limit: u32) {
        self.clues = Some(puzzle.clues());
        let start = Instant::now();
        let s = solver::solve(puzzle, limit);
        self.solve_ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        if s.givens_clash {
            let c = puzzle
                .conflicts()
                .unwrap_or_else(|| "two givens clash".to_string());
            self.error = Some(ParseError::Conflict(c));
            return;
        }
        self.solutions = s.count;
        self.capped = limit >= 2 && s.count >= limit;
        self.guesses = s.guesses;
        self.solution = s.grid;
        self.status = match s.count {
            0 => Status::Unsolvable,
            1 => Status::Solved,
            _ if limit == 1 => Status::Solved,
            _ => Status::Multiple,
        };
    }
}
