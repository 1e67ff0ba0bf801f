//! A `generate` run: blocks of candidates on a worker pool, kept in order, written as a
//! table; progress per bin, the stop at the budget, the summary and the JSON report.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rayon::prelude::*;

use super::draw::candidate_seed;
use super::{candidate, Bins, Candidate, Options, Rejected};
use crate::bench::provenance::Provenance;
use crate::dataset::TableOutput;
use crate::input::Shard;
use crate::output::table::{table_writer, Column, Kind, Value};
use crate::output::{cannot_write, commit_outputs, write_json, Target};
use crate::summary::count;

/// Output rows per block: the unit of the quotas, of the budget's shares and of `--shard`.
/// Part of the output format (a block's candidates are numbered from 0 within it).
pub const BLOCK: u64 = 100;

/// The output columns: `index` (0-based row of the whole run), `puzzle` and `solution`
/// (81 digits, `0` = blank), `clues`, `rating` (the `rate` score, empty when not rated),
/// `bin` (0-based bin of `--rating`, empty without it), `seed` (the candidate's own seed:
/// the same options and this seed rebuild the row) and `source` (0-based record of the
/// `--from-solutions` grid, empty for a random grid).
pub const COLUMNS: &[Column] = &[
    Column {
        name: "index",
        kind: Kind::Int,
    },
    Column {
        name: "puzzle",
        kind: Kind::Grid,
    },
    Column {
        name: "solution",
        kind: Kind::Grid,
    },
    Column {
        name: "clues",
        kind: Kind::Int,
    },
    Column {
        name: "rating",
        kind: Kind::Float,
    },
    Column {
        name: "bin",
        kind: Kind::Int,
    },
    Column {
        name: "seed",
        kind: Kind::Int,
    },
    Column {
        name: "source",
        kind: Kind::Int,
    },
];

/// Everything `generate` needs, validated.
#[derive(Clone, Debug)]
pub struct GenerateConfig {
    /// Rows of the whole (unsharded) run (`-n`).
    pub count: u64,
    /// The run's seed.
    pub seed: u64,
    /// What each puzzle must be (grids and exclusions are filled in by the command).
    pub options: Options,
    /// The difficulty target; `None`: no target, puzzles not rated.
    pub bins: Option<Bins>,
    /// Candidates the whole run may try; each block may try its share,
    /// `ceil(budget · rows / count)`.
    pub budget: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Only these blocks (`--shard K/N`: blocks `floor((K-1)·B/N)..floor(K·B/N)` of `B`).
    pub shard: Option<Shard>,
    /// Where the rows go.
    pub output: TableOutput,
    /// The JSON report, if asked for.
    pub report: Option<String>,
    /// The files of `--exclude`, for the report.
    pub exclude: Vec<String>,
    /// Also exclude puzzles whose solution grid is an isomorph of an excluded row's.
    pub exclude_solutions: bool,
    /// `--from-solutions`, for the report.
    pub from_solutions: Option<String>,
    /// No progress and no summary.
    pub quiet: bool,
}

impl GenerateConfig {
    /// Candidates a run may try per row when no budget is given (`--budget`'s default).
    pub const BUDGET_PER_ROW: u64 = 1000;

    /// A run of `count` rows from `seed` with `options` on `threads` workers, as
    /// [`generate`] runs it into memory: no rating target, the default budget, the whole
    /// run (no shard), quiet; the output and report fields, which only [`run_generate`]
    /// reads, name standard output and nothing.
    pub fn new(count: u64, seed: u64, options: Options, threads: usize) -> GenerateConfig {
        GenerateConfig {
            count,
            seed,
            options,
            bins: None,
            budget: count.saturating_mul(Self::BUDGET_PER_ROW),
            threads,
            shard: None,
            output: TableOutput::new("-".into(), None),
            report: None,
            exclude: Vec::new(),
            exclude_solutions: false,
            from_solutions: None,
            quiet: true,
        }
    }
}

/// One bin's counts.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct BinCount {
    /// Rows this run (or shard) was to write in the bin.
    pub target: u64,
    /// Rows written.
    pub kept: u64,
    /// Candidates that passed the filters and fell in the bin (kept or not).
    pub seen: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct GenerateSummary {
    /// Rows written.
    pub rows: u64,
    /// Rows this run (or shard) was to write.
    pub target: u64,
    /// Candidates tried.
    pub candidates: u64,
    /// Solver calls over the candidates tried.
    pub solves: u64,
    /// Candidates rejected, by reason (in [`Rejected::ALL`]'s order).
    pub rejected: Vec<(Rejected, u64)>,
    /// Candidates rated outside every bin.
    pub outside_bins: u64,
    /// Per bin (one bin without `--rating`).
    pub bins: Vec<BinCount>,
    /// The first block that spent its budget before its quotas were full: the run stopped
    /// there, with that block's rows so far written.
    pub stopped_at_block: Option<u64>,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
    /// Wall-clock seconds of the generation (monotonic clock).
    pub seconds: f64,
}

