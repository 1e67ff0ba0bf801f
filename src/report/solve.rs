//! The counts of `solve`: records by status, latency percentiles, guesses ([`SolveCounts`]).

use hdrhistogram::serialization::Serializer as _;
use hdrhistogram::Histogram;
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use super::{over, sum_mismatch, Counts, Report};
use crate::grid::ParseError;

/// What happened to one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Exactly one solution (or, with `--first`, the first one found).
    Solved,
    /// Two or more solutions. Lines output writes the word `multiple`; CSV output keeps the
    /// first solution found beside the status.
    Multiple,
    /// No solution, and no two givens conflict.
    Unsolvable,
    /// Not a puzzle: wrong length, a bad character, or two equal givens in one unit.
    Invalid,
}

impl Status {
    /// The lower-case word used in every output: `solved`, `multiple`, `unsolvable`, `invalid`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
        }
    }

    /// The status as a stable small integer, for integer columns (numpy, Arrow):
    /// `Solved` = 0, `Multiple` = 1, `Unsolvable` = 2, `Invalid` = 3. These values are part
    /// of the library's interface and do not change.
    ///
    /// ```
    /// use sudoku_batch::Status;
    /// assert_eq!(Status::Solved.code(), 0);
    /// assert_eq!(Status::Invalid.code(), 3);
    /// ```
    pub fn code(self) -> u8 {
        match self {
            Status::Solved => 0,
            Status::Multiple => 1,
            Status::Unsolvable => 2,
            Status::Invalid => 3,
        }
    }
}

/// Records counted by status.
///
/// In JSON, `multiple` is `null` when `first_solution_only` is set (and a `null` reads back
/// as that): a run that stopped at each puzzle's first solution never looked for a second,
/// so `"multiple": 0` would read as a finding. Reports written before
/// this say `0` there; their `solution_limit` of 1 tells the mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "StatusCountsJson", from = "StatusCountsJson")]
pub struct StatusCounts {
    /// Records with status `solved`: in first-solution mode, records with a solution whose
    /// uniqueness was not checked.
    pub solved: u64,
    /// Records with status `multiple` (always 0 in first-solution mode).
    pub multiple: u64,
    /// Records with status `unsolvable`.
    pub unsolvable: u64,
    /// Records with status `invalid`.
    pub invalid: u64,
    /// Counted in first-solution mode (`solve --first`, any merged run in it): uniqueness
    /// was not checked, `multiple` counts nothing.
    pub first_solution_only: bool,
}

/// [`StatusCounts`] as written in a report.
#[derive(Serialize, Deserialize)]
struct StatusCountsJson {
    solved: u64,
    /// `null`: not checked (first-solution mode).
    #[serde(default)]
    multiple: Option<u64>,
    unsolvable: u64,
    invalid: u64,
}

impl From<StatusCounts> for StatusCountsJson {
    fn from(c: StatusCounts) -> StatusCountsJson {
        StatusCountsJson {
            solved: c.solved,
            multiple: (!c.first_solution_only).then_some(c.multiple),
            unsolvable: c.unsolvable,
            invalid: c.invalid,
        }
    }
}

impl From<StatusCountsJson> for StatusCounts {
    fn from(c: StatusCountsJson) -> StatusCounts {
        StatusCounts {
            solved: c.solved,
            multiple: c.multiple.unwrap_or(0),
            unsolvable: c.unsolvable,
            invalid: c.invalid,
            first_solution_only: c.multiple.is_none(),
        }
    }
}

impl StatusCounts {
    /// The first summary line of a command that gives every record a status (`rate`,
    /// `trace`): `N records: S <done>, M multiple, U unsolvable, I invalid`, then
    /// ` (interrupted)` when Ctrl-C stopped the run.
    pub fn line(&self, done: &str, interrupted: bool) -> String {
        format!(
            "{}: {} {done}, {} multiple, {} unsolvable, {} invalid{}",
            crate::summary::count(self.total(), "record", "records"),
            self.solved,
            self.multiple,
            self.unsolvable,
            self.invalid,
            if interrupted { " (interrupted)" } else { "" }
        )
    }

    /// Adds one record of `status`.
    pub fn add(&mut self, status: Status) {
        *match status {
            Status::Solved => &mut self.solved,
            Status::Multiple => &mut self.multiple,
            Status::Unsolvable => &mut self.unsolvable,
            Status::Invalid => &mut self.invalid,
        } += 1;
    }

    /// All records counted.
    pub fn total(&self) -> u64 {
        self.solved + self.multiple + self.unsolvable + self.invalid
    }
}

impl AddAssign<&StatusCounts> for StatusCounts {
    fn add_assign(&mut self, other: &StatusCounts) {
        self.solved += other.solved;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.invalid += other.invalid;
        self.first_solution_only |= other.first_solution_only;
    }
}

