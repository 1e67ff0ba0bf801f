//! The rules of `report merge`: which reports may be added together, and the merged header.
//!
//! - Reports of one command only (`solve` with `solve`, `verify` with `verify`; the caller
//!   dispatches on `command`, so a [`merge`] call sees one [`Counts`] type), with one
//!   solution limit, written by one build: the same `version`, and the same `commit` when
//!   both reports know theirs (not `unknown`).
//! - **Shards** (`shard` = `K/N`): all of one run, so the same `N` and the same inputs (size
//!   and SHA-256 fingerprint, whatever the paths), each `K` once. A set that does not cover
//!   `1/N` … `N/N` is refused, naming what is missing, unless `partial` is asked for; the
//!   merged report then says `"partial": true` and lists `missing_shards`. A shard whose
//!   run was interrupted (`"interrupted": true`) covers only a prefix of its records, so it
//!   counts as missing: refused unless `partial`, then listed in `interrupted_shards`
//!   (such a merge said `"partial": false`). Each input was
//!   read alike in every shard: the same `layout`, `puzzle_source` and `solution_source`
//!   (a shard run with `--puzzle-column solution` checked the solution grids as
//!   puzzles, and its merge claimed the stored solutions checked).
//! - **Whole runs** (no `shard`, merged reports included) of different inputs add up; two
//!   that cover one input (same fingerprint) would count its records twice and are refused.
//!   Shards and whole runs are not mixed in one merge: merge the shards first.
//!
//! Counts are folded with `+=` in shard order, then [`Counts::finish`] derives the rates.
//! Time: `wall_ms` is the largest of the merged wall times (the makespan when the shards ran
//! side by side, from which the rates are computed, as `rate_basis` says), `wall_ms_sum`
//! their sum (machine time, and the rate `records_per_s_wall_sum`: for shards run one
//! after another, the rate from the largest wall time overstates the real rate), `threads` the sum.

use std::collections::BTreeSet;

use super::{Counts, Header, InputInfo, Report};
use crate::input::Shard;