impl GenerateSummary {
    /// Every bin got its rows.
    pub fn complete(&self) -> bool {
        self.rows == self.target
    }
}

/// The JSON report: provenance, options, results.
#[derive(serde::Serialize)]
struct Report<'a> {
    provenance: Provenance,
    command: Vec<String>,
    count: u64,
    seed: u64,
    symmetry: &'static str,
    minimal: bool,
    clues: (u32, u32),
    rating: Option<&'a Bins>,
    rating_samples: Option<u32>,
    rating_seed: Option<u64>,
    budget: u64,
    threads: usize,
    shard: Option<Shard>,
    exclude: &'a [String],
    exclude_solutions: bool,
    from_solutions: Option<&'a str>,
    block_rows: u64,
    results: &'a GenerateSummary,
}

/// The blocks of the run (or of its shard).
fn block_range(cfg: &GenerateConfig) -> std::ops::Range<u64> {
    let blocks = cfg.count.div_ceil(BLOCK);
    match cfg.shard {
        None => 0..blocks,
        Some(s) => {
            let at = |k: u32| (u128::from(blocks) * u128::from(k) / u128::from(s.count)) as u64;
            at(s.index - 1)..at(s.index)
        }
    }
}

/// One block's candidates, kept in order until the quotas are full or the budget is spent.
struct Block {
    rows: Vec<Row>,
    tried: u64,
}

/// One output row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// 0-based row of the whole run: `BLOCK · block + position`.
    pub index: u64,
    /// 0-based bin of `--rating` (0 without it).
    pub bin: usize,
    /// The puzzle, its solution and what else the row holds.
    pub candidate: Candidate,
}

/// Runs the blocks of `cfg` (its `output` and `report` unused) with `opts` (the config's
/// options with grids and exclusions filled in) on `cfg.threads` workers, and hands each
/// block's rows to `emit`, in order; prints progress per bin every 2 s unless quiet. The
/// summary's `seconds` is left at 0.
///
/// # Errors
/// The first error of `emit`; worker threads that cannot start.
pub fn generate_rows<F>(
    cfg: &GenerateConfig,
    opts: &Options,
    mut emit: F,
) -> Result<GenerateSummary>
where
    F: FnMut(&[Row]) -> Result<()>,
{
    let bins = cfg.bins.clone().unwrap_or_else(Bins::everything);
    let blocks = block_range(cfg);
    let mut sum = GenerateSummary {
        bins: vec![BinCount::default(); bins.bins.len()],
        rejected: Rejected::ALL.iter().map(|&r| (r, 0)).collect(),
        ..GenerateSummary::default()
    };
    let row_span = |b: u64| (b * BLOCK, ((b + 1) * BLOCK).min(cfg.count));
    for b in blocks.clone() {
        let (s, e) = row_span(b);
        for (c, q) in sum.bins.iter_mut().zip(bins.quotas(s, e)) {
            c.target += q;
        }
    }
    sum.target = sum.bins.iter().map(|b| b.target).sum();
    let pool = crate::engine::worker_pool(cfg.threads)?;
    let chunk = (cfg.threads as u64 * 8).max(16);
    let mut last_progress = Instant::now();
    for b in blocks {
        let (start, end) = row_span(b);
        let mut quotas = bins.quotas(start, end);
        let budget = (u128::from(cfg.budget) * u128::from(end - start))
            .div_ceil(u128::from(cfg.count.max(1))) as u64;
        let mut block = Block {
            rows: Vec::new(),
            tried: 0,
        };
        let mut left = end - start;
        while left > 0 && block.tried < budget {
            if opts.cancel.is_cancelled() {
                sum.interrupted = true;
                break;
            }
            let (lo, hi) = (block.tried, (block.tried + chunk).min(budget));
            let found: Vec<Result<Candidate, Rejected>> = pool.install(|| {
                (lo..hi)
                    .into_par_iter()
                    .map(|i| candidate(candidate_seed(cfg.seed, b, i), b * BLOCK + i, opts))
                    .collect()
            });
            for r in found {
                block.tried += 1;
                match r {
                    Err(why) => {
                        let slot = Rejected::ALL
                            .iter()
                            .position(|&x| x == why)
                            .expect("listed");
                        sum.rejected[slot].1 += 1;
                    }
                    Ok(c) => {
                        sum.solves += u64::from(c.solves);
                        let bin = match c.rating {
                            Some(r) => bins.bin_of(r),
                            None => Some(0),
                        };
                        let Some(bin) = bin else {
                            sum.outside_bins += 1;
                            continue;
                        };
                        sum.bins[bin].seen += 1;
                        if quotas[bin] > 0 {
                            quotas[bin] -= 1;
                            left -= 1;
                            let index = start + block.rows.len() as u64;
                            block.rows.push(Row {
                                index,
                                bin,
                                candidate: c,
                            });
                        }
                    }
                }
                if left == 0 {
                    break;
                }
            }
            if !cfg.quiet && last_progress.elapsed() > Duration::from_secs(2) {
                last_progress = Instant::now();
                eprintln!(
                    "sudoku-batch: generate: {}",
                    progress_line(&sum, b, &block, &bins)
                );
            }
        }
        sum.candidates += block.tried;
        for row in &block.rows {
            sum.bins[row.bin].kept += 1;
        }
        sum.rows += block.rows.len() as u64;
        emit(&block.rows)?;
        if left > 0 && !sum.interrupted {
            sum.stopped_at_block = Some(b);
        }
        if sum.stopped_at_block.is_some() || sum.interrupted {
            break;
        }
    }
    Ok(sum)
}

