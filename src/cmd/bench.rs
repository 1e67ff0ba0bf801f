//! `sudoku-batch bench`: time the solver on each input at each thread count and print the
//! table (the method is in [`crate::bench`]). The inputs are loaded through the
//! [`crate::engine`] like every command's: parsed in parallel, invalid records
//! skipped and counted, all of them before the first is timed.

use std::num::NonZeroUsize;

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::bench::{
    caveats, measure, set_speedups, BenchConfig, BenchInput, BenchReport, Provenance, Settings,
};
use crate::engine::{self, Output, Sink, Work};
use crate::grid::Grid;
use crate::input::{Dataset, RawRecord, ReadOptions};
use crate::isomorph::Isomorph;
use crate::summary::count;

/// Runs the benchmark, writes the exports, returns the report. Every export is opened
/// before any timing, so a path that cannot be written fails at once. `None` when Ctrl-C
/// stopped it: no export is written, their temporaries are removed.
///
/// # Errors
/// Fatal problems only: an unreadable input, an unknown layout, a pool that cannot start,
/// an export that cannot be written.
pub fn run_bench(cfg: &BenchConfig) -> Result<Option<BenchReport>> {
    let exports = crate::export::open_all(&cfg.exports)?;
    if let Some(dir) = &cfg.exports.plot {
        super::plot::check_folder(dir).context("--plot")?;
    }
    warn_oversubscribed(&cfg.threads);
    let mut report = BenchReport {
        provenance: Provenance::current(),
        settings: Settings {
            mode: if cfg.limit == 1 { "first" } else { "unique" },
            solution_limit: cfg.limit,
            warmup_passes: cfg.warmup,
            min_time_s: cfg.min_time.as_secs_f64(),
            seed: cfg.seed,
            shard: cfg.shard.map(|s| s.to_string()),
            timed:
                "solver only: puzzles are parsed, shuffled and validated outside the timed region",
        },
        inputs: Vec::new(),
        results: Vec::new(),
    };
    // Every input is read and parsed before the first is timed, so a missing or unreadable
    // third file fails the run at once, not after minutes spent timing the first two.
    // Each input's puzzles are freed once it is timed.
    let mut loaded = Vec::with_capacity(cfg.inputs.len());
    for path in &cfg.inputs {
        let Some((info, puzzles)) = load(path, cfg)? else {
            return Ok(None);
        };
        if !cfg.quiet && info.skipped_invalid > 0 {
            // Said here too, not only in the exports: the timed set is not the whole file.
            eprintln!(
                "sudoku-batch bench: {path}: {} skipped (not a puzzle, or two givens clash), \
                 not timed",
                count(info.skipped_invalid, "invalid record", "invalid records")
            );
        }
        loaded.push((info, puzzles));
    }
    for (info, puzzles) in loaded {
        let path = &info.path;
        let first_row = report.results.len();
        for &threads in &cfg.threads {
            if !cfg.quiet {
                eprintln!(
                    "sudoku-batch bench: {path}: {}, {}",
                    count(puzzles.len() as u64, "puzzle", "puzzles"),
                    count(threads as u64, "thread", "threads")
                );
            }
            let Some(row) = measure(path, &puzzles, threads, cfg)? else {
                return Ok(None);
            };
            report.results.push(row);
        }
        set_speedups(&mut report.results[first_row..]);
        report.inputs.push(info);
    }
    report.provenance.finish();
    crate::export::write_all(exports, &report)?;
    if let Some(dir) = &cfg.exports.plot {
        let doc = serde_json::to_value(&report).context("--plot: the report as JSON")?;
        let charts = crate::report::plot::charts(&doc).context("--plot")?;
        super::plot::write_charts(
            dir,
            charts.into_iter().map(|c| ("bench".into(), c)).collect(),
        )?;
    }
    // After the exports, so a run that fails says only why.
    for caveat in caveats(&report) {
        eprintln!("sudoku-batch bench: warning: {caveat}");
    }
    Ok(Some(report))
}

/// Warns on stderr when a thread count exceeds the cores: such a row measures threads
/// taking turns on a core, not scaling.
fn warn_oversubscribed(threads: &[usize]) {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    if let Some(&most) = threads.iter().max().filter(|&&t| t > cores) {
        eprintln!(
            "sudoku-batch bench: warning: -j {most} exceeds the {} available: rows above {cores} \
             threads measure threads taking turns, not scaling",
            crate::summary::count(cores as u64, "core", "cores")
        );
    }
}

/// The loading work: a record's puzzle when it is one the solver can be timed on (it
/// parsed and no two givens clash), else `None`.
struct Parse;

impl Work for Parse {
    type Output = Option<Grid>;

    fn work(&self, raw: &RawRecord) -> Option<Grid> {
        raw.puzzle
            .as_ref()
            .ok()
            .filter(|p| p.conflicts().is_none())
            .copied()
    }

    fn panicked(&self, _: &RawRecord, _: String) -> Option<Grid> {
        None
    }
}

/// Keeps the puzzles to time, in input order.
#[derive(Default)]
struct Puzzles(Vec<Grid>);

impl Sink for Puzzles {
    type Work = Parse;

    fn start_input(&mut self, _: usize, _: &Dataset) -> Result<Parse> {
        Ok(Parse)
    }

    fn consume(&mut self, _: &[RawRecord], results: &[Output<Self>]) -> Result<()> {
        self.0.extend(results.iter().flatten());
        Ok(())
    }
}

/// Reads and parses one input (all of it, or its shard), skipping invalid records, and
/// shuffles the puzzles into random isomorphs when a seed is set. `None` when Ctrl-C
/// stopped the reading.
fn load(path: &str, cfg: &BenchConfig) -> Result<Option<(BenchInput, Vec<Grid>)>> {
    let options = ReadOptions {
        layout: cfg.layout.clone(),
        mmap: cfg.mmap,
        shard: cfg.shard,
        hash: true,
        stop: cfg.cancel.clone(),
        ..ReadOptions::default()
    };
    let threads = cfg.threads.iter().copied().max().unwrap_or(1);
    let pool = engine::worker_pool(threads)?;
    let mut puzzles = Puzzles::default();
    let run = engine::run(
        engine::open_inputs(&[path.to_string()], &options)?,
        &pool,
        &mut puzzles,
        cfg.quiet,
    )?;
    if run.interrupted {
        return Ok(None);
    }
    let mut puzzles = puzzles.0;
    if let Some(seed) = cfg.seed {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for p in &mut puzzles {
            *p = Isomorph::random(&mut rng).apply(p);
        }
    }
    let input = &run.inputs[0];
    let info = BenchInput {
        path: path.to_string(),
        file_bytes: crate::report::file_bytes(path, &input.done),
        content_sha256: input.done.sha256.clone().unwrap_or_default(),
        layout: input.done.layout,
        codec: input.done.codec,
        records: input.records,
        puzzles: puzzles.len() as u64,
        skipped_invalid: input.records - puzzles.len() as u64,
    };
    Ok(Some((info, puzzles)))
}