/// The `invalid` records by why: not a puzzle at all, or a puzzle that breaks the rules
/// (the same split as `verify`'s `puzzle-malformed` and `clue-conflict`), or a bug.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidKinds {
    /// Records that could not be parsed as a puzzle: wrong length, a bad character, a
    /// ragged CSV row.
    pub malformed: u64,
    /// Puzzles whose givens break the rules: two equal givens in one unit.
    pub clue_conflict: u64,
    /// Records whose work panicked (a bug in sudoku-batch).
    pub internal_error: u64,
}

impl InvalidKinds {
    /// Adds one `invalid` record whose reason is `error`.
    pub fn add(&mut self, error: Option<&ParseError>) {
        *match error {
            Some(ParseError::Conflict(_)) => &mut self.clue_conflict,
            Some(ParseError::Internal(_)) => &mut self.internal_error,
            _ => &mut self.malformed,
        } += 1;
    }
}

impl AddAssign<&InvalidKinds> for InvalidKinds {
    fn add_assign(&mut self, other: &InvalidKinds) {
        self.malformed += other.malformed;
        self.clue_conflict += other.clue_conflict;
        self.internal_error += other.internal_error;
    }
}

/// Latency percentiles of the per-record solve time, in microseconds of wall time (a
/// thread descheduled mid-puzzle counts its wait).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Median, µs.
    pub p50_us: f64,
    /// 90th percentile, µs.
    pub p90_us: f64,
    /// 99th percentile, µs.
    pub p99_us: f64,
    /// Slowest record, µs.
    pub max_us: f64,
    /// Mean, µs.
    pub mean_us: f64,
}

/// Accumulates per-record solve times (nanoseconds, monotonic clock) and guess counts.
///
/// Percentiles come from an HDR histogram with 3 significant digits, so memory stays
/// constant whatever the number of records. In a report it is written as a
/// [`TallySummary`], so that reports of shards merge exactly.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "TallySummary", try_from = "TallySummary")]
pub struct Tally {
    hist: Histogram<u64>,
    /// Records that reached the solver (not `invalid`).
    pub solved_by_search: u64,
    /// Total guesses over those records.
    pub guesses: u64,
    /// Of those records, how many needed no guess.
    pub no_guess: u64,
    /// Sum of solve times of those records, nanoseconds (a clue conflict's, which
    /// `--stats` gives, is not among them).
    pub solve_ns: u64,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            hist: Histogram::new(3).expect("3 significant digits is a valid precision"),
            solved_by_search: 0,
            guesses: 0,
            no_guess: 0,
            solve_ns: 0,
        }
    }
}

impl Tally {
    /// The per-record solve times recorded so far, nanoseconds of wall time, 3 significant
    /// digits (what `report plot` draws).
    pub fn histogram(&self) -> &Histogram<u64> {
        &self.hist
    }

    /// Adds one record that reached the solver: its solve time (ns) and guesses.
    pub fn add(&mut self, solve_ns: u64, guesses: u32) {
        // The histogram grows to fit; should growing ever fail, clamp rather than drop.
        if self.hist.record(solve_ns.max(1)).is_err() {
            self.hist.saturating_record(solve_ns.max(1));
        }
        self.solved_by_search += 1;
        self.guesses += u64::from(guesses);
        self.no_guess += u64::from(guesses == 0);
        self.solve_ns += solve_ns;
    }

