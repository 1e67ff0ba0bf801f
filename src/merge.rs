//! `sudoku-batch report merge OUT.json IN.json...`: combine the JSON `--report`s of shards
//! (`solve --shard K/N`) into the report of the whole run.
//!
//! Counts add up exactly. Latency percentiles are exact too: each report embeds its
//! solve-time histogram (HdrHistogram V2, base64, in `tally.hist_v2_base64`), and merging
//! adds the histograms before reading percentiles. Time needs a choice: shards normally run
//! at the same time on different machines, so the merged `wall_ms` is the **largest** shard
//! wall time (the makespan of the parallel run), and `puzzles_per_s` is computed from it;
//! the sum of the shard wall times (the machine time spent) is `wall_ms_sum`.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::report::{RunRates, StatusCounts, Tally, TallySummary};

/// One input as listed in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportInput {
    /// Path as given.
    pub path: String,
    /// Size of the whole file, bytes.
    pub bytes: u64,
    /// `lines` or `csv`.
    pub layout: String,
    /// Data records read (summed over the shards in a merged report).
    pub records: u64,
}

/// The fields of a `solve --report` that merging reads.
#[derive(Clone, Debug, Deserialize)]
struct ShardReport {
    command: String,
    inputs: Vec<ReportInput>,
    status: StatusCounts,
    threads: usize,
    solution_limit: u32,
    wall_ms: f64,
    interrupted: bool,
    shard: Option<String>,
    tally: TallySummary,
}

/// A merged report: the fields of a `solve --report`, plus where it came from.
#[derive(Clone, Debug, Serialize)]
pub struct MergedReport {
    /// `sudoku-batch`.
    pub tool: &'static str,
    /// Version of the tool that merged.
    pub version: &'static str,
    /// The command of the merged reports (`solve`).
    pub command: String,
    /// The report files merged, in order.
    pub merged_from: Vec<String>,
    /// The shard of each merged report (`K/N`, or `null` for a whole run).
    pub shards: Vec<Option<String>>,
    /// The inputs, records summed over shards of the same path.
    pub inputs: Vec<ReportInput>,
    /// Total size of the distinct inputs, bytes.
    pub input_bytes: u64,
    /// Records processed, summed.
    pub records: u64,
    /// Records by status, summed.
    pub status: StatusCounts,
    /// Worker threads, summed over the reports (all workers of the parallel run).
    pub threads: usize,
    /// Solution count limit (the same in every report).
    pub solution_limit: u32,
    /// Sum of the wall times of the merged reports, milliseconds.
    pub wall_ms_sum: f64,
    /// Throughput, latency (from the merged histogram) and guesses; `wall_ms` in it is the
    /// largest wall time of the merged reports, the makespan when shards ran in parallel.
    #[serde(flatten)]
    pub rates: RunRates,
    /// Whether any merged run was interrupted.
    pub interrupted: bool,
    /// Always `null`: the merged report covers the union of the shards.
    pub shard: Option<String>,
    /// Summed counters and the merged histogram, so merged reports merge again.
    pub tally: TallySummary,
}

/// Merges the reports read from `paths`.
///
/// # Errors
/// A report that cannot be read, is not JSON, lacks the `tally` block (written by an older
/// version), or has a different command or solution limit than the first; names the path.
pub fn merge_files(paths: &[String]) -> Result<MergedReport> {
    let mut reports = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(p).with_context(|| format!("{p}: cannot read"))?;
        let r: ShardReport = serde_json::from_str(&text)
            .with_context(|| format!("{p}: not a sudoku-batch --report (with a tally block)"))?;
        reports.push(r);
    }
    merge(paths, &reports)
}

/// Refuses two reports that cover the same records of an input: the same report twice, two
/// copies of one shard, a whole run beside one of its shards, or shards of one input cut
/// into different numbers of parts. Their counts would be added twice. Reports of
/// different inputs, or different shards `K/N` of one input, are disjoint.
fn check_disjoint(paths: &[String], reports: &[ShardReport]) -> Result<()> {
    let parts = |r: &ShardReport| -> Result<Option<(u32, u32)>> {
        r.shard
            .as_deref()
            .map(|s| {
                s.parse::<crate::input::Shard>()
                    .map(|s| (s.index, s.count))
                    .map_err(anyhow::Error::msg)
            })
            .transpose()
    };
    for (a, ra) in reports.iter().enumerate() {
        for (b, rb) in reports.iter().enumerate().skip(a + 1) {
            let Some(shared) = ra
                .inputs
                .iter()
                .find(|i| rb.inputs.iter().any(|j| j.path == i.path))
            else {
                continue;
            };
            let disjoint = match (parts(ra)?, parts(rb)?) {
                (Some((ka, na)), Some((kb, nb))) => na == nb && ka != kb,
                _ => false,
            };
            if !disjoint {
                let name = |r: &ShardReport| r.shard.clone().unwrap_or_else(|| "the whole".into());
                bail!(
                    "{} ({} of {}) and {} ({} of it) cover the same records; their counts would \
                     be added twice",
                    paths[a],
                    name(ra),
                    shared.path,
                    paths[b],
                    name(rb)
                );
            }
        }
    }
    Ok(())
}