/// Why a set of reports cannot be merged. Each names the report files concerned.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no reports to merge")]
    Empty,
    /// Reports of different commands.
    #[error("{a} is a {ca} report and {b} a {cb} report: merge reports of one command at a time")]
    MixedCommands {
        /// First report.
        a: String,
        /// Its command.
        ca: String,
        /// The report of another command.
        b: String,
        /// Its command.
        cb: String,
    },
    /// Different solution limits: counts of `multiple` would not mean the same.
    #[error(
        "{b}: solutions counted up to {lb}, but up to {la} in {a}: merge runs with one --limit"
    )]
    Limit {
        /// First report.
        a: String,
        /// Its limit.
        la: u32,
        /// The other report.
        b: String,
        /// Its limit.
        lb: u32,
    },
    /// Reports of different builds, or shards that read an input differently: what one
    /// counted is not what the other did.
    #[error(
        "{a} and {b} differ in {what}: {va} against {vb}; merge reports of one build, \
         run with the same flags"
    )]
    Settings {
        /// First report.
        a: String,
        /// The other report.
        b: String,
        /// The setting, e.g. `version`, `the puzzle source of data.csv`.
        what: String,
        /// Its value in `a`.
        va: String,
        /// Its value in `b`.
        vb: String,
    },
    /// A `shard` field that is not `K/N`.
    #[error("{path}: shard {shard:?} is not K/N: {reason}")]
    BadShard {
        /// The report.
        path: String,
        /// The field as found.
        shard: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A whole run beside a shard.
    #[error(
        "{whole} is a whole run and {part} is shard {shard}: merge the shards of one run \
         first, then merge the result with other runs"
    )]
    WholeWithShard {
        /// The whole run.
        whole: String,
        /// The shard.
        part: String,
        /// Its `K/N`.
        shard: String,
    },
    /// A partial merge (shards missing) beside a shard: adding the missing shard to it
    /// would take a merge of merges, which the shard rules cannot check.
    #[error(
        "{merged} is a partial merge (missing shard{s} {list}) and {part} is shard {shard}: \
         merge the shard reports again all together, {list} included",
        s = if missing.len() == 1 { "" } else { "s" },
        list = missing.join(", ")
    )]
    PartialWithShard {
        /// The partial merge.
        merged: String,
        /// The shards it lists as missing, `K/N`.
        missing: Vec<String>,
        /// The shard.
        part: String,
        /// Its `K/N`.
        shard: String,
    },
    /// Shards cut into different numbers of parts.
    #[error("{a} is shard {sa} and {b} shard {sb}: the shards of one run share N")]
    ShardCounts {
        /// First report.
        a: String,
        /// Its shard.
        sa: String,
        /// The other report.
        b: String,
        /// Its shard.
        sb: String,
    },
    /// Shards of different inputs.
    #[error("{a} and {b} are shards of different inputs: {why}")]
    DifferentInputs {
        /// First report.
        a: String,
        /// The other report.
        b: String,
        /// The first difference found.
        why: String,
    },
    /// One shard given twice.
    #[error("{a} and {b} are both shard {shard}: their counts would be added twice")]
    SameShard {
        /// First report.
        a: String,
        /// The other report.
        b: String,
        /// The shard.
        shard: String,
    },
    /// Two whole runs over one input (the same size and fingerprint, whatever the paths).
    #[error(
        "{a} and {b} both cover {}: their counts would be added twice",
        if input_a == input_b { input_a.clone() } else {
            format!("{input_a} and {input_b} (the same contents)")
        }
    )]
    SameInput {
        /// First report.
        a: String,
        /// The other report.
        b: String,
        /// The shared input's path in `a`.
        input_a: String,
        /// Its path in `b`.
        input_b: String,
    },
    /// A report whose counts contradict one another ([`Counts::inconsistency`]): edited
    /// or damaged, so what it would add is not what its run counted.
    #[error("{path}: its counts do not add up: {why}; merge reports as sudoku-batch wrote them")]
    Inconsistent {
        /// The report.
        path: String,
        /// The mismatch, in words.
        why: String,
    },
    /// Shards missing, without `--partial`.
    #[error(
        "shard{s} {list} of {input} missing: give every shard, or --partial to merge \
         these alone",
        s = if missing.len() == 1 { "" } else { "s" },
        list = missing.join(", ")
    )]
    Missing {
        /// The missing shards, `K/N`.
        missing: Vec<String>,
        /// The first input of the run.
        input: String,
    },
    /// A shard whose run was interrupted, without `--partial`: its counts cover only part
    /// of the shard.
    #[error(
        "{path}: shard {shard} was interrupted after {records} records, so it covers only \
         part of its shard: run it again, or --partial to merge it as it is"
    )]
    Interrupted {
        /// The report.
        path: String,
        /// Its `K/N`.
        shard: String,
        /// The records it counted.
        records: u64,
    },
}

