//! `sudoku-batch bench`: the throughput report users publish beside tdoku's; the command
//! that loads the inputs and runs it is [`crate::cmd::bench`].
//!
//! Method (tdoku's `run_benchmark.cc`, hyperfine's report):
//! 1. Every input is read and parsed **before** timing; invalid records (a parse error or two
//!    equal givens in a unit) are skipped and counted. With `--seed`, each puzzle is replaced
//!    by a random isomorph ([`crate::isomorph`]) so input order cannot flatter the solver.
//! 2. For each thread count, a rayon pool of that size runs `warmup` untimed passes over the
//!    puzzles, then timed passes until `min_time` has elapsed (at least one). A pass is one
//!    `par_iter` over all puzzles; its wall time (monotonic clock) is what puzzles/s is
//!    computed from. No clock is read per puzzle inside it (tdoku's harness reads none in
//!    its passes either): two reads per puzzle cost about 3% of a 2 µs solve. One more pass
//!    after the timed ones, not counted in puzzles/s, takes each puzzle's own solve time
//!    (two clock reads around it) for the latency percentiles.
//! 3. After each pass, outside the timed region, every solution is validated: a complete
//!    valid grid that keeps the givens. A failure is counted, named on stderr, and makes the
//!    exit code 1.
//!
//! Only the solver is timed: no parsing, no I/O, no output.

pub mod provenance;

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use crate::grid::Grid;
use crate::input::{Cancel, LayoutOptions, Shard};
use crate::report::{ratio, Latency, Tally};
use crate::solver::{self, Solution};
pub use provenance::Provenance;

/// Everything `bench` needs, validated.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Input paths (`-` is standard input).
    pub inputs: Vec<String>,
    /// Layout options shared by all inputs.
    pub layout: LayoutOptions,
    /// Thread counts to measure, in order (each at least 1).
    pub threads: Vec<usize>,
    /// Untimed passes over the puzzles before timing, per thread count.
    pub warmup: u32,
    /// Timed passes repeat until this much wall time has been measured (at least one pass).
    pub min_time: Duration,
    /// Seed for isomorph shuffling; `None` times the puzzles as given.
    pub seed: Option<u64>,
    /// Solution limit: 1 = first solution (`--first`), 2 = prove uniqueness (`--unique`).
    pub limit: u32,
    /// Time only this shard of each input.
    pub shard: Option<Shard>,
    /// Memory-map regular files (else read them).
    pub mmap: bool,
    /// No progress lines on stderr.
    pub quiet: bool,
    /// Export paths, by format.
    pub exports: Exports,
    /// Stops the loading and the passes once set (the binary sets it on Ctrl-C).
    pub cancel: Cancel,
}

/// Where `--export-json`, `--export-csv` and `--export-markdown` write (`-` = stdout), and
/// the folder `--plot` draws into.
#[derive(Clone, Debug, Default)]
pub struct Exports {
    /// JSON report path.
    pub json: Option<String>,
    /// CSV path.
    pub csv: Option<String>,
    /// Markdown path.
    pub markdown: Option<String>,
    /// Folder of the thread-count chart (`bench-threads.svg`); it must exist.
    pub plot: Option<String>,
}

/// The whole benchmark: provenance, settings, inputs and one row per (input, threads).
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Build and machine.
    pub provenance: Provenance,
    /// How the benchmark was run.
    pub settings: Settings,
    /// The inputs, in order.
    pub inputs: Vec<BenchInput>,
    /// One row per input and thread count, inputs outer.
    pub results: Vec<BenchRow>,
}

/// How the benchmark was run.
#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    /// `first` (limit 1) or `unique` (limit 2).
    pub mode: &'static str,
    /// Solutions counted up to this many.
    pub solution_limit: u32,
    /// Untimed warm-up passes per thread count.
    pub warmup_passes: u32,
    /// Minimum measured wall time per thread count, seconds.
    pub min_time_s: f64,
    /// Isomorph shuffling seed, or `null` for the puzzles as given.
    pub seed: Option<u64>,
    /// Shard read (`K/N`), or `null` for whole inputs.
    pub shard: Option<String>,
    /// What the timed region holds.
    pub timed: &'static str,
}

