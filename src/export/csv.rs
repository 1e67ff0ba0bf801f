//! CSV export: one row per (input, thread count). CSV has no place for a header block, so
//! the provenance and the settings (mode, warm-up, min time, seed, shard, version, commit,
//! rustc, CPU, input SHA-256) are repeated in columns on every row; a row pasted alone
//! still says where it came from, and that it timed a shard. `oversubscribed`
//! (`true` when the row ran more threads than `cores`) and the load averages at the start
//! and end of the run (`1min 5min 15min`, empty where unknown) say whether the machine was
//! busy. `speedup` and `efficiency` are empty when undefined (nothing timed);
//! `multiple` in `first` mode (no second solution looked for).

use anyhow::Result;

use super::Exporter;
use crate::bench::provenance::LoadAverage;
use crate::bench::BenchReport;

/// The CSV header, units in the names.
pub const CSV_HEADER: [&str; 37] = [
    "input",
    "threads",
    "puzzles",
    "passes",
    "solved",
    "multiple",
    "unsolvable",
    "validation_failures",
    "wall_s",
    "puzzles_per_s",
    "us_per_puzzle",
    "p50_us",
    "p90_us",
    "p99_us",
    "max_us",
    "no_guess_pct",
    "guesses_per_puzzle",
    "speedup",
    "efficiency",
    "baseline_threads",
    "oversubscribed",
    "mode",
    "warmup_passes",
    "min_time_s",
    "seed",
    "shard",
    "input_content_sha256",
    "skipped_invalid",
    "version",
    "git_commit",
    "rustc",
    "target_features",
    "solver_kernel",
    "cpu",
    "cores",
    "load_average_start",
    "load_average_end",
];

/// Writes one CSV row per result with the provenance in trailing columns.
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn serialize(&self, report: &BenchReport) -> Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(CSV_HEADER)?;
        let (p, st) = (&report.provenance, &report.settings);
        for r in &report.results {
            let input = report.inputs.iter().find(|i| i.path == r.input);
            w.write_record([
                r.input.clone(),
                r.threads.to_string(),
                r.puzzles.to_string(),
                r.passes.to_string(),
                r.solved.to_string(),
                r.multiple.map(|m| m.to_string()).unwrap_or_default(),
                r.unsolvable.to_string(),
                r.validation_failures.to_string(),
                r.wall_s.to_string(),
                r.puzzles_per_s.to_string(),
                r.us_per_puzzle.to_string(),
                r.latency.p50_us.to_string(),
                r.latency.p90_us.to_string(),
                r.latency.p99_us.to_string(),
                r.latency.max_us.to_string(),
                r.no_guess_pct.to_string(),
                r.guesses_per_puzzle.to_string(),
                r.speedup.map(|x| x.to_string()).unwrap_or_default(),
                r.efficiency.map(|x| x.to_string()).unwrap_or_default(),
                r.baseline_threads.to_string(),
                r.oversubscribed.to_string(),
                st.mode.to_string(),
                st.warmup_passes.to_string(),
                st.min_time_s.to_string(),
                st.seed.map(|s| s.to_string()).unwrap_or_default(),
                st.shard.clone().unwrap_or_default(),
                input.map(|i| i.content_sha256.clone()).unwrap_or_default(),
                input
                    .map(|i| i.skipped_invalid.to_string())
                    .unwrap_or_default(),
                p.version.to_string(),
                p.git_commit.to_string(),
                p.rustc.to_string(),
                p.target_features.join(" "),
                p.solver_kernel.to_string(),
                p.cpu.clone(),
                p.cores.to_string(),
                load(p.load_average_start),
                load(p.load_average_end),
            ])?;
        }
        w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
    }
}

/// A load average as `1.25 0.98 0.80`, empty where it is unknown.
fn load(l: Option<LoadAverage>) -> String {
    l.map(|l| l.to_string()).unwrap_or_default()
}