/// Merges `reports` (each with the path it was read from) into one report, by the rules in
/// the module doc. With `partial`, a set of shards that lacks some, or holds an interrupted
/// one, is merged and marked so.
///
/// # Errors
/// A [`MergeError`] naming the reports that do not fit together.
pub fn merge<C: Counts>(
    mut reports: Vec<(String, Report<C>)>,
    partial: bool,
) -> Result<Report<C>, MergeError> {
    let Some((first_path, first)) = reports.first() else {
        return Err(MergeError::Empty);
    };
    for (p, r) in &reports {
        if let Some(why) = r.counts.inconsistency() {
            return Err(MergeError::Inconsistent {
                path: p.clone(),
                why,
            });
        }
        if r.header.solution_limit != first.header.solution_limit {
            return Err(MergeError::Limit {
                a: first_path.clone(),
                la: first.header.solution_limit,
                b: p.clone(),
                lb: r.header.solution_limit,
            });
        }
        if let Some((what, va, vb)) = build_difference(&first.header, &r.header) {
            return Err(MergeError::Settings {
                a: first_path.clone(),
                b: p.clone(),
                what,
                va,
                vb,
            });
        }
    }
    let shards = reports
        .iter()
        .map(|(p, r)| shard_of(p, &r.header))
        .collect::<Result<Vec<_>, _>>()?;
    let whole = shards.iter().position(Option::is_none);
    let part = shards.iter().position(Option::is_some);
    let mut missing = Vec::new();
    let mut interrupted = Vec::new();
    match (whole, part) {
        (Some(w), Some(s)) => {
            let (whole, part) = (&reports[w], &reports[s]);
            let shard = part.1.header.shard.clone().unwrap_or_default();
            if whole.1.header.partial {
                return Err(MergeError::PartialWithShard {
                    merged: whole.0.clone(),
                    missing: whole.1.header.missing_shards.clone(),
                    part: part.0.clone(),
                    shard,
                });
            }
            return Err(MergeError::WholeWithShard {
                whole: whole.0.clone(),
                part: part.0.clone(),
                shard,
            });
        }
        (None, Some(_)) => {
            let shards: Vec<Shard> = shards.into_iter().flatten().collect();
            missing = check_shards(&reports, &shards)?;
            if !missing.is_empty() && !partial {
                return Err(MergeError::Missing {
                    missing,
                    input: reports[0]
                        .1
                        .header
                        .inputs
                        .first()
                        .map_or_else(|| "the input".to_string(), |i| i.path.clone()),
                });
            }
            // Shard order, so that examples kept by the counts come in input order.
            let index = |h: &Header| h.shard.as_deref().and_then(|s| s.parse::<Shard>().ok());
            reports.sort_by_key(|(_, r)| index(&r.header).map(|s| s.index));
            interrupted = interrupted_shards(&reports, partial)?;
        }
        _ => check_disjoint(&reports)?,
    }
    Ok(fold(reports, missing, interrupted))
}

/// The shards (`K/N`, in order) whose run was interrupted.
///
/// # Errors
/// [`MergeError::Interrupted`] for the first of them unless `partial`.
fn interrupted_shards<C: Counts>(
    reports: &[(String, Report<C>)],
    partial: bool,
) -> Result<Vec<String>, MergeError> {
    let cut = reports.iter().filter(|(_, r)| r.header.interrupted);
    let mut shards = Vec::new();
    for (path, r) in cut {
        let shard = r.header.shard.clone().unwrap_or_default();
        if !partial {
            return Err(MergeError::Interrupted {
                path: path.clone(),
                shard,
                records: r.counts.records(),
            });
        }
        shards.push(shard);
    }
    Ok(shards)
}

/// Adds up reports already checked to fit together, in the given order.
fn fold<C: Counts>(
    reports: Vec<(String, Report<C>)>,
    missing: Vec<String>,
    interrupted: Vec<String>,
) -> Report<C> {
    let sharded = reports.iter().all(|(_, r)| r.header.shard.is_some());
    let mut inputs: Vec<InputInfo> = Vec::new();
    let mut counts = C::default();
    let mut header = Header::new(C::COMMAND, Vec::new(), None);
    if let Some((_, first)) = reports.first() {
        // Checked: one version, and no two known commits differ.
        let h = &first.header;
        header.solution_limit = h.solution_limit;
        header.version.clone_from(&h.version);
        header.commit = match reports.iter().all(|(_, r)| r.header.commit == h.commit) {
            true => h.commit.clone(),
            false => UNKNOWN.to_string(),
        };
    }
    header.solver_kernel = kernels_of(&reports);
    for (i, (path, r)) in reports.iter().enumerate() {
        let h = &r.header;
        if sharded && i > 0 {
            // Checked: the same inputs in the same order; records add up per input.
            for (m, add) in inputs.iter_mut().zip(&h.inputs) {
                m.records += add.records;
                // Lines: a shard whose lines carried no solution says none (checked).
                if m.solution_source.is_none() {
                    m.solution_source.clone_from(&add.solution_source);
                }
            }
        } else {
            inputs.extend(h.inputs.iter().cloned());
        }
        counts += &r.counts;
        header.threads += h.threads;
        header.wall_ms = header.wall_ms.max(h.wall_ms);
        header.wall_ms_sum += h.wall_ms_sum;
        header.interrupted |= h.interrupted;
        header.partial |= h.partial;
        header
            .missing_shards
            .extend(h.missing_shards.iter().cloned());
        header
            .interrupted_shards
            .extend(h.interrupted_shards.iter().cloned());
        header.merged_from.push(path.clone());
        header.shards.push(h.shard.clone());
    }
    header.partial |= !missing.is_empty() || !interrupted.is_empty();
    header.missing_shards.extend(missing);
    header.interrupted_shards.extend(interrupted);
    header.input_bytes = inputs.iter().filter_map(|i| i.file_bytes).sum();
    header.inputs = inputs;
    counts.finish(header.wall_ms);
    header.rate_basis = super::RATE_OF_MERGE.to_string();
    header.finish(counts.records());
    Report { header, counts }
}