    /// The counters and the histogram in a serializable form, for exact merging of the
    /// reports of shards (`report merge`).
    pub fn summary(&self) -> TallySummary {
        let mut buf = Vec::new();
        let hist = match hdrhistogram::serialization::V2Serializer::new()
            .serialize(&self.hist, &mut buf)
        {
            Ok(_) => base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &buf),
            Err(_) => String::new(),
        };
        TallySummary {
            searched: self.solved_by_search,
            guesses: self.guesses,
            no_guess: self.no_guess,
            solve_ns: self.solve_ns,
            hist_v2_base64: hist,
        }
    }

    /// Rebuilds a tally from [`Tally::summary`].
    ///
    /// # Errors
    /// When `hist_v2_base64` is not base64 or not an HdrHistogram V2 histogram: a readable
    /// reason, `latency histogram: truncated or damaged (failed to fill whole buffer)`.
    pub fn from_summary(s: &TallySummary) -> Result<Tally, String> {
        let mut t = Tally::default();
        if !s.hist_v2_base64.is_empty() {
            let bytes = base64::Engine::decode(
                &base64::engine::general_purpose::STANDARD,
                &s.hist_v2_base64,
            )
            .map_err(|e| format!("latency histogram: not base64 ({e})"))?;
            t.hist = hdrhistogram::serialization::Deserializer::new()
                .deserialize(&mut bytes.as_slice())
                .map_err(|e| {
                    use hdrhistogram::serialization::DeserializeError as E;
                    // The crate's own words for a short read start "An i/o operation
                    // failed": the reason worth saying is the I/O error's.
                    let why = match &e {
                        E::IoError(io) => io.to_string(),
                        other => other.to_string(),
                    };
                    format!("latency histogram: truncated or damaged ({why})")
                })?;
            t.hist.auto(true);
        }
        t.solved_by_search = s.searched;
        t.guesses = s.guesses;
        t.no_guess = s.no_guess;
        t.solve_ns = s.solve_ns;
        Ok(t)
    }

    /// Latency percentiles in µs; all zero when nothing was solved.
    pub fn latency(&self) -> Latency {
        if self.hist.is_empty() {
            return Latency::default();
        }
        let us = |ns: u64| ns as f64 / 1000.0;
        Latency {
            p50_us: us(self.hist.value_at_quantile(0.50)),
            p90_us: us(self.hist.value_at_quantile(0.90)),
            p99_us: us(self.hist.value_at_quantile(0.99)),
            max_us: us(self.hist.max()),
            mean_us: self.hist.mean() / 1000.0,
        }
    }

    /// Guesses per record that reached the solver; 0 when none did.
    pub fn guesses_per_puzzle(&self) -> f64 {
        ratio(self.guesses as f64, self.solved_by_search as f64)
    }

    /// Percentage of solver records that needed no guess; 0 when none did.
    pub fn no_guess_pct(&self) -> f64 {
        100.0 * ratio(self.no_guess as f64, self.solved_by_search as f64)
    }
}

impl AddAssign<&Tally> for Tally {
    /// Adds everything `other` counted.
    fn add_assign(&mut self, other: &Tally) {
        // Both histograms auto-resize, so adding cannot fail for range reasons.
        let _ = self.hist.add(&other.hist);
        self.solved_by_search += other.solved_by_search;
        self.guesses += other.guesses;
        self.no_guess += other.no_guess;
        self.solve_ns += other.solve_ns;
    }
}

impl From<Tally> for TallySummary {
    fn from(t: Tally) -> TallySummary {
        t.summary()
    }
}

impl TryFrom<TallySummary> for Tally {
    type Error = String;

    fn try_from(s: TallySummary) -> Result<Tally, String> {
        Tally::from_summary(&s)
    }
}

/// A [`Tally`] as stored in a JSON report, so that reports of shards merge exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallySummary {
    /// Records that reached the solver (not `invalid`).
    pub searched: u64,
    /// Total guesses over those records.
    pub guesses: u64,
    /// Of those records, how many needed no guess.
    pub no_guess: u64,
    /// Sum of per-record solve times, nanoseconds.
    pub solve_ns: u64,
    /// The per-record solve-time histogram (nanoseconds, 3 significant digits) in
    /// HdrHistogram's V2 serialization, base64 (standard alphabet, padded).
    pub hist_v2_base64: String,
}

/// `a / b`, or 0 when `b` is 0: reports never show NaN or infinity.
pub fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// Throughput, latency and guesses of a run: the figures that `solve --report`
/// and `report merge` both derive from the record count, the [`Tally`] and the wall time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRates {
    /// Records per second of wall time.
    pub puzzles_per_s: f64,
    /// Wall time per record, microseconds.
    pub us_per_puzzle: f64,
    /// Sum of per-record solve times of the searched records (not `invalid`: a clue
    /// conflict's time in the solver, which `--stats` gives, is left out), milliseconds
    /// (CPU work over all threads).
    pub solve_ms_total: f64,
    /// Per-record solve time percentiles, microseconds (records that reached the solver).
    pub latency: Latency,
    /// Guesses per record that reached the solver.
    pub guesses_per_puzzle: f64,
    /// Percentage of those records solved without a guess.
    pub no_guess_pct: f64,
}

impl RunRates {
    /// The figures for `records` records counted in `tally`, over `wall_ms` milliseconds of
    /// wall time (kept exactly as given). Rates are 0, never NaN or infinity, when either is 0.
    pub fn new(records: u64, tally: &Tally, wall_ms: f64) -> RunRates {
        let wall_secs = wall_ms / 1000.0;
        RunRates {
            puzzles_per_s: ratio(records as f64, wall_secs),
            us_per_puzzle: ratio(wall_secs * 1e6, records as f64),
            solve_ms_total: tally.solve_ns as f64 / 1e6,
            latency: tally.latency(),
            guesses_per_puzzle: tally.guesses_per_puzzle(),
            no_guess_pct: tally.no_guess_pct(),
        }
    }
}