/// [`generate_rows`] into memory: every row, in order, and the summary.
///
/// # Errors
/// Worker threads that cannot start.
pub fn generate(cfg: &GenerateConfig, opts: &Options) -> Result<(Vec<Row>, GenerateSummary)> {
    let mut rows = Vec::new();
    let sum = generate_rows(cfg, opts, |block| {
        rows.extend_from_slice(block);
        Ok(())
    })?;
    Ok((rows, sum))
}

/// Runs `generate` with `opts` (the config's options with grids and exclusions filled in):
/// writes the rows, prints progress and a summary on stderr unless quiet, writes the report.
///
/// # Errors
/// An output that cannot be written, worker threads that cannot start.
pub fn run_generate(cfg: &GenerateConfig, opts: &Options) -> Result<GenerateSummary> {
    let started = Instant::now();
    // The load average before the run, beside the one after it.
    let mut provenance = Provenance::current();
    let rated = cfg.bins.is_some();
    let what = cannot_write(&cfg.output.path, "puzzles");
    let mut table = Target::create(&cfg.output.path)
        .and_then(|t| {
            table_writer(
                cfg.output.format,
                t,
                COLUMNS,
                cfg.output.parquet_compression,
            )
        })
        .context(what.clone())?;
    let mut sum = generate_rows(cfg, opts, |rows| {
        for Row {
            index,
            bin,
            candidate: c,
        } in rows
        {
            let int = |n: Option<u64>| n.map_or(Value::Null, Value::Int);
            table
                .write_row(&[
                    Value::Int(*index),
                    Value::Grid(&c.puzzle),
                    Value::Grid(&c.solution),
                    Value::Int(u64::from(c.clues)),
                    c.rating.map_or(Value::Null, Value::Float),
                    int(rated.then_some(*bin as u64)),
                    Value::Int(c.seed),
                    int(c.source),
                ])
                .context(what.clone())?;
        }
        Ok(())
    })?;
    sum.seconds = started.elapsed().as_secs_f64();
    let target = table.finish().context(what.clone())?;
    commit_outputs(vec![(target, what)], ())?;
    if let Some(path) = &cfg.report {
        let (samples, rate_seed) = opts.rating.unzip();
        provenance.finish();
        let report = Report {
            provenance,
            command: std::env::args().collect(),
            count: cfg.count,
            seed: cfg.seed,
            symmetry: opts.symmetry.name(),
            minimal: opts.minimal,
            clues: opts.clues,
            rating: cfg.bins.as_ref(),
            rating_samples: samples,
            rating_seed: rate_seed,
            budget: cfg.budget,
            threads: cfg.threads,
            shard: cfg.shard,
            exclude: &cfg.exclude,
            exclude_solutions: cfg.exclude_solutions,
            from_solutions: cfg.from_solutions.as_deref(),
            block_rows: BLOCK,
            results: &sum,
        };
        write_json(path, "report", &report)?;
    }
    print_summary(cfg, &sum);
    Ok(sum)
}

