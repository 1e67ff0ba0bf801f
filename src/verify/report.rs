//! What `verify` counts over a run ([`VerifyCounts`]), the counts of the JSON it writes with
//! `--report FILE` ([`VerifyReport`]).

use std::collections::BTreeMap;
use std::ops::AddAssign;

use serde::de::{Deserializer, Error as _};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::check::Verdict;
use crate::report::{over, ratio, sum_mismatch, Counts, Report};

/// Example rows kept per verdict (and rows repeating an earlier puzzle), in input order.
pub const MAX_EXAMPLES: usize = 10;

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

impl AddAssign<&VerdictCounts> for VerdictCounts {
    fn add_assign(&mut self, other: &VerdictCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

impl<'de> Deserialize<'de> for VerdictCounts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut c = VerdictCounts::default();
        for (word, n) in BTreeMap::<String, u64>::deserialize(d)? {
            let v = Verdict::ALL
                .into_iter()
                .find(|v| v.as_str() == word)
                .ok_or_else(|| D::Error::custom(format!("unknown verdict {word:?}")))?;
            c.0[v as usize] = n;
        }
        Ok(c)
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The input path as given.
    pub path: String,
    /// 1-based line in that input.
    pub line: u64,
}

/// Rows that share a number of guesses in `min_guesses..=max_guesses` (powers of two:
/// 0, 1, 2-3, 4-7, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessBucket {
    /// Fewest guesses in the bucket.
    pub min_guesses: u64,
    /// Most guesses in the bucket.
    pub max_guesses: u64,
    /// Rows whose solver run made that many guesses.
    pub rows: u64,
}

/// Guess counts of the rows that reached the solver, in power-of-two buckets; in JSON the
/// list of non-empty [`GuessBucket`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Vec<GuessBucket>", try_from = "Vec<GuessBucket>")]
pub struct GuessHistogram([u64; 33]);

impl From<GuessHistogram> for Vec<GuessBucket> {
    fn from(h: GuessHistogram) -> Vec<GuessBucket> {
        h.buckets()
    }
}

impl TryFrom<Vec<GuessBucket>> for GuessHistogram {
    type Error = String;

    fn try_from(buckets: Vec<GuessBucket>) -> Result<GuessHistogram, String> {
        let mut h = GuessHistogram::default();
        for b in buckets {
            let i = match b.min_guesses {
                0 => 0,
                m => 1 + m.ilog2() as usize,
            };
            let slot = h
                .0
                .get_mut(i)
                .ok_or_else(|| format!("guess bucket from {} is out of range", b.min_guesses))?;
            *slot += b.rows;
        }
        Ok(h)
    }
}

