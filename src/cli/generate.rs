//! Flags of `generate`.

use clap::Args;

use sudoku_batch::cmd::Command as Run;
use sudoku_batch::generate::symmetry::Symmetry;
use sudoku_batch::generate::{Bins, GenerateConfig, Options};

use super::input::{parse_shard, EngineArgs, InputArgs, LayoutArgs};
use super::output::{not_a_table, output_is_input, same_file_outputs, TableOutputArgs};

/// Flags of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Puzzles to write (the whole run; a --shard writes its part).
    #[arg(short = 'n', long = "count", value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    pub count: u64,
    /// Seed of the run: the same seed and options give the same rows at any -j, and the
    /// shards of a --shard K/N run joined in order give the whole run's rows.
    #[arg(long, value_name = "S", default_value = "0", value_parser = super::parse_seed)]
    pub seed: u64,
    /// Keep only minimal puzzles: every given checked non-removable on the finished puzzle.
    /// With a --symmetry, puzzles minimal only under the symmetry are rejected.
    #[arg(long)]
    pub minimal: bool,
    /// Symmetry of the pattern of givens: none, 180, 90, diagonal, antidiagonal,
    /// horizontal, vertical, full (all eight).
    #[arg(long, value_name = "NAME", default_value = "none", value_parser = parse_symmetry)]
    pub symmetry: Symmetry,
    /// Givens, MIN..MAX (or N): removal stops at MIN (with --minimal it goes on, and
    /// puzzles outside the range are rejected); a puzzle above MAX is rejected [default:
    /// 17..81].
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_clues)]
    pub clues: Option<(u32, u32)>,
    /// Difficulty target over the `rate` score: N (equal bins over 0..3, the last open
    /// above), N:LO..HI, edges E0,E1,...,EN (`inf` allowed), or a CSV file of lo,hi,weight
    /// rows; equal counts per bin unless weighted. Each row gets its rating and bin.
    #[arg(long, value_name = "BIN_SPEC")]
    pub rating: Option<String>,
    /// With --rating: isomorphs solved per rating, as `rate --samples` [default: 10].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub samples: Option<u32>,
    /// With --rating: the seed of the rating's isomorphs, as `rate --seed` [default: 0].
    #[arg(long, value_name = "S", value_parser = super::parse_seed)]
    pub rating_seed: Option<u64>,
    /// Candidate puzzles the whole run may try (each block of 100 rows its share) before it
    /// stops with the rows so far [default: 1000 per row].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: Option<u64>,
    /// Files of puzzles (lines, CSV, JSON Lines, Parquet): no generated puzzle is an
    /// isomorph of one of them (canonical forms, as `overlap` compares).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub exclude: Vec<String>,
    /// With --exclude: also no puzzle whose solution grid is an isomorph of an excluded
    /// row's (its stored solution, or its only solution).
    #[arg(long)]
    pub exclude_solutions: bool,
    /// Dig the puzzles from these solution grids (a solution column, or complete grids as
    /// puzzles) instead of random grids: candidate i of block b uses grid (100·b + i) mod
    /// the number of grids.
    #[arg(long, value_name = "FILE")]
    pub from_solutions: Option<String>,
    /// Where the puzzles go (index,puzzle,solution,clues,rating,bin,seed,source).
    #[command(flatten)]
    pub output: TableOutputArgs,
    /// Write a JSON report (provenance, options, counts per bin) here.
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// Write only part K of N (1 <= K <= N): blocks floor((K-1)·B/N) to floor(K·B/N) of
    /// the run's B blocks of 100 rows. `auto`: K/N of this task of a Slurm job array or a
    /// Kubernetes indexed Job.
    #[arg(long, value_name = "K/N|auto", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// With `--shard auto` in a Kubernetes indexed Job: the number of completions (N).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_count: Option<u32>,
    /// How to read --exclude and --from-solutions files.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Threads, quiet, memory mapping.
    #[command(flatten)]
    pub engine: EngineArgs,
}

fn parse_symmetry(text: &str) -> Result<Symmetry, String> {
    Symmetry::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
        format!("expected one of {}", names.join(", "))
    })
}

/// Parses `--clues`: `MIN..MAX` or `N`, with 17 <= MIN <= MAX <= 81.
fn parse_clues(text: &str) -> Result<(u32, u32), String> {
    let bad = || "expected MIN..MAX or N, whole numbers from 17 to 81 (e.g. 22..30)".to_string();
    let num = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
    let (min, max) = match text.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => (num(text)?, num(text)?),
    };
    if min < 17 {
        return Err(format!(
            "{min} givens: no puzzle with fewer than 17 givens has exactly one solution"
        ));
    }
    if max > 81 || min > max {
        return Err(bad());
    }
    Ok((min, max))
}

impl GenerateArgs {
    /// Checks the flags together and builds the command.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_command(self) -> Result<Run, String> {
        if self.exclude_solutions && self.exclude.is_empty() {
            return Err("--exclude-solutions goes with --exclude FILE...".into());
        }
        if self.rating.is_none() && (self.samples.is_some() || self.rating_seed.is_some()) {
            return Err("--samples and --rating-seed go with --rating".into());
        }
        let bins = match &self.rating {
            Some(spec) => Some(Bins::parse(spec).map_err(|e| format!("--rating {e}"))?),
            None => None,
        };
        let inputs: Vec<String> = self
            .exclude
            .iter()
            .chain(&self.from_solutions)
            .cloned()
            .collect();
        let outputs = [
            ("-o", Some(&self.output.output)),
            ("--report", self.report.as_ref()),
        ];
        output_is_input(&inputs, &outputs[1..])?;
        same_file_outputs(&outputs)?;
        let output = self.output.into_output(&inputs)?;
        not_a_table("--report", self.report.as_ref(), "a JSON report", "json")?;
        if inputs.iter().any(|p| p == "-") {
            return Err("--exclude and --from-solutions read files: name them (not -)".into());
        }
        let shard = parse_shard(self.shard.as_deref(), self.shard_count)?;
        let input = InputArgs {
            inputs: inputs.clone(),
            layout: self.layout,
            engine: self.engine,
            shard: None,
            shard_count: None,
        };
        let read = input.read_config(inputs)?;
        let options = Options {
            symmetry: self.symmetry,
            minimal: self.minimal,
            clues: self.clues.unwrap_or((17, 81)),
            rating: bins
                .as_ref()
                .map(|_| (self.samples.unwrap_or(10), self.rating_seed.unwrap_or(0))),
            grids: None,
            exclude: None,
            cancel: read.cancel.clone(),
        };
        let cfg = GenerateConfig {
            count: self.count,
            seed: self.seed,
            options,
            bins,
            budget: self
                .budget
                .unwrap_or(self.count.saturating_mul(GenerateConfig::BUDGET_PER_ROW)),
            threads: read.threads,
            shard,
            output,
            report: self.report,
            exclude: self.exclude,
            exclude_solutions: self.exclude_solutions,
            from_solutions: self.from_solutions,
            quiet: read.quiet,
        };
        Ok(Run::Generate(Box::new(cfg), read))
    }
}