/// One input as benchmarked.
#[derive(Clone, Debug, Serialize)]
pub struct BenchInput {
    /// Path as given.
    pub path: String,
    /// Size of the file as stored (compressed), bytes; `null` for standard input or a pipe.
    pub file_bytes: Option<u64>,
    /// SHA-256 of the whole content read, hex: the file's bytes, decompressed (and UTF-16
    /// transcoded) first, as a report's [`crate::report::InputInfo::content_sha256`].
    pub content_sha256: String,
    /// `lines` or `csv`.
    pub layout: &'static str,
    /// How the input was compressed: `none`, `gzip`, `zstd`, `xz`, `bzip2` or `zip`.
    pub codec: &'static str,
    /// Data records read (of the shard, with `--shard`).
    pub records: u64,
    /// Puzzles timed: records minus skipped invalid ones.
    pub puzzles: u64,
    /// Records skipped as invalid (parse error or conflicting givens).
    pub skipped_invalid: u64,
}

/// The measurement of one input at one thread count.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// Input path.
    pub input: String,
    /// Worker threads.
    pub threads: usize,
    /// Puzzles per pass.
    pub puzzles: u64,
    /// Timed passes.
    pub passes: u64,
    /// Puzzles of a pass with exactly one solution (in `first` mode: with a solution), as
    /// `solve`'s `solved`.
    pub solved: u64,
    /// Puzzles of a pass with two or more solutions, as `solve`'s `multiple`: not counted
    /// in `solved`. `None` (JSON `null`, empty in CSV) in `first` mode, where no second
    /// solution is looked for, as `solve --first` reports it.
    pub multiple: Option<u64>,
    /// Puzzles of a pass without a solution.
    pub unsolvable: u64,
    /// Solutions that failed validation, over all passes (0 unless the solver is wrong).
    pub validation_failures: u64,
    /// Measured wall time of the timed passes, seconds.
    pub wall_s: f64,
    /// Puzzles solved per second of wall time.
    pub puzzles_per_s: f64,
    /// Wall time per puzzle, microseconds (`1e6 / puzzles_per_s`).
    pub us_per_puzzle: f64,
    /// Per-puzzle solve time percentiles, microseconds.
    pub latency: Latency,
    /// Percentage of puzzles solved without a guess.
    pub no_guess_pct: f64,
    /// Guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Throughput relative to the baseline row of the same input (1 thread when measured);
    /// `None` (JSON `null`) when the baseline solved nothing (an input without puzzles):
    /// 0 / 0 is no speed-up, for the baseline row as for the others.
    pub speedup: Option<f64>,
    /// `speedup` per thread relative to the baseline's threads (1.0 = linear scaling);
    /// `None` when `speedup` is.
    pub efficiency: Option<f64>,
    /// Thread count of the baseline row.
    pub baseline_threads: usize,
    /// More threads than the cores available ([`Provenance::cores`]): the row measures
    /// threads taking turns on a core, not scaling. Every export marks it.
    pub oversubscribed: bool,
}

/// The default thread counts: 1 and all cores (just 1 on a single core).
pub fn default_threads() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    if cores > 1 {
        vec![1, cores]
    } else {
        vec![1]
    }
}

/// What a puzzle skipped after Ctrl-C stands for in an interrupted pass, which is dropped.
const SKIPPED: Solution = Solution {
    count: 0,
    grid: None,
    guesses: 0,
    givens_clash: false,
};

/// Runs `work` on every puzzle across `pool`, into `out` in puzzle order. After Ctrl-C the
/// puzzles not yet started give `skipped` instead (one relaxed load of a flag per puzzle,
/// no clock read): the pass ends within one puzzle's solve time, and is not to be used.
fn each_puzzle<T: Copy + Send + Sync>(
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
    puzzles: &[Grid],
    out: &mut Vec<T>,
    skipped: T,
    work: impl Fn(&Grid) -> T + Send + Sync,
) {
    pool.install(|| {
        puzzles
            .par_iter()
            .with_min_len(64)
            .map(|p| match cancel.is_cancelled() {
                true => skipped,
                false => work(p),
            })
            .collect_into_vec(out);
    });
}

