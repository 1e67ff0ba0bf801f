//! Flags of `bench`.

use std::num::NonZeroUsize;

use clap::Args;

use sudoku_batch::bench::{BenchConfig, Exports};

use super::input::{one_stdin, parse_shard, parse_threads, LayoutArgs};
use super::output::{csv_only, not_a_table, output_is_input, same_file_outputs};

/// Flags of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Input files (`-`: standard input): lines of 81 cells, a CSV dataset, JSON Lines or
    /// Parquet (in a build with the `parquet` feature); see --format.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<String>,
    /// Thread counts to measure, comma-separated, each 1 to 1024 and each once [default: 1
    /// and all cores].
    #[arg(
        short = 'j',
        long = "threads",
        value_name = "N,...",
        value_delimiter = ',',
        value_parser = parse_threads
    )]
    pub threads: Vec<NonZeroUsize>,
    /// Untimed passes over the puzzles before timing, per thread count.
    #[arg(long, value_name = "PASSES", default_value = "1")]
    pub warmup: u32,
    /// Repeat timed passes until this many seconds are measured (at least one pass).
    #[arg(long, value_name = "SECONDS", default_value = "1.0")]
    pub min_time: f64,
    /// Replace each puzzle by a random isomorph drawn from this seed (removes order effects).
    #[arg(long, value_name = "SEED", value_parser = super::parse_seed)]
    pub seed: Option<u64>,
    /// Stop at the first solution (limit 1).
    #[arg(long, conflicts_with = "unique")]
    pub first: bool,
    /// Prove uniqueness: count solutions up to 2 (the default).
    #[arg(long)]
    pub unique: bool,
    /// How to read the inputs' layout.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Time only shard K of N (1 <= K <= N) of each input (`auto`: as for `solve`).
    #[arg(long, value_name = "K/N|auto", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// With `--shard auto` in a Kubernetes indexed Job: the number of completions (N).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_count: Option<u32>,
    /// Read files as a stream in bounded blocks (about 1 MiB) instead of memory-mapping them.
    #[arg(long)]
    pub no_mmap: bool,
    /// No progress lines on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Write the full report (provenance, settings, inputs, results) as JSON.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<String>,
    /// Write one CSV row per input and thread count, provenance in trailing columns.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<String>,
    /// Write a Markdown table and the provenance.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<String>,
    /// Draw puzzles/s by thread count into this folder (it must exist) as
    /// DIR/bench-threads.svg; `report plot` draws the same from an --export-json file.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<String>,
}

impl BenchArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<BenchConfig, String> {
        let min_time = min_duration(self.min_time)?;
        let inputs = one_stdin(self.inputs)?;
        let exports = [&self.export_json, &self.export_csv, &self.export_markdown];
        if exports.iter().filter(|p| p.as_deref() == Some("-")).count() > 1 {
            return Err("only one --export-* can go to standard output (-)".into());
        }
        // Checked before any timing: a clash found after a long run would lose it.
        let outputs = [
            ("--export-json", self.export_json.as_ref()),
            ("--export-csv", self.export_csv.as_ref()),
            ("--export-markdown", self.export_markdown.as_ref()),
        ];
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        csv_only(
            "--export-csv",
            outputs[1].1,
            "--export-csv is written as CSV",
        )?;
        not_a_table("--export-json", outputs[0].1, "one JSON document", "json")?;
        not_a_table("--export-markdown", outputs[2].1, "Markdown", "md")?;
        let mut threads: Vec<usize> = self.threads.iter().map(|n| n.get()).collect();
        // `-j 1,1` gave two rows of one measurement.
        let twice = (1..threads.len()).find(|&i| threads[..i].contains(&threads[i]));
        if let Some(n) = twice.map(|i| threads[i]) {
            return Err(format!(
                "--threads: {n} given twice; name each thread count once"
            ));
        }
        if threads.is_empty() {
            threads = sudoku_batch::bench::default_threads();
        }
        Ok(BenchConfig {
            inputs,
            layout: self.layout.layout(),
            threads,
            warmup: self.warmup,
            min_time,
            seed: self.seed,
            limit: if self.first { 1 } else { 2 },
            shard: parse_shard(self.shard.as_deref(), self.shard_count)?,
            mmap: !self.no_mmap,
            quiet: self.quiet,
            exports: Exports {
                json: self.export_json,
                csv: self.export_csv,
                markdown: self.export_markdown,
                plot: self.plot,
            },
            cancel: sudoku_batch::batch::Cancel::default(),
        })
    }
}

/// `--min-time` as a duration: a finite number of seconds >= 0. `inf` and `nan` parse as
/// numbers, and a finite value too large for a `Duration` (over about 5.8e11 years) would
/// panic in `Duration::from_secs_f64`, so each gets a message of its own.
///
/// # Errors
/// The value and what is expected, naming the flag.
fn min_duration(secs: f64) -> Result<std::time::Duration, String> {
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!(
            "--min-time {secs}: expected a finite number of seconds >= 0"
        ));
    }
    std::time::Duration::try_from_secs_f64(secs).map_err(|_| {
        format!(
            "--min-time {secs}: too long; give at most {} seconds",
            u64::MAX
        )
    })
}
