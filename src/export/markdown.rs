//! Markdown export: the results table (as hyperfine's `--export-markdown`) followed by the
//! provenance and the method, ready to paste into BENCHMARKS.md or an issue. A row run with
//! more threads than cores has its thread count marked `N*` and a line under the table
//! saying what it measures; the load averages at the start and end of the run are
//! in the provenance list.

use std::fmt::Write as _;

use anyhow::Result;

use super::Exporter;
use crate::bench::BenchReport;

/// Writes a Markdown table of the results and a provenance list.
pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn serialize(&self, report: &BenchReport) -> Result<Vec<u8>> {
        let mut s = String::new();
        s.push_str("| input | threads | puzzles | puzzles/s | µs/puzzle | p50 µs | p90 µs | p99 µs | max µs | no guess % | guesses/puzzle | speed-up | efficiency |\n");
        s.push_str("|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        let st = &report.settings;
        let part = super::shard_mark(report);
        let p = &report.provenance;
        for r in &report.results {
            let mark = if r.oversubscribed { "*" } else { "" };
            writeln!(
                s,
                "| `{}`{part} | {}{mark} | {} | {:.0} | {:.3} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} | {} | {} |",
                r.input.replace('|', "\\|"),
                r.threads,
                r.puzzles,
                r.puzzles_per_s,
                r.us_per_puzzle,
                r.latency.p50_us,
                r.latency.p90_us,
                r.latency.p99_us,
                r.latency.max_us,
                r.no_guess_pct,
                r.guesses_per_puzzle,
                super::two_places(r.speedup),
                super::two_places(r.efficiency)
            )?;
        }
        s.push('\n');
        if let Some(note) = super::oversubscribed_note(report) {
            writeln!(s, "- \\* {note}")?;
        }
        writeln!(
            s,
            "- tool: {} {} (commit {})",
            p.tool, p.version, p.git_commit
        )?;
        writeln!(s, "- compiler: {}", p.rustc)?;
        let features = if p.target_features.is_empty() {
            "none of sse4.2, popcnt, avx2, bmi2".to_string()
        } else {
            p.target_features.join(", ")
        };
        writeln!(s, "- target features: {features}")?;
        writeln!(
            s,
            "- solver propagation: {} (chosen at run time)",
            p.solver_kernel
        )?;
        writeln!(s, "- CPU: {} ({} cores), {}", p.cpu, p.cores, p.os)?;
        let load = |l: Option<crate::bench::provenance::LoadAverage>| {
            l.map_or_else(|| "unknown".to_string(), |l| l.to_string())
        };
        writeln!(
            s,
            "- load average (1, 5, 15 min): {} at the start, {} at the end",
            load(p.load_average_start),
            load(p.load_average_end)
        )?;
        let seed = st
            .seed
            .map_or("none (puzzles as given)".into(), |x| x.to_string());
        writeln!(
            s,
            "- mode: {} (limit {}), warm-up {}, min time {} s, isomorph seed {seed}",
            st.mode,
            st.solution_limit,
            crate::summary::count(st.warmup_passes.into(), "pass", "passes"),
            st.min_time_s
        )?;
        if let Some(k) = &st.shard {
            writeln!(
                s,
                "- shard {k}: only that part of each input was timed (records and puzzles \
                 below are the shard's)"
            )?;
        }
        writeln!(s, "- timed: {}", st.timed)?;
        for i in &report.inputs {
            writeln!(
                s,
                "- input `{}`: {}, codec {}, content sha256 `{}`, {} records, {} puzzles, {} \
                 invalid skipped",
                i.path,
                i.file_bytes
                    .map_or_else(|| "no file".to_string(), |b| format!("{b} bytes")),
                i.codec,
                i.content_sha256,
                i.records,
                i.puzzles,
                i.skipped_invalid
            )?;
        }
        Ok(s.into_bytes())
    }
}