/// Solves every puzzle once across `pool`; returns the pass's wall time (monotonic clock).
/// No clock is read per puzzle: the pass's time is the solver's.
fn timed_pass(
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
    puzzles: &[Grid],
    limit: u32,
    out: &mut Vec<Solution>,
) -> Duration {
    let start = Instant::now();
    each_puzzle(pool, cancel, puzzles, out, SKIPPED, |p| {
        solver::solve(p, limit)
    });
    start.elapsed()
}

/// Solves every puzzle once more across `pool`, each timed on its own (nanoseconds,
/// monotonic clock, two reads around the solve), and adds the times and guesses to `tally`
/// for the latency percentiles. Not part of any timed pass.
fn latency_pass(
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
    puzzles: &[Grid],
    limit: u32,
    tally: &mut Tally,
) {
    let mut times = Vec::with_capacity(puzzles.len());
    each_puzzle(pool, cancel, puzzles, &mut times, (0, 0), |p| {
        let t = Instant::now();
        let guesses = solver::solve(p, limit).guesses;
        let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        (ns, guesses)
    });
    for (ns, guesses) in times {
        tally.add(ns, guesses);
    }
}

/// Counts of one pass, from validating its solutions.
#[derive(Default)]
struct PassCheck {
    solved: u64,
    multiple: u64,
    unsolvable: u64,
    failures: u64,
}

/// Validates every solution of a pass: a complete valid grid that keeps the givens.
fn validate(path: &str, puzzles: &[Grid], results: &[Solution], limit: u32) -> PassCheck {
    let mut c = PassCheck::default();
    for (i, (p, s)) in puzzles.iter().zip(results).enumerate() {
        match (s.count, s.grid) {
            (0, _) => c.unsolvable += 1,
            (n, Some(g)) if g.is_complete_valid() && g.keeps_givens(p) => {
                // The status words of `solve`: `solved` is one solution, `multiple` more.
                if n > 1 && limit > 1 {
                    c.multiple += 1;
                } else {
                    c.solved += 1;
                }
            }
            _ => {
                if c.failures == 0 {
                    eprintln!("sudoku-batch bench: {path}: puzzle {i}: the solver's solution does not verify: {p}");
                }
                c.failures += 1;
            }
        }
    }
    c
}

/// Warms up, then times passes over `puzzles` with `threads` workers until `min_time`.
/// `None` when Ctrl-C stopped it ([`BenchConfig::cancel`]): within one puzzle's solve time,
/// with no row, since a pass cut short measures nothing.
///
/// # Errors
/// When the pool cannot start.
pub fn measure(
    path: &str,
    puzzles: &[Grid],
    threads: usize,
    cfg: &BenchConfig,
) -> Result<Option<BenchRow>> {
    let pool = crate::engine::worker_pool(threads)?;
    let mut out = Vec::with_capacity(puzzles.len());
    let mut tally = Tally::default();
    let mut check = PassCheck::default();
    let (mut wall, mut passes) = (Duration::ZERO, 0u64);
    if !puzzles.is_empty() {
        for _ in 0..cfg.warmup {
            timed_pass(&pool, &cfg.cancel, puzzles, cfg.limit, &mut out);
            if cfg.cancel.is_cancelled() {
                return Ok(None);
            }
        }
        loop {
            wall += timed_pass(&pool, &cfg.cancel, puzzles, cfg.limit, &mut out);
            if cfg.cancel.is_cancelled() {
                return Ok(None);
            }
            passes += 1;
            let c = validate(path, puzzles, &out, cfg.limit);
            check.failures += c.failures;
            if passes == 1 {
                check = PassCheck {
                    failures: check.failures,
                    ..c
                };
            }
            if wall >= cfg.min_time {
                break;
            }
        }
        latency_pass(&pool, &cfg.cancel, puzzles, cfg.limit, &mut tally);
        if cfg.cancel.is_cancelled() {
            return Ok(None);
        }
    }
    let timed = (puzzles.len() as u64 * passes) as f64;
    let secs = wall.as_secs_f64();
    Ok(Some(BenchRow {
        input: path.to_string(),
        threads,
        puzzles: puzzles.len() as u64,
        passes,
        solved: check.solved,
        multiple: (cfg.limit > 1).then_some(check.multiple),
        unsolvable: check.unsolvable,
        validation_failures: check.failures,
        wall_s: secs,
        puzzles_per_s: ratio(timed, secs),
        us_per_puzzle: ratio(secs * 1e6, timed),
        latency: tally.latency(),
        no_guess_pct: tally.no_guess_pct(),
        guesses_per_puzzle: tally.guesses_per_puzzle(),
        speedup: None,
        efficiency: None,
        baseline_threads: threads,
        oversubscribed: threads > std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
    }))
}

