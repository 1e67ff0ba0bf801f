//! What `verify` counts over a run, and the JSON it writes with `--report FILE`.

use std::collections::BTreeMap;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::check::Verdict;
use crate::report::InputInfo;

/// Rows counted by verdict; serialised as an object keyed by the verdict words, in
/// [`Verdict::ALL`] order, zeros included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerdictCounts([u64; Verdict::ALL.len()]);

impl VerdictCounts {
    /// Adds one row of `verdict`.
    pub fn add(&mut self, verdict: Verdict) {
        self.0[verdict as usize] += 1;
    }

    /// Rows of `verdict`.
    pub fn get(&self, verdict: Verdict) -> u64 {
        self.0[verdict as usize]
    }

    /// All rows counted.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Rows whose verdict fails the run (neither `ok` nor `duplicate`).
    pub fn rejected(&self) -> u64 {
        Verdict::ALL
            .iter()
            .filter(|v| v.is_rejection())
            .map(|&v| self.get(v))
            .sum()
    }
}

impl Serialize for VerdictCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(Verdict::ALL.len()))?;
        for v in Verdict::ALL {
            m.serialize_entry(v.as_str(), &self.get(v))?;
        }
        m.end()
    }
}

/// One row named as an example: its input and 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The input path as given.
    pub path: String,
    /// 1-based line in that input.
    pub line: u64,
}

/// Rows that share a number of guesses in `min_guesses..=max_guesses` (powers of two:
/// 0, 1, 2-3, 4-7, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GuessBucket {
    /// Fewest guesses in the bucket.
    pub min_guesses: u64,
    /// Most guesses in the bucket.
    pub max_guesses: u64,
    /// Rows whose solver run made that many guesses.
    pub rows: u64,
}

/// Guess counts of the rows that reached the solver, in power-of-two buckets.
#[derive(Clone, Copy, Debug)]
pub struct GuessHistogram([u64; 33]);

impl Default for GuessHistogram {
    fn default() -> Self {
        GuessHistogram([0; 33])
    }
}

impl GuessHistogram {
    /// Adds one row that made `guesses` guesses.
    pub fn add(&mut self, guesses: u32) {
        // 0 → bucket 0; g ≥ 1 → bucket 1 + floor(log2 g).
        let b = (u32::BITS - guesses.leading_zeros()) as usize;
        self.0[b] += 1;
    }

    /// The non-empty buckets, fewest guesses first.
    pub fn buckets(&self) -> Vec<GuessBucket> {
        let bounds = |b: usize| match b {
            0 => (0, 0),
            _ => (1u64 << (b - 1), (1u64 << b) - 1),
        };
        (0..self.0.len())
            .filter(|&b| self.0[b] > 0)
            .map(|b| GuessBucket {
                min_guesses: bounds(b).0,
                max_guesses: bounds(b).1,
                rows: self.0[b],
            })
            .collect()
    }
}

/// The JSON written by `verify --report FILE`.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    /// `sudoku-batch`.
    pub tool: &'static str,
    /// Tool version (Cargo package version).
    pub version: &'static str,
    /// `verify`.
    pub command: &'static str,
    /// The inputs, in order.
    pub inputs: Vec<InputInfo>,
    /// Total input size, bytes.
    pub input_bytes: u64,
    /// Rows (data records) checked.
    pub rows: u64,
    /// Rows by verdict (`ok`, `duplicate`, `puzzle-malformed`, ...).
    pub verdicts: VerdictCounts,
    /// Rows whose verdict fails the run: all but `ok` and `duplicate`.
    pub rejected: u64,
    /// Rows whose puzzle repeats an earlier row's, whatever their verdict.
    pub duplicates: u64,
    /// Rows whose stored solution is wrong: the `solution-*` verdicts, plus non-unique
    /// puzzles whose stored grid is none of their solutions. A non-unique puzzle with a
    /// valid stored solution is rejected (`multiple-solutions`) but not counted here.
    pub stored_solutions_wrong: u64,
    /// Where the stored solutions were read: the solution column's name (`column N` without
    /// a header), `field 2` (the 81-cell field after the puzzle on a line), several of these
    /// joined by `, ` across inputs, or `null` when no row carried one: then only the
    /// puzzles were checked.
    pub solution_source: Option<String>,
    /// Up to 10 example rows per verdict other than `ok`, in input order.
    pub examples: BTreeMap<&'static str, Vec<Example>>,
    /// Up to 10 example rows whose puzzle repeats an earlier one, whatever their verdict.
    pub duplicate_examples: Vec<Example>,
    /// Rows by number of givens (clues → rows), for rows whose puzzle parsed.
    pub clues_histogram: BTreeMap<u32, u64>,
    /// Rows by guesses the solver made, for rows that reached the solver.
    pub guesses_histogram: Vec<GuessBucket>,
    /// Solutions are counted up to this many.
    pub solution_limit: u32,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of the whole run, milliseconds.
    pub wall_ms: f64,
    /// Rows per second of wall time (0 when there are no rows).
    pub rows_per_s: f64,
    /// Whether the run was interrupted (Ctrl-C) before the end.
    pub interrupted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guess_buckets_are_powers_of_two() {
        let mut h = GuessHistogram::default();
        for g in [0, 0, 1, 2, 3, 4, 7, 8, u32::MAX] {
            h.add(g);
        }
        let got: Vec<(u64, u64, u64)> = h
            .buckets()
            .iter()
            .map(|b| (b.min_guesses, b.max_guesses, b.rows))
            .collect();
        assert_eq!(
            got,
            [
                (0, 0, 2),
                (1, 1, 1),
                (2, 3, 2),
                (4, 7, 2),
                (8, 15, 1),
                (1 << 31, (1 << 32) - 1, 1)
            ]
        );
    }

    #[test]
    fn counts_serialise_under_verdict_words() {
        let mut c = VerdictCounts::default();
        c.add(Verdict::Ok);
        c.add(Verdict::Duplicate);
        c.add(Verdict::SolutionIllegal);
        assert_eq!((c.total(), c.rejected()), (3, 1));
        let v = serde_json::to_value(c).unwrap();
        assert_eq!(v["solution-illegal"], 1);
        assert_eq!(v["duplicate"], 1);
        assert_eq!(v["no-solution"], 0);
    }
}