/// What `solve` counts: records by status, and the solver's times and guesses.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SolveCounts {
    /// Records processed (written: fewer than read when interrupted).
    pub records: u64,
    /// Records by status.
    pub status: StatusCounts,
    /// The `invalid` records by why (absent in reports written before it: zeros).
    #[serde(default)]
    pub invalid_kinds: InvalidKinds,
    /// Records whose solution count reached `solution_limit` (2 or more): they have at
    /// least that many solutions, the count is a lower bound. With the default limit 2,
    /// every `multiple` record. (Absent in reports written before it: 0.)
    #[serde(default)]
    pub solutions_capped: u64,
    /// Throughput, latency and guesses, derived from the rest (flattened into the JSON).
    #[serde(flatten)]
    pub rates: RunRates,
    /// Raw counters and the latency histogram, which `report merge` adds up.
    pub tally: Tally,
}

impl AddAssign<&SolveCounts> for SolveCounts {
    fn add_assign(&mut self, other: &SolveCounts) {
        self.records += other.records;
        self.status += &other.status;
        self.invalid_kinds += &other.invalid_kinds;
        self.solutions_capped += other.solutions_capped;
        self.tally += &other.tally;
    }
}

impl Counts for SolveCounts {
    const COMMAND: &'static str = "solve";
    const NOUN: (&'static str, &'static str) = ("record", "records");

    fn records(&self) -> u64 {
        self.records
    }

    fn finish(&mut self, wall_ms: f64) {
        self.rates = RunRates::new(self.records, &self.tally, wall_ms);
    }

    /// `records` is the sum of the statuses, `invalid` that of the `invalid_kinds`; the
    /// tally holds the records that were not `invalid` (`searched`, one solve time each in
    /// the histogram), of which `no_guess` needed no guess; `solutions_capped` are
    /// `multiple`.
    fn inconsistency(&self) -> Option<String> {
        let (s, k, t) = (&self.status, &self.invalid_kinds, &self.tally);
        sum_mismatch(
            "records",
            self.records,
            "the status counts",
            &[
                ("solved", s.solved),
                ("multiple", s.multiple),
                ("unsolvable", s.unsolvable),
                ("invalid", s.invalid),
            ],
        )
        .or_else(|| {
            sum_mismatch(
                "status.invalid",
                s.invalid,
                "invalid_kinds",
                &[
                    ("malformed", k.malformed),
                    ("clue_conflict", k.clue_conflict),
                    ("internal_error", k.internal_error),
                ],
            )
        })
        .or_else(|| {
            sum_mismatch(
                "tally.searched",
                t.solved_by_search,
                "the statuses that reach the solver",
                &[
                    ("solved", s.solved),
                    ("multiple", s.multiple),
                    ("unsolvable", s.unsolvable),
                ],
            )
        })
        .or_else(|| {
            let timed = t.hist.len();
            (timed != t.solved_by_search).then(|| {
                format!(
                    "tally.searched is {} but the latency histogram holds {timed} solve times",
                    t.solved_by_search
                )
            })
        })
        .or_else(|| {
            over(
                "tally.no_guess",
                t.no_guess,
                "tally.searched",
                t.solved_by_search,
            )
        })
        .or_else(|| {
            over(
                "solutions_capped",
                self.solutions_capped,
                "status.multiple",
                s.multiple,
            )
        })
    }
}

/// The JSON written by `solve --report FILE`.
pub type SolveReport = Report<SolveCounts>;

#[cfg(test)]
mod tests {
    use super::*;

    /// First-solution counts write `multiple` as `null` and read it back
    /// as that mode; a report that says `0` (or was written before) reads as checked.
    #[test]
    fn multiple_is_null_in_first_solution_mode_and_reads_back() {
        let first = StatusCounts {
            solved: 3,
            unsolvable: 1,
            first_solution_only: true,
            ..StatusCounts::default()
        };
        let json = serde_json::to_value(first).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"solved": 3, "multiple": null, "unsolvable": 1, "invalid": 0})
        );
        assert_eq!(serde_json::from_value::<StatusCounts>(json).unwrap(), first);
        let checked = StatusCounts {
            multiple: 2,
            ..StatusCounts::default()
        };
        let json = serde_json::to_value(checked).unwrap();
        assert_eq!(json["multiple"], 2);
        assert_eq!(
            serde_json::from_value::<StatusCounts>(json).unwrap(),
            checked
        );
        let old: StatusCounts =
            serde_json::from_str(r#"{"solved": 3, "multiple": 0, "unsolvable": 0, "invalid": 0}"#)
                .unwrap();
        assert!(!old.first_solution_only);
        let mut sum = checked;
        sum += &first;
        assert!(sum.first_solution_only, "a merge with a first-solution run");
        assert_eq!(sum.total(), 6);
    }
}