/// Fills `speedup` and `efficiency` of one input's rows against its 1-thread row, or
/// against its fewest-threads row when 1 thread was not measured; both `None` on every row
/// when that row's rate is 0 (nothing timed: an empty input would give the baseline
/// 1.00 and the other row 0.00 for the same 0 / 0).
pub fn set_speedups(rows: &mut [BenchRow]) {
    let Some(base) = rows
        .iter()
        .min_by_key(|r| r.threads)
        .map(|r| (r.threads, r.puzzles_per_s))
    else {
        return;
    };
    for r in rows {
        r.baseline_threads = base.0;
        r.speedup = (base.1 > 0.0).then(|| match r.threads == base.0 {
            true => 1.0,
            false => r.puzzles_per_s / base.1,
        });
        r.efficiency = r.speedup.map(|s| s * base.0 as f64 / r.threads as f64);
    }
}

/// Timed work, seconds, below which a row's rate is mostly clock and scheduler noise.
pub const TRUSTED_TIMED_S: f64 = 0.010;

/// A row of a single pass shorter than this, seconds, is not trusted either: one pass has no
/// repeat to average a disturbance (a preemption, a frequency change) over.
pub const TRUSTED_PASS_S: f64 = 0.100;

/// The caveats of a finished benchmark, one line each, for stderr (the numbers stay as
/// measured): a row whose timed work is too small to trust (less than [`TRUSTED_TIMED_S`]
/// timed, or a single pass shorter than [`TRUSTED_PASS_S`]), a row whose efficiency is above 1 (more than linear
/// scaling: timing noise, such as a baseline slowed by other work), and a load average at
/// the start above the cores (other work competed for them). Rows without puzzles have no
/// caveat: their rates are 0 by definition.
pub fn caveats(report: &BenchReport) -> Vec<String> {
    let mut out = Vec::new();
    let p = &report.provenance;
    if let Some(busy) = provenance::competing_work(p.load_average_start, p.cores) {
        out.push(format!("{busy}, so rates are low and speed-ups unreliable"));
    }
    let min_time = report.settings.min_time_s;
    for r in report.results.iter().filter(|r| r.puzzles > 0) {
        let row = format!(
            "{}: {}",
            r.input,
            crate::summary::count(r.threads as u64, "thread", "threads")
        );
        if r.wall_s < TRUSTED_TIMED_S || (r.passes <= 1 && r.wall_s < TRUSTED_PASS_S) {
            out.push(format!(
                "{row}: {} timed in {:.1} ms: too little to trust; give a larger --min-time \
                 (now {min_time} s)",
                crate::summary::count(r.passes, "pass", "passes"),
                r.wall_s * 1e3
            ));
        }
        if let Some(e) = r.efficiency.filter(|&e| e > 1.0) {
            out.push(format!(
                "{row}: efficiency {e:.2} is above 1 (more than linear speed-up): timing \
                 noise, not scaling; give a larger --min-time (now {min_time} s)"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(threads: usize, pps: f64) -> BenchRow {
        BenchRow {
            input: "x".into(),
            threads,
            puzzles: 0,
            passes: 0,
            solved: 0,
            multiple: Some(0),
            unsolvable: 0,
            validation_failures: 0,
            wall_s: 0.0,
            puzzles_per_s: pps,
            us_per_puzzle: 0.0,
            latency: Latency::default(),
            no_guess_pct: 0.0,
            guesses_per_puzzle: 0.0,
            speedup: None,
            efficiency: None,
            baseline_threads: 0,
            oversubscribed: false,
        }
    }

    /// A 1-thread row of one short pass under load can give an absurd speed-up and an
    /// efficiency far above 1; the caveats must say so rather than print it without doubt.
    #[test]
    fn caveats_name_small_timings_superlinear_rows_and_a_busy_machine() {
        let mut slow = row(1, 2907.0);
        (slow.puzzles, slow.passes, slow.wall_s) = (11, 1, 0.00378);
        let mut fast = row(4, 157_648.0);
        (fast.puzzles, fast.passes, fast.wall_s) = (11, 300, 0.021);
        let mut tiny = row(2, 1e6);
        (tiny.puzzles, tiny.passes, tiny.wall_s) = (11, 5, 0.005);
        let mut once = row(3, 5000.0);
        (once.puzzles, once.passes, once.wall_s) = (250, 1, 0.05);
        let mut results = vec![slow, fast, tiny, once];
        set_speedups(&mut results);
        let mut provenance = Provenance::current();
        provenance.cores = 2;
        provenance.load_average_start = provenance::LoadAverage::parse("3.50 1.0 1.0");
        let settings = Settings {
            mode: "unique",
            solution_limit: 2,
            warmup_passes: 1,
            min_time_s: 0.0,
            seed: None,
            shard: None,
            timed: "",
        };
        let mut report = BenchReport {
            provenance,
            settings,
            inputs: Vec::new(),
            results,
        };
        let got = caveats(&report);
        assert_eq!(got.len(), 6, "{got:#?}");
        assert!(got[0].starts_with("the load average at the start was 3.50, above the 2 cores"));
        assert!(got[1].starts_with("x: 1 thread: 1 pass timed in 3.8 ms: too little"));
        assert!(got[2].starts_with("x: 4 threads: efficiency 13.56 is above 1"));
        assert!(got[3].starts_with("x: 2 threads: 5 passes timed in 5.0 ms: too little"));
        assert!(got[4].starts_with("x: 2 threads: efficiency 172.00 is above 1"));
        assert!(got[5].starts_with("x: 3 threads: 1 pass timed in 50.0 ms: too little"));
        // A quiet machine and rows timed long enough, scaling below linear: no caveat.
        report.provenance.load_average_start = provenance::LoadAverage::parse("1.50 1 1");
        // One pass of half a second is long enough.
        let quiet = [(1, 100.0), (3, 380.0), (3, 150.0), (3, 200.0)];
        for (r, (passes, pps)) in report.results.iter_mut().zip(quiet) {
            (r.passes, r.wall_s, r.puzzles_per_s) = (passes, 0.5, pps);
        }
        set_speedups(&mut report.results);
        assert_eq!(caveats(&report), Vec::<String>::new());
        // A row without puzzles has nothing to doubt.
        report.results[0].puzzles = 0;
        report.results[0].passes = 0;
        assert_eq!(caveats(&report), Vec::<String>::new());
    }

    #[test]
    fn speedup_is_against_one_thread_and_never_nan() {
        let mut rows = vec![row(4, 300.0), row(1, 100.0), row(2, 0.0)];
        set_speedups(&mut rows);
        let got: Vec<_> = rows.iter().map(|r| (r.speedup, r.efficiency)).collect();
        assert_eq!(
            got,
            [
                (Some(3.0), Some(0.75)),
                (Some(1.0), Some(1.0)),
                (Some(0.0), Some(0.0))
            ]
        );
        // Nothing timed (an empty input) is 0 / 0 on every row, the baseline's too.
        let mut zero = vec![row(1, 0.0), row(2, 0.0)];
        set_speedups(&mut zero);
        assert!(zero
            .iter()
            .all(|r| r.speedup.is_none() && r.efficiency.is_none()));
    }
}