/// `N of M rows; bin 0 [0, 0.6): a/b, ...; C candidates`.
fn progress_line(sum: &GenerateSummary, block: u64, current: &Block, bins: &Bins) -> String {
    let mut kept = sum.bins.iter().map(|b| b.kept).collect::<Vec<_>>();
    current.rows.iter().for_each(|r| kept[r.bin] += 1);
    let per_bin: Vec<String> = (bins.bins.iter().zip(&sum.bins).zip(&kept).enumerate())
        .map(|(i, ((bin, c), k))| format!("bin {i} {bin}: {k}/{}", c.target))
        .collect();
    format!(
        "{} of {} rows (block {block}); {}; {}",
        kept.iter().sum::<u64>(),
        sum.target,
        per_bin.join(", "),
        count(sum.candidates + current.tried, "candidate", "candidates")
    )
}

/// The summary on stderr: always the stop at the budget, the rest unless quiet.
fn print_summary(cfg: &GenerateConfig, sum: &GenerateSummary) {
    let bins = cfg.bins.clone().unwrap_or_else(Bins::everything);
    if let Some(b) = sum.stopped_at_block {
        let short: Vec<String> = (bins.bins.iter().zip(&sum.bins).enumerate())
            .filter(|(_, (_, c))| c.kept < c.target)
            .map(|(i, (bin, c))| format!("bin {i} {bin} has {} of {}", c.kept, c.target))
            .collect();
        eprintln!(
            "sudoku-batch: generate: stopped: block {b} (rows {}..{}) spent its share of \
             --budget {} before its bins were full; {}; the {} written so far are kept. Raise \
             --budget, or widen or drop the short bins",
            b * BLOCK,
            ((b + 1) * BLOCK).min(cfg.count),
            cfg.budget,
            short.join(", "),
            count(sum.rows, "row", "rows"),
        );
    }
    if cfg.quiet {
        return;
    }
    let rejected: Vec<String> = sum
        .rejected
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(r, n)| format!("{n} {}", r.as_str()))
        .collect();
    eprintln!(
        "sudoku-batch: generate: {} of {} written{} in {:.2} s ({:.1} solver calls a \
         puzzle that passed the filters); {} tried ({} rejected: {}{})",
        count(sum.rows, "puzzle", "puzzles"),
        sum.target,
        if sum.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        sum.seconds,
        sum.solves as f64 / sum.bins.iter().map(|b| b.seen).sum::<u64>().max(1) as f64,
        count(sum.candidates, "candidate", "candidates"),
        sum.rejected.iter().map(|r| r.1).sum::<u64>(),
        if rejected.is_empty() {
            "none".to_string()
        } else {
            rejected.join(", ")
        },
        if cfg.bins.is_some() {
            format!("; {} rated outside every bin", sum.outside_bins)
        } else {
            String::new()
        }
    );
    if cfg.bins.is_some() {
        for (i, (bin, c)) in bins.bins.iter().zip(&sum.bins).enumerate() {
            eprintln!(
                "sudoku-batch: generate: bin {i} {bin}: {} of {} ({} candidates fell in it)",
                c.kept, c.target, c.seen
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(threads: usize, shard: Option<Shard>) -> GenerateConfig {
        GenerateConfig {
            bins: Some(Bins::parse("0,0.5,inf").expect("a spec")),
            budget: 100_000,
            shard,
            ..GenerateConfig::new(250, 11, Options::default(), threads)
        }
    }

    #[test]
    fn rows_do_not_depend_on_threads_and_shards_cover_the_run() {
        let opts = Options {
            rating: Some((4, 0)),
            ..Options::default()
        };
        let (one, sum) = generate(&config(1, None), &opts).unwrap();
        assert!(sum.complete());
        assert_eq!(one.len(), 250);
        assert_eq!(one, generate(&config(3, None), &opts).unwrap().0);
        let parts: Vec<Row> = (1..=2)
            .flat_map(|index| {
                let shard = Shard { index, count: 2 };
                generate(&config(2, Some(shard)), &opts).unwrap().0
            })
            .collect();
        assert_eq!(parts, one);
        let indices: Vec<u64> = one.iter().map(|r| r.index).collect();
        assert_eq!(indices, (0..250).collect::<Vec<_>>());
        // 125 a bin, each rating inside its bin.
        let low = one.iter().filter(|r| r.bin == 0).count();
        assert_eq!(low, 125);
        for r in &one {
            let rating = r.candidate.rating.unwrap();
            assert_eq!(r.bin, usize::from(rating >= 0.5), "{r:?}");
        }
    }
}