fn shard_of(path: &str, h: &Header) -> Result<Option<Shard>, MergeError> {
    h.shard
        .as_deref()
        .map(|s| {
            s.parse::<Shard>().map_err(|reason| MergeError::BadShard {
                path: path.to_string(),
                shard: s.to_string(),
                reason,
            })
        })
        .transpose()
}

/// Checks that the sharded reports are of one run (one `N`, the same inputs, each `K` once)
/// and returns the shards missing from `1/N … N/N`.
fn check_shards<C>(
    reports: &[(String, Report<C>)],
    shards: &[Shard],
) -> Result<Vec<String>, MergeError> {
    let (a, first) = (&reports[0].0, &reports[0].1.header);
    let n = shards[0].count;
    let mut seen: Vec<Option<&str>> = vec![None; n as usize];
    for ((b, r), s) in reports.iter().zip(shards) {
        let h = &r.header;
        if s.count != n {
            return Err(MergeError::ShardCounts {
                a: a.clone(),
                sa: shards[0].to_string(),
                b: b.clone(),
                sb: s.to_string(),
            });
        }
        if let Some(why) = input_difference(&first.inputs, &h.inputs) {
            return Err(MergeError::DifferentInputs {
                a: a.clone(),
                b: b.clone(),
                why,
            });
        }
        if let Some((what, va, vb)) = reading_difference(&first.inputs, &h.inputs) {
            return Err(MergeError::Settings {
                a: a.clone(),
                b: b.clone(),
                what,
                va,
                vb,
            });
        }
        let slot = &mut seen[s.index as usize - 1];
        if let Some(other) = slot {
            return Err(MergeError::SameShard {
                a: (*other).to_string(),
                b: b.clone(),
                shard: s.to_string(),
            });
        }
        *slot = Some(b);
    }
    Ok((1..=n)
        .filter(|k| seen[*k as usize - 1].is_none())
        .map(|k| format!("{k}/{n}"))
        .collect())
}

/// How two input lists differ, in words; `None` when they have the same contents
/// (`content_sha256`, in order: a `.gz` and its plain copy are one input, cut into the same
/// shards).
fn input_difference(a: &[InputInfo], b: &[InputInfo]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} inputs against {}", a.len(), b.len()));
    }
    a.iter().zip(b).find_map(|(x, y)| {
        if x.content_sha256 == y.content_sha256 {
            None
        } else if let (Some(bx), Some(by)) = (x.file_bytes, y.file_bytes) {
            Some(match bx == by {
                true => format!(
                    "{} and {} have the same size but different contents",
                    x.path, y.path
                ),
                false => format!("{} is {bx} bytes, {} is {by} bytes", x.path, y.path),
            })
        } else {
            Some(format!("{} and {} have different contents", x.path, y.path))
        }
    })
}

/// The kernels named by `reports`, each once in the order of the reports, joined by `,`
/// (a report written before the field was named adds none).
fn kernels_of<C: Counts>(reports: &[(String, Report<C>)]) -> String {
    let mut kernels: Vec<&str> = Vec::new();
    for (_, r) in reports {
        let k = r.header.solver_kernel.as_str();
        if !k.is_empty() && !kernels.contains(&k) {
            kernels.push(k);
        }
    }
    kernels.join(",")
}

