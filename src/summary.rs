//! The human side of a run's end: the lines printed on stderr (`path:line: reason` notes,
//! counts with the right plural). Kept short: every summary line fits in 100 columns for the
//! figures of a billion-record run (issue 11).

use std::io::Write;

use crate::input::{Layout, RawRecord};

/// `1 record`, `2 records`, `0 records`: `n` with the noun that fits it.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Prints the first bad records, already formatted as `path:line: reason`, one per line,
/// then how many more of the `total` there were (`what` names them and where to look).
pub fn print_notes(err: &mut impl Write, notes: &[String], total: u64, what: &str) {
    for n in notes {
        let _ = writeln!(err, "sudoku-batch: {n}");
    }
    let more = total.saturating_sub(notes.len() as u64);
    if more > 0 {
        let _ = writeln!(err, "sudoku-batch: ... and {more} more {what}");
    }
}

/// The first records a run could not handle, as `path:line: reason`, and how many there were:
/// what `rate`, `augment`, `canon`, `dedup` and `overlap` print on stderr (`solve` and `verify`
/// keep theirs in their own counts, printed with [`print_notes`] too).
#[derive(Debug, Default)]
pub struct Notes {
    first: Vec<String>,
    total: u64,
}

impl Notes {
    /// Records named one by one on stderr before the rest are only counted.
    const MAX: usize = 10;

    /// Notes that the record at `path:line` could not be handled, and why.
    pub fn add(&mut self, path: &str, line: u64, why: impl std::fmt::Display) {
        self.total += 1;
        if self.first.len() < Self::MAX {
            self.first.push(format!("{path}:{line}: {why}"));
        }
    }

    /// Prints the first notes and how many more there were (`what` names them).
    pub fn print(&self, what: &str) {
        print_notes(&mut std::io::stderr().lock(), &self.first, self.total, what);
    }
}

/// Counts the puzzles read from a chosen column and the complete grids among them, to warn
/// when that column holds solutions: a run over them means nothing (trial 3: `overlap
/// --puzzle-column 2` read a test file's `solutions` and reported a clean split; trial 4:
/// `rate` rated a solution column, every rating 0).
#[derive(Debug)]
pub struct PuzzleColumnCheck {
    /// Names the puzzles in the warning: `train `, `test ` or empty.
    side: &'static str,
    /// The flag that chooses the column, e.g. `--puzzle-column`.
    flag: &'static str,
    /// Where the puzzles come from ([`Layout::puzzle_source`]); `None` for lines, where
    /// no column is chosen.
    column: Option<String>,
    /// Records whose puzzle parsed.
    puzzles: u64,
    /// Of those, complete grids (81 givens).
    complete: u64,
}

impl PuzzleColumnCheck {
    /// A check of the puzzles read as `layout` says (the inputs' first layout), for the
    /// puzzles named `side` (`train `, `test ` or empty), chosen by `flag`.
    pub fn new(side: &'static str, flag: &'static str, layout: Option<&Layout>) -> Self {
        let column = layout
            .filter(|l| l.columns().is_some())
            .map(Layout::puzzle_source);
        PuzzleColumnCheck {
            side,
            flag,
            column,
            puzzles: 0,
            complete: 0,
        }
    }

    /// Counts `raw`'s puzzle, if it parsed.
    pub fn note(&mut self, raw: &RawRecord) {
        if let Ok(p) = &raw.puzzle {
            self.puzzles += 1;
            self.complete += u64::from(p.clues() == 81);
        }
    }

    /// The warning, when the puzzles came from a column and every one is a complete grid.
    pub fn warning(&self) -> Option<String> {
        let column = self.column.as_ref()?;
        (self.puzzles > 0 && self.complete == self.puzzles).then(|| {
            format!(
                "sudoku-batch: warning: every {side}puzzle (read from {column}) is a complete \
                 grid (81 givens), as in a solution column; if that is a mistake, choose the \
                 {side}puzzle column with {flag}",
                side = self.side,
                flag = self.flag,
            )
        })
    }

    /// Prints [`PuzzleColumnCheck::warning`] on stderr (even when quiet: the run's results
    /// are likely meaningless).
    pub fn warn(&self) {
        if let Some(w) = self.warning() {
            eprintln!("{w}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "record", "records"), "1 record");
        assert_eq!(count(0, "record", "records"), "0 records");
        assert_eq!(count(2, "thread", "threads"), "2 threads");
    }
}