impl AddAssign<&GuessHistogram> for GuessHistogram {
    fn add_assign(&mut self, other: &GuessHistogram) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

/// Rows by number of givens (0 to 81), for rows whose puzzle parsed; in JSON an object from
/// the number of givens to rows, non-empty entries only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClueHistogram(pub [u64; 82]);

impl Default for ClueHistogram {
    fn default() -> Self {
        ClueHistogram([0; 82])
    }
}

impl AddAssign<&ClueHistogram> for ClueHistogram {
    fn add_assign(&mut self, other: &ClueHistogram) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

impl Serialize for ClueHistogram {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let used = self.0.iter().filter(|&&n| n > 0).count();
        let mut m = s.serialize_map(Some(used))?;
        for (clues, n) in self.0.iter().enumerate().filter(|(_, &n)| n > 0) {
            m.serialize_entry(&clues.to_string(), n)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for ClueHistogram {
    /// Keys are read as text, so this also works inside a flattened struct, where serde
    /// hands map keys over as strings.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut h = ClueHistogram::default();
        for (key, n) in BTreeMap::<String, u64>::deserialize(d)? {
            let slot = key
                .parse::<usize>()
                .ok()
                .and_then(|k| h.0.get_mut(k))
                .ok_or_else(|| D::Error::custom(format!("{key:?} is not a number of givens")))?;
            *slot = n;
        }
        Ok(h)
    }
}

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

/// What `verify` counts: rows by verdict, duplicates, examples, histograms.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct VerifyCounts {
    /// Rows (data records) checked.
    pub rows: u64,
    /// Rows by verdict (`ok`, `duplicate`, `puzzle-malformed`, ...), every word, zeros included.
    pub verdicts: VerdictCounts,
    /// Rows whose verdict fails the run: all but `ok` and `duplicate` (derived).
    pub rejected: u64,
    /// Rows whose puzzle repeats an earlier row's, whatever their verdict (within one shard:
    /// a merged report adds the shards' counts, so repeats across shards are not found).
    pub duplicates: u64,
    /// Where repeats were searched: `the run` (all its inputs), `the shard` (a run with
    /// `--shard`), `each shard` (a merge of shards: a puzzle in two shards is not counted)
    /// or `each merged run` (a merge of whole runs: nor is one in two runs). Empty in a
    /// report written before it was named.
    #[serde(default)]
    pub duplicates_within: String,
    /// Rows whose stored solution was compared and is wrong: the `solution-*` verdicts but
    /// `solution-malformed`, plus non-unique puzzles whose stored grid is none of their
    /// solutions. A non-unique puzzle with a valid stored solution is rejected
    /// (`multiple-solutions`) but not counted here. (Reports written before
    /// `stored_solutions_malformed` count the malformed here too.)
    pub stored_solutions_wrong: u64,
    /// Rows whose stored solution was read and compared with the puzzle: not those without
    /// one, nor the malformed ones, nor those whose puzzle failed first (malformed,
    /// clashing, no solution). `stored_solutions_wrong` is out of these. (Reports written
    /// before `stored_solutions_malformed` count the malformed here too.)
    #[serde(default)]
    pub stored_solutions_compared: u64,
    /// Rows whose stored solution would have been compared but is malformed (not 81
    /// digits 1-9: the `solution-malformed` verdicts, and non-unique puzzles whose stored
    /// grid is malformed), so it was not compared. 0 in a report written before it was
    /// counted apart.
    #[serde(default)]
    pub stored_solutions_malformed: u64,
    /// Rows that carried no stored solution (a lines row with no solution field after the
    /// puzzle, a JSON Lines row without the key or with `null`, an empty or blank CSV
    /// field): only their puzzle was checked.
    #[serde(default)]
    pub rows_without_solution: u64,
    /// Rows that carry a stored solution that was not compared because the row failed
    /// first: a ragged or unclosed-quote row, a malformed or clashing puzzle, a puzzle with
    /// no solution. Neither compared nor without one.
    #[serde(default)]
    pub stored_solutions_not_compared: u64,
    /// Where the stored solutions were read: the solution column's name (`column N` without
    /// a header), `81-cell field after the puzzle` (on a line: field 2 of
    /// `puzzle,solution`, field 3 of `puzzle:count:solution`), several of these
    /// joined by `, ` across inputs, or `null` when no row carried one: then only the
    /// puzzles were checked.
    pub solution_source: Option<String>,
    /// Up to 10 example rows per verdict other than `ok`, in input order.
    pub examples: BTreeMap<String, Vec<Example>>,
    /// Up to 10 example rows whose puzzle repeats an earlier one, whatever their verdict.
    pub duplicate_examples: Vec<Example>,
    /// Rows by number of givens (clues → rows), for rows whose puzzle parsed.
    pub clues_histogram: ClueHistogram,
    /// Rows by guesses the solver made, for rows that reached the solver.
    pub guesses_histogram: GuessHistogram,
    /// Rows per second of wall time (0 when there are no rows; derived).
    pub rows_per_s: f64,
}

/// Appends `more` to `kept` up to [`MAX_EXAMPLES`].
fn keep_examples(kept: &mut Vec<Example>, more: &[Example]) {
    let room = MAX_EXAMPLES.saturating_sub(kept.len());
    kept.extend(more.iter().take(room).cloned());
}

impl AddAssign<&VerifyCounts> for VerifyCounts {
    fn add_assign(&mut self, other: &VerifyCounts) {
        self.rows += other.rows;
        self.verdicts += &other.verdicts;
        self.duplicates += other.duplicates;
        self.stored_solutions_wrong += other.stored_solutions_wrong;
        self.stored_solutions_compared += other.stored_solutions_compared;
        self.stored_solutions_malformed += other.stored_solutions_malformed;
        self.rows_without_solution += other.rows_without_solution;
        self.stored_solutions_not_compared += other.stored_solutions_not_compared;
        if let Some(theirs) = &other.solution_source {
            let mine = self.solution_source.get_or_insert_with(String::new);
            for source in theirs.split(", ") {
                if !mine.split(", ").any(|s| s == source) {
                    if !mine.is_empty() {
                        mine.push_str(", ");
                    }
                    mine.push_str(source);
                }
            }
        }
        for (verdict, ex) in &other.examples {
            keep_examples(self.examples.entry(verdict.clone()).or_default(), ex);
        }
        keep_examples(&mut self.duplicate_examples, &other.duplicate_examples);
        self.clues_histogram += &other.clues_histogram;
        self.guesses_histogram += &other.guesses_histogram;
    }
}

impl Counts for VerifyCounts {
    const COMMAND: &'static str = "verify";
    const NOUN: (&'static str, &'static str) = ("row", "rows");