/// The `commit` of a report whose build did not know it.
const UNKNOWN: &str = "unknown";

/// How the builds behind two reports differ, as (what, value in `a`, value in `b`): the
/// version, or both commits when both are known.
fn build_difference(a: &Header, b: &Header) -> Option<(String, String, String)> {
    if a.version != b.version {
        return Some(("version".into(), a.version.clone(), b.version.clone()));
    }
    let known = a.commit != UNKNOWN && b.commit != UNKNOWN;
    (known && a.commit != b.commit).then(|| ("commit".into(), a.commit.clone(), b.commit.clone()))
}

/// How two shards read the same inputs differently, as (what, value in `a`, value in
/// `b`): the layout, the puzzle source or the solution source of an input.
/// Lines name no solution column: only the lines of a shard say whether they held
/// solutions, so a lines shard with none and one with some read alike.
fn reading_difference(a: &[InputInfo], b: &[InputInfo]) -> Option<(String, String, String)> {
    let none = || "none".to_string();
    a.iter().zip(b).find_map(|(x, y)| {
        let lines = x.layout == "lines" && y.layout == "lines";
        let (xs, ys) = match (&x.solution_source, &y.solution_source) {
            (None, Some(_)) | (Some(_), None) if lines => (None, None),
            (xs, ys) => (xs.as_ref(), ys.as_ref()),
        };
        let fields = [
            ("layout", Some(&x.layout), Some(&y.layout)),
            (
                "puzzle source",
                Some(&x.puzzle_source),
                Some(&y.puzzle_source),
            ),
            ("solution source", xs, ys),
        ];
        fields
            .into_iter()
            .find(|(_, u, v)| u != v)
            .map(|(what, u, v)| {
                (
                    format!("the {what} of {}", x.path),
                    u.cloned().unwrap_or_else(none),
                    v.cloned().unwrap_or_else(none),
                )
            })
    })
}