fn merge(paths: &[String], reports: &[ShardReport]) -> Result<MergedReport> {
    let Some(first) = reports.first() else {
        bail!("report merge: no reports given");
    };
    check_disjoint(paths, reports)?;
    let mut tally = Tally::default();
    let mut status = StatusCounts::default();
    let mut inputs: Vec<ReportInput> = Vec::new();
    for (p, r) in paths.iter().zip(reports) {
        if r.command != first.command || r.solution_limit != first.solution_limit {
            bail!(
                "{p}: command {} with limit {} does not match the first report's ({} with limit {})",
                r.command, r.solution_limit, first.command, first.solution_limit
            );
        }
        tally.merge(&Tally::from_summary(&r.tally).map_err(|e| anyhow::anyhow!("{p}: {e}"))?);
        status.solved += r.status.solved;
        status.multiple += r.status.multiple;
        status.unsolvable += r.status.unsolvable;
        status.invalid += r.status.invalid;
        for i in &r.inputs {
            match inputs.iter_mut().find(|m| m.path == i.path) {
                Some(m) => m.records += i.records,
                None => inputs.push(i.clone()),
            }
        }
    }
    let records = status.total();
    let wall_ms = reports.iter().map(|r| r.wall_ms).fold(0.0, f64::max);
    let summary = tally.summary();
    Ok(MergedReport {
        tool: "sudoku-batch",
        version: env!("CARGO_PKG_VERSION"),
        command: first.command.clone(),
        merged_from: paths.to_vec(),
        shards: reports.iter().map(|r| r.shard.clone()).collect(),
        input_bytes: inputs.iter().map(|i| i.bytes).sum(),
        inputs,
        records,
        status,
        threads: reports.iter().map(|r| r.threads).sum(),
        solution_limit: first.solution_limit,
        wall_ms_sum: reports.iter().map(|r| r.wall_ms).sum(),
        rates: RunRates::new(records, &tally, wall_ms),
        interrupted: reports.iter().any(|r| r.interrupted),
        shard: None,
        tally: summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(times_ns: &[u64], shard: &str) -> ShardReport {
        let mut t = Tally::default();
        for &ns in times_ns {
            t.add(ns, u32::from(ns > 5000));
        }
        ShardReport {
            command: "solve".into(),
            inputs: vec![ReportInput {
                path: "a.txt".into(),
                bytes: 100,
                layout: "lines".into(),
                records: times_ns.len() as u64,
            }],
            status: StatusCounts {
                solved: times_ns.len() as u64,
                ..StatusCounts::default()
            },
            threads: 2,
            solution_limit: 2,
            wall_ms: times_ns.len() as f64,
            interrupted: false,
            shard: Some(shard.into()),
            tally: t.summary(),
        }
    }

    #[test]
    fn merged_percentiles_equal_those_of_the_whole() {
        let a: Vec<u64> = (1..=300).map(|i| i * 97).collect();
        let b: Vec<u64> = (1..=700).map(|i| i * 13 + 5).collect();
        let mut whole = Tally::default();
        for &ns in a.iter().chain(&b) {
            whole.add(ns, u32::from(ns > 5000));
        }
        let paths = vec!["1.json".to_string(), "2.json".to_string()];
        let m = merge(&paths, &[shard(&a, "1/2"), shard(&b, "2/2")]).unwrap();
        assert_eq!(m.rates.latency, whole.latency());
        assert_eq!(m.records, 1000);
        assert_eq!(m.inputs[0].records, 1000);
        assert_eq!(m.input_bytes, 100);
        assert_eq!((m.rates.wall_ms, m.wall_ms_sum), (700.0, 1000.0));
        assert_eq!(m.rates.guesses_per_puzzle, whole.guesses_per_puzzle());
        // The histogram bytes may differ in the header (range after auto-resize); the
        // counts and what they decode to may not.
        let (mt, wt) = (&m.tally, whole.summary());
        assert_eq!(
            (mt.searched, mt.guesses, mt.no_guess, mt.solve_ns),
            (wt.searched, wt.guesses, wt.no_guess, wt.solve_ns)
        );
        assert_eq!(Tally::from_summary(mt).unwrap().latency(), whole.latency());
    }

    #[test]
    fn empty_tallies_merge_to_zero_rates() {
        let paths = vec!["1.json".to_string()];
        let mut r = shard(&[], "1/1");
        r.wall_ms = 0.0;
        let m = merge(&paths, &[r]).unwrap();
        assert_eq!((m.rates.puzzles_per_s, m.rates.us_per_puzzle), (0.0, 0.0));
        assert_eq!(m.rates.latency, crate::report::Latency::default());
    }
}