    fn records(&self) -> u64 {
        self.rows
    }

    fn finish(&mut self, wall_ms: f64) {
        self.rejected = self.verdicts.rejected();
        self.rows_per_s = ratio(self.rows as f64, wall_ms / 1000.0);
    }

    /// `rows` is the sum of the verdicts, and of the rows whose stored solution was
    /// compared, malformed, not compared, or absent; `rejected` is the rejecting verdicts'; the
    /// `duplicate` verdicts are among the `duplicates`, the wrong stored solutions among
    /// the compared, and neither histogram holds more rows than `rows`.
    fn inconsistency(&self) -> Option<String> {
        let v = &self.verdicts;
        let words: Vec<(&str, u64)> = Verdict::ALL
            .iter()
            .map(|&w| (w.as_str(), v.get(w)))
            .collect();
        let rejecting: Vec<(&str, u64)> = Verdict::ALL
            .iter()
            .filter(|w| w.is_rejection())
            .map(|&w| (w.as_str(), v.get(w)))
            .collect();
        let clues: u64 = self.clues_histogram.0.iter().sum();
        let guesses: u64 = self.guesses_histogram.0.iter().sum();
        sum_mismatch("rows", self.rows, "the verdicts", &words)
            .or_else(|| {
                sum_mismatch(
                    "rejected",
                    self.rejected,
                    "the rejecting verdicts",
                    &rejecting,
                )
            })
            .or_else(|| {
                sum_mismatch(
                    "rows",
                    self.rows,
                    "the stored-solution counts",
                    &[
                        ("stored_solutions_compared", self.stored_solutions_compared),
                        (
                            "stored_solutions_malformed",
                            self.stored_solutions_malformed,
                        ),
                        (
                            "stored_solutions_not_compared",
                            self.stored_solutions_not_compared,
                        ),
                        ("rows_without_solution", self.rows_without_solution),
                    ],
                )
            })
            .or_else(|| {
                over(
                    "verdict duplicate",
                    v.get(Verdict::Duplicate),
                    "duplicates",
                    self.duplicates,
                )
            })
            .or_else(|| over("duplicates", self.duplicates, "rows", self.rows))
            .or_else(|| {
                over(
                    "stored_solutions_wrong",
                    self.stored_solutions_wrong,
                    "stored_solutions_compared",
                    self.stored_solutions_compared,
                )
            })
            .or_else(|| over("the clues_histogram total", clues, "rows", self.rows))
            .or_else(|| over("the guesses_histogram total", guesses, "rows", self.rows))
    }
}

/// The JSON written by `verify --report FILE`.
pub type VerifyReport = Report<VerifyCounts>;

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
    fn histograms_read_back_what_they_wrote() {
        let mut g = GuessHistogram::default();
        for n in [0, 3, 3, 1000] {
            g.add(n);
        }
        let back: GuessHistogram =
            serde_json::from_value(serde_json::to_value(g).unwrap()).unwrap();
        assert_eq!(back, g);
        let mut c = ClueHistogram::default();
        c.0[17] = 4;
        c.0[25] = 1;
        let json = serde_json::to_value(c).unwrap();
        assert_eq!(json, serde_json::json!({"17": 4, "25": 1}));
        assert_eq!(serde_json::from_value::<ClueHistogram>(json).unwrap(), c);
    }