/// Checks that no two whole runs cover one input (the same `content_sha256`).
fn check_disjoint<C>(reports: &[(String, Report<C>)]) -> Result<(), MergeError> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (a, ra) in reports {
        let mine: BTreeSet<&str> = ra
            .header
            .inputs
            .iter()
            .map(|i| i.content_sha256.as_str())
            .collect();
        if let Some(shared) = mine.iter().find(|k| seen.contains(*k)) {
            let path_in = |r: &Report<C>| {
                r.header
                    .inputs
                    .iter()
                    .find(|i| i.content_sha256 == **shared)
                    .map(|i| i.path.clone())
            };
            let (b, input_b) = reports
                .iter()
                .find_map(|(b, rb)| path_in(rb).map(|p| (b, p)))
                .expect("a fingerprint seen belongs to an earlier report");
            return Err(MergeError::SameInput {
                a: b.clone(),
                b: a.clone(),
                input_a: input_b,
                input_b: path_in(ra).expect("the fingerprint is one of this report's"),
            });
        }
        seen.extend(mine);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{SolveCounts, StatusCounts, Tally};

    const BUILD_VERSION: &str = env!("CARGO_PKG_VERSION");

    fn input(records: u64) -> InputInfo {
        InputInfo {
            path: "a.txt".into(),
            file_bytes: Some(100),
            content_sha256: "f".repeat(64),
            layout: "lines".into(),
            puzzle_source: "field 1".into(),
            solution_source: Some("81-cell field after the puzzle".into()),
            codec: "none".into(),
            records,
        }
    }

    fn shard(times_ns: &[u64], shard: &str) -> (String, Report<SolveCounts>) {
        let mut tally = Tally::default();
        for &ns in times_ns {
            tally.add(ns, u32::from(ns > 5000));
        }
        let n = times_ns.len() as u64;
        let mut header = Header::new("solve", vec![input(n)], Some(shard.into()));
        header.threads = 2;
        header.solution_limit = 2;
        header.wall_ms = n as f64;
        let counts = SolveCounts {
            records: n,
            status: StatusCounts {
                solved: n,
                ..StatusCounts::default()
            },
            tally,
            ..SolveCounts::default()
        };
        (
            format!("{}.json", shard.replace('/', "of")),
            Report::new(header, counts),
        )
    }

    #[test]
    fn merged_percentiles_equal_those_of_the_whole() {
        let a: Vec<u64> = (1..=300).map(|i| i * 97).collect();
        let b: Vec<u64> = (1..=700).map(|i| i * 13 + 5).collect();
        let mut whole = Tally::default();
        for &ns in a.iter().chain(&b) {
            whole.add(ns, u32::from(ns > 5000));
        }
        // Given out of order: folded in shard order.
        let m = merge(vec![shard(&b, "2/2"), shard(&a, "1/2")], false).unwrap();
        assert_eq!(m.counts.rates.latency, whole.latency());
        assert_eq!(m.counts.records, 1000);
        assert_eq!(m.header.inputs[0].records, 1000);
        assert_eq!(m.header.input_bytes, 100);
        assert_eq!((m.header.wall_ms, m.header.wall_ms_sum), (700.0, 1000.0));
        // 1000 records over the slowest shard's 0.7 s, and over the 1.0 s of both.
        assert_eq!(m.counts.rates.puzzles_per_s, 1000.0 / 0.7);
        assert_eq!(m.header.records_per_s_wall_sum, 1000.0);
        assert_eq!(m.header.rate_basis, "wall_ms of the slowest merged run");
        let one = &shard(&a, "1/2").1.header;
        assert_eq!(one.records_per_s_wall_sum, 300.0 / 0.3);
        assert_eq!(one.rate_basis, "wall_ms of the run");
        assert_eq!(m.header.merged_from, ["1of2.json", "2of2.json"]);
        assert_eq!(
            m.counts.rates.guesses_per_puzzle,
            whole.guesses_per_puzzle()
        );
        assert!(!m.header.partial);
        // The histogram bytes may differ in the header (range after auto-resize); the
        // counts and what they decode to may not.
        let (mt, wt) = (m.counts.tally.summary(), whole.summary());
        assert_eq!(
            (mt.searched, mt.guesses, mt.no_guess, mt.solve_ns),
            (wt.searched, wt.guesses, wt.no_guess, wt.solve_ns)
        );
    }

    #[test]
    fn a_report_reads_back_as_it_was_written() {
        let (_, r) = shard(&[100, 2000, 30_000], "2/3");
        let text = serde_json::to_string_pretty(&r).unwrap();
        let back: Report<SolveCounts> = serde_json::from_str(&text).unwrap();
        assert_eq!(back.header, r.header);
        assert_eq!(back.counts.status, r.counts.status);
        assert_eq!(back.counts.rates, r.counts.rates);
        assert_eq!(back.counts.tally.latency(), r.counts.tally.latency());
        assert_eq!(serde_json::to_string_pretty(&back).unwrap(), text);
    }

    #[test]
    fn a_missing_shard_is_named_unless_partial() {
        let set = || vec![shard(&[10, 20], "1/3"), shard(&[30], "3/3")];
        let e = merge(set(), false).unwrap_err().to_string();
        assert!(e.starts_with("shard 2/3 of a.txt missing"), "{e}");
        let m = merge(set(), true).unwrap();
        assert!(m.header.partial);
        assert_eq!(m.header.missing_shards, ["2/3"]);
        assert_eq!(m.counts.records, 3);
    }

    /// A shard stopped by a signal (Slurm's time limit) was merged
    /// as if whole, `"partial": false`.
    #[test]
    fn an_interrupted_shard_is_refused_unless_partial() {
        let set = || {
            let mut cut = shard(&[30], "2/3");
            cut.1.header.interrupted = true;
            vec![shard(&[10, 20], "1/3"), cut, shard(&[40, 50], "3/3")]
        };
        let e = merge(set(), false).unwrap_err().to_string();
        assert!(
            e.starts_with("2of3.json: shard 2/3 was interrupted after 1 records"),
            "{e}"
        );
        let m = merge(set(), true).unwrap();
        assert!(m.header.partial && m.header.interrupted);
        assert_eq!(m.header.interrupted_shards, ["2/3"]);
        assert!(m.header.missing_shards.is_empty());
        assert_eq!(m.counts.records, 5);
    }

    #[test]
    fn a_partial_merge_with_its_missing_shard_asks_for_one_merge_of_all_shards() {
        let partial = merge(vec![shard(&[10, 20], "1/3"), shard(&[30], "3/3")], true).unwrap();
        let e = merge(vec![("mp.json".into(), partial), shard(&[5], "2/3")], false);
        let e = e.unwrap_err().to_string();
        assert!(
            e.starts_with("mp.json is a partial merge (missing shard 2/3) and "),
            "{e}"
        );
        assert!(e.contains("again all together, 2/3 included"), "{e}");
        assert!(!e.contains("whole run"), "{e}");
    }

    #[test]
    fn shards_that_do_not_fit_together_are_refused() {
        let e = |set| merge(set, false).unwrap_err().to_string();
        let same = e(vec![shard(&[1], "1/2"), shard(&[2], "1/2")]);
        assert!(same.contains("both shard 1/2"), "{same}");
        let counts = e(vec![shard(&[1], "1/2"), shard(&[2], "2/3")]);
        assert!(counts.contains("share N"), "{counts}");
        let mut other = shard(&[2], "2/2");
        other.1.header.inputs[0].content_sha256 = "0".repeat(64);
        let inputs = e(vec![shard(&[1], "1/2"), other]);
        assert!(inputs.contains("different inputs"), "{inputs}");
        let mut whole = shard(&[2], "1/1");
        whole.1.header.shard = None;
        let mixed = e(vec![whole.clone(), shard(&[1], "1/2")]);
        assert!(mixed.contains("is a whole run"), "{mixed}");
        let twice = e(vec![whole.clone(), whole]);
        assert!(twice.contains("both cover a.txt"), "{twice}");
    }

    /// A shard that read no stored solutions (run with `--puzzle-column solution`)
    /// merged with one that did gave a report claiming them all checked.
    #[test]
    fn shards_that_read_differently_or_come_from_other_builds_are_refused() {
        let e = |set| merge(set, false).unwrap_err().to_string();
        let csv = |k, source: Option<&str>| {
            let mut s = shard(&[k], &format!("{k}/2"));
            s.1.header.inputs[0].layout = "csv".into();
            s.1.header.inputs[0].solution_source = source.map(String::from);
            s
        };
        let err = e(vec![csv(1, Some("solution")), csv(2, None)]);
        assert!(
            err.starts_with(
                "1of2.json and 2of2.json differ in the solution source of a.txt: \
                 solution against none;"
            ),
            "{err}"
        );
        // Lines carry solutions or not line by line, so a lines shard without
        // any read as one with some, and the merged input says where they were read.
        let mut bare = shard(&[1], "1/2");
        bare.1.header.inputs[0].solution_source = None;
        let m = merge(vec![bare, shard(&[2], "2/2")], false).unwrap();
        let source = m.header.inputs[0].solution_source.as_deref();
        assert_eq!(source, Some("81-cell field after the puzzle"));
        let mut column = shard(&[2], "2/2");
        column.1.header.inputs[0].puzzle_source = "solution".into();
        let err = e(vec![shard(&[1], "1/2"), column]);
        assert!(
            err.contains("the puzzle source of a.txt: field 1 against solution"),
            "{err}"
        );
        let mut old = shard(&[2], "2/2");
        old.1.header.version = "0.0.9".into();
        let err = e(vec![shard(&[1], "1/2"), old]);
        let want = format!("differ in version: {} against 0.0.9", BUILD_VERSION);
        assert!(err.contains(&want), "{err}");
        let commits = |a: &str, b: &str| {
            let (mut x, mut y) = (shard(&[1], "1/2"), shard(&[2], "2/2"));
            x.1.header.commit = a.into();
            y.1.header.commit = b.into();
            merge(vec![x, y], false)
        };
        let err = commits("abc1234", "abc1234-dirty").unwrap_err().to_string();
        assert!(
            err.contains("differ in commit: abc1234 against abc1234-dirty"),
            "{err}"
        );
        assert_eq!(
            commits("abc1234", "abc1234").unwrap().header.commit,
            "abc1234"
        );
        // An unknown commit cannot be compared: merged, and the merge does not claim one.
        assert_eq!(
            commits("abc1234", "unknown").unwrap().header.commit,
            "unknown"
        );
    }

    /// Shards run with different kernels (machines of a cluster) merge, and the merged
    /// report names each kernel once, in shard order; a report from before the field
    /// adds none.
    #[test]
    fn a_merge_names_the_kernels_of_its_shards() {
        let kernels = |ks: [&str; 3]| {
            let mut shards = vec![shard(&[1], "1/3"), shard(&[2], "2/3"), shard(&[3], "3/3")];
            for (s, k) in shards.iter_mut().zip(ks) {
                s.1.header.solver_kernel = k.into();
            }
            merge(shards, false).unwrap().header.solver_kernel
        };
        assert_eq!(kernels(["avx2", "avx2", "avx2"]), "avx2");
        assert_eq!(kernels(["avx512", "avx2", "avx512"]), "avx512,avx2");
        assert_eq!(kernels(["", "portable", ""]), "portable");
    }

    /// A shard whose `records` had been raised by hand merged without a word.
    #[test]
    fn a_report_whose_counts_contradict_one_another_is_refused_by_name() {
        let e = |edit: fn(&mut SolveCounts)| {
            let mut bad = shard(&[3000, 9000], "2/2");
            edit(&mut bad.1.counts);
            merge(vec![shard(&[1], "1/2"), bad], false)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e(|c| c.records += 5),
            "2of2.json: its counts do not add up: records is 7 but the status counts add up \
             to 2 (solved 2 + multiple 0 + unsolvable 0 + invalid 0); merge reports as \
             sudoku-batch wrote them"
        );
        let invalid = e(|c| {
            c.records += 1;
            c.status.invalid += 1;
        });
        assert!(
            invalid.contains("status.invalid is 1 but invalid_kinds add up to 0"),
            "{invalid}"
        );
        let searched = e(|c| {
            c.status.solved -= 1;
            c.status.unsolvable += 1;
            c.tally.solved_by_search += 1;
        });
        assert!(
            searched
                .contains("tally.searched is 3 but the statuses that reach the solver add up to 2"),
            "{searched}"
        );
        let timed = e(|c| c.tally.solved_by_search = 1);
        assert!(
            timed.contains("tally.searched is 1 but the statuses"),
            "{timed}"
        );
        let no_guess = e(|c| c.tally.no_guess = 3);
        assert!(
            no_guess.contains("tally.no_guess is 3, more than tally.searched (2)"),
            "{no_guess}"
        );
        let capped = e(|c| c.solutions_capped = 1);
        assert!(
            capped.contains("solutions_capped is 1, more than status.multiple (0)"),
            "{capped}"
        );
        // The counts as a run writes them add up.
        assert!(shard(&[3000, 9000], "2/2")
            .1
            .counts
            .inconsistency()
            .is_none());
    }

    #[test]
    fn two_whole_runs_of_one_content_name_both_paths() {
        let mut a = shard(&[1], "1/1");
        a.1.header.shard = None;
        let mut b = a.clone();
        b.0 = "b.json".into();
        b.1.header.inputs[0].path = "copy.txt".into();
        let err = merge(vec![a, b], false).unwrap_err().to_string();
        assert_eq!(
            err,
            "1of1.json and b.json both cover a.txt and copy.txt (the same contents): their \
             counts would be added twice"
        );
    }

    #[test]
    fn empty_tallies_merge_to_zero_rates() {
        let mut r = shard(&[], "1/1");
        r.1.header.wall_ms = 0.0;
        let m = merge(vec![r], false).unwrap();
        let rates = &m.counts.rates;
        assert_eq!((rates.puzzles_per_s, rates.us_per_puzzle), (0.0, 0.0));
        assert_eq!(rates.latency, crate::report::Latency::default());
    }
}