    /// `report merge` refuses a verify report whose counts do not add up.
    #[test]
    fn counts_that_contradict_one_another_are_named() {
        let mut c = VerifyCounts::default();
        for (v, clues) in [
            (Verdict::Ok, 30),
            (Verdict::Duplicate, 30),
            (Verdict::NoSolution, 20),
        ] {
            c.rows += 1;
            c.verdicts.add(v);
            c.rows_without_solution += 1;
            c.clues_histogram.0[clues] += 1;
            c.guesses_histogram.add(0);
        }
        c.duplicates = 1;
        c.finish(1.0);
        assert_eq!(c.inconsistency(), None);
        let e = |edit: fn(&mut VerifyCounts)| {
            let mut bad = c.clone();
            edit(&mut bad);
            bad.inconsistency().unwrap()
        };
        assert!(e(|b| b.rows = 4)
            .starts_with("rows is 4 but the verdicts add up to 3 (ok 1 + duplicate 1 + "));
        assert!(e(|b| b.rejected = 0)
            .starts_with("rejected is 0 but the rejecting verdicts add up to 1"));
        assert!(e(|b| b.rows_without_solution = 2).starts_with(
            "rows is 3 but the stored-solution counts add up to 2 (stored_solutions_compared 0 + "
        ));
        assert_eq!(
            e(|b| b.duplicates = 0),
            "verdict duplicate is 1, more than duplicates (0)"
        );
        assert_eq!(
            e(|b| b.stored_solutions_wrong = 1),
            "stored_solutions_wrong is 1, more than stored_solutions_compared (0)"
        );
        assert_eq!(
            e(|b| b.clues_histogram.0[17] = 1),
            "the clues_histogram total is 4, more than rows (3)"
        );
        assert!(e(|b| b.stored_solutions_malformed = 1)
            .starts_with("rows is 3 but the stored-solution counts add up to 4"));
    }

    /// Malformed stored solutions were counted among the compared; they are counted apart
    /// now. A report written before reads with none counted apart and still adds up, and a
    /// merge sums them.
    #[test]
    fn malformed_stored_solutions_are_counted_apart_read_and_merged() {
        let mut old = VerifyCounts {
            rows: 2,
            stored_solutions_compared: 2,
            stored_solutions_wrong: 1,
            ..VerifyCounts::default()
        };
        old.verdicts.add(Verdict::Ok);
        old.verdicts.add(Verdict::SolutionMalformed);
        old.finish(1.0);
        let mut json = serde_json::to_value(&old).unwrap();
        json.as_object_mut()
            .unwrap()
            .remove("stored_solutions_malformed")
            .expect("written");
        let read: VerifyCounts = serde_json::from_value(json).unwrap();
        assert_eq!(read.stored_solutions_malformed, 0);
        assert_eq!(read.inconsistency(), None);
        let mut new = old.clone();
        new.stored_solutions_compared = 1;
        new.stored_solutions_malformed = 1;
        new.stored_solutions_wrong = 0;
        assert_eq!(new.inconsistency(), None);
        let mut merged = read;
        merged += &new;
        merged += &new;
        merged.finish(1.0);
        assert_eq!(merged.stored_solutions_malformed, 2);
        assert_eq!(merged.stored_solutions_compared, 4);
        assert_eq!(merged.inconsistency(), None);
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
        assert_eq!(serde_json::from_value::<VerdictCounts>(v).unwrap(), c);
    }
}
