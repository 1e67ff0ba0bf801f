//! Command-line flags (clap derive) and their validation into the library's configs: the
//! only module that knows clap, part of the binary, not of the library.

use std::num::NonZeroUsize;

use clap::{Args, Parser, Subcommand, ValueEnum};

use sudoku_batch::bench::{BenchConfig, Exports};
use sudoku_batch::cmd::merge::MergeConfig;
use sudoku_batch::cmd::solve::SolveConfig;
use sudoku_batch::cmd::verify::VerifyConfig;
use sudoku_batch::cmd::Command as Run;
use sudoku_batch::cmd::{canon::CanonConfig, dedup::DedupConfig, overlap::OverlapConfig};
use sudoku_batch::dataset::augment::{AugmentConfig, AugmentOptions};
use sudoku_batch::dataset::rate::RateConfig;
use sudoku_batch::dataset::TableOutput;
use sudoku_batch::engine::ReadConfig;
use sudoku_batch::input::{Format, LayoutOptions, Shard};
use sudoku_batch::output::table::TableFormat;

/// Solve, verify and benchmark Sudoku puzzle datasets, millions of puzzles at a time.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Checks the flags together and builds what the library runs.
    ///
    /// # Errors
    /// A message naming the flag when flags do not fit together.
    pub fn into_command(self) -> Result<Run, String> {
        Ok(match self.command {
            Command::Solve(args) => Run::Solve(args.into_config()?),
            Command::Verify(args) => Run::Verify(args.into_config()?),
            Command::Bench(args) => Run::Bench(args.into_config()?),
            Command::Augment(args) => Run::Augment(args.into_config()?),
            Command::Rate(args) => Run::Rate(args.into_config()?),
            Command::Canon(args) => Run::Canon(args.into_config()?),
            Command::Dedup(args) => Run::Dedup(args.into_config()?),
            Command::Overlap(args) => Run::Overlap(args.into_config()?),
            Command::Report(ReportCommand::Merge {
                output,
                inputs,
                partial,
            }) => {
                check_merge_paths(&output, &inputs)?;
                Run::MergeReports(MergeConfig {
                    output,
                    inputs,
                    partial,
                })
            }
        })
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of one or more files; write solutions in input order.
    Solve(SolveArgs),
    /// Time the solver: puzzles/s, µs/puzzle, latency percentiles, guesses, scaling over threads.
    Bench(BenchArgs),
    /// Work with JSON reports.
    #[command(subcommand)]
    Report(ReportCommand),
    /// Check every row of a dataset: puzzle shape, clue conflicts, uniqueness, and the stored
    /// solution when there is one; name each row that is wrong and why.
    Verify(VerifyArgs),
    /// Write each record's canonical form (minlex), in input order.
    Canon(CanonArgs),
    /// Keep the first occurrence of each puzzle, exactly or (--iso) up to symmetry.
    Dedup(DedupArgs),
    /// List the test rows that are the same puzzle as a train row, exactly or up to
    /// symmetry (exit 1 when any is found, 0 when the split is clean).
    Overlap(OverlapArgs),
    /// Write K random isomorphs of every puzzle with their solutions, reproducibly from a
    /// seed: source_record,puzzle,solution,transform.
    Augment(AugmentArgs),
    /// Rate every puzzle's difficulty the same for all its isomorphs, as
    /// record,input,line,clues,status,singles_only,rating,guesses_min,guesses_median,guesses_max.
    Rate(RateArgs),
}

/// Input layout for `--format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Sniff: a CSV header naming a puzzle column means CSV, else one puzzle per line.
    Auto,
    /// One 81-character puzzle per line.
    Lines,
    /// A CSV file with a puzzle column.
    Csv,
}

/// Table output format for `--output-format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TableFormatArg {
    /// Comma-separated values with a header row.
    Csv,
    /// One line per row, no header: the grid columns separated by a space.
    Txt,
    /// JSON Lines: one object per row.
    Jsonl,
    /// numpy .npz: one array per column, grids as N×81 uint8 (0 = blank).
    Npz,
    /// Apache Parquet (builds with the `parquet` feature).
    Parquet,
}

impl From<TableFormatArg> for TableFormat {
    fn from(f: TableFormatArg) -> TableFormat {
        match f {
            TableFormatArg::Csv => TableFormat::Csv,
            TableFormatArg::Txt => TableFormat::Txt,
            TableFormatArg::Jsonl => TableFormat::Jsonl,
            TableFormatArg::Npz => TableFormat::Npz,
            TableFormatArg::Parquet => TableFormat::Parquet,
        }
    }
}

/// Layout flags shared by every command that reads puzzles (`solve`, `verify`, `bench`).
#[derive(Debug, Args)]
pub struct LayoutArgs {
    /// Input layout.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    /// CSV puzzle column: header name (case-insensitive) or 1-based index.
    #[arg(long, value_name = "NAME")]
    pub puzzle_column: Option<String>,
    /// The CSV has no header row (pick the puzzle column by index, or it is found by content).
    /// Like --puzzle-column and --delimiter, it means the input is CSV.
    #[arg(long)]
    pub no_header: bool,
    /// CSV field delimiter: one character, or `tab` [default: sniffed among `,` tab `;`].
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,
}

/// Parses `--delimiter`: one ASCII character other than a quote or a line end, or `tab`.
fn parse_delimiter(text: &str) -> Result<u8, String> {
    match text {
        "tab" | "\\t" => Ok(b'\t'),
        _ => match text.as_bytes() {
            [b] if b.is_ascii() && !matches!(b, b'"' | b'\n' | b'\r') => Ok(*b),
            _ => Err(format!(
                "{text:?} is not one ASCII character (use `tab` for a tab)"
            )),
        },
    }
}

impl LayoutArgs {
    fn layout(&self) -> LayoutOptions {
        LayoutOptions {
            format: match self.format {
                FormatArg::Auto => Format::Auto,
                FormatArg::Lines => Format::Lines,
                FormatArg::Csv => Format::Csv,
            },
            puzzle_column: self.puzzle_column.clone(),
            solution_column: None,
            no_header: self.no_header,
            delimiter: self.delimiter,
        }
    }
}

/// The one line `main` prints for a command line clap refuses: clap's first line, the
/// arguments it lists as missing, and its suggestions ("a similar subcommand exists:
/// 'solve'"). A first argument that names a file (`sudoku-batch puzzles.txt`) gets the
/// command it was probably meant for.
pub fn error_line(e: &clap::Error, first_arg: Option<&std::ffi::OsStr>) -> String {
    if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
        if let Some(arg) = first_arg.filter(|a| std::path::Path::new(a).is_file()) {
            let arg = arg.to_string_lossy();
            return format!(
                "'{arg}' is not a command; to solve that file: sudoku-batch solve {arg}"
            );
        }
    }
    let text = e.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("bad arguments");
    let mut out = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // Missing arguments are listed on indented lines below the first: keep them.
    let listed: Vec<&str> = lines
        .take_while(|l| l.starts_with(' ') && !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if !listed.is_empty() {
        out = format!("{out} {}", listed.join(", "));
    }
    for tip in text.lines().filter_map(|l| l.trim().strip_prefix("tip: ")) {
        out = format!("{out}; {tip}");
    }
    format!("{out} (see --help)")
}

/// Most worker threads accepted by `-j`: far above any core count we target, and low
/// enough that a typo (`-j 99999`) cannot make the OS spawn thousands of threads.
pub const MAX_THREADS: usize = 1024;

/// Parses one `-j` value: a whole number from 1 to [`MAX_THREADS`].
fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => {
            Ok(NonZeroUsize::new(n).expect("n >= 1 was checked"))
        }
        _ => Err(format!(
            "expected a whole number of threads from 1 to {MAX_THREADS}"
        )),
    }
}

/// Parses `--shard K/N`, or `--shard auto` from the cluster scheduler's environment
/// ([`sudoku_batch::cluster`]), `count` being `--shard-count`.
fn parse_shard(shard: Option<&str>, count: Option<u32>) -> Result<Option<Shard>, String> {
    match shard {
        None if count.is_some() => Err("--shard-count goes with --shard auto".into()),
        None => Ok(None),
        Some("auto") => {
            sudoku_batch::cluster::shard_from_env(|name| std::env::var(name).ok(), count).map(Some)
        }
        Some(_) if count.is_some() => Err("--shard-count goes with --shard auto; \
             --shard K/N already says N"
            .into()),
        Some(s) => s.parse().map(Some).map_err(|e| format!("--shard {e}")),
    }
}

/// Flags shared by every command that reads puzzles.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files (`-` or none: standard input). Lines of 81 cells or a CSV dataset.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// How to read the inputs' layout.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = parse_threads)]
    pub threads: Option<NonZeroUsize>,
    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Read files into memory instead of memory-mapping them (safe if a file may change
    /// while it is read).
    #[arg(long)]
    pub no_mmap: bool,
    /// Read only shard K of N (1 <= K <= N) of each input: the K-th of N byte ranges cut at
    /// line starts, with the true record and line numbers of the whole file. `auto`: K/N
    /// of this task of a Slurm job array or a Kubernetes indexed Job.
    #[arg(long, value_name = "K/N|auto", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// With `--shard auto` in a Kubernetes indexed Job: the number of completions (N).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_count: Option<u32>,
}

/// Flags of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write solutions here (`-`: standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// The solutions' format: txt (one solution per line), csv (a CSV input's columns plus
    /// solution and status; for a lines input, record,line,puzzle,solution,status), jsonl or
    /// npz (record,line,puzzle,solution,status) [default: jsonl or npz by the extension of
    /// -o, else by the inputs' layout].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Write per-record stats CSV: record,input,line,status,solutions,clues,guesses,solve_ns,error.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,
    /// Write a JSON report (counts, throughput, latency percentiles, guesses).
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// Stop at the first solution (fastest; does not prove uniqueness).
    #[arg(long, conflicts_with = "limit")]
    pub first: bool,
    /// Count solutions up to N (2 tells unique from non-unique).
    #[arg(long, value_name = "N", default_value = "2", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub limit: u32,
}

/// Flags of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// CSV solution column: header name (case-insensitive) or 1-based index [default: a
    /// column named solutions, solution, answer or answers].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,
    /// Write every row whose verdict is not ok as CSV: record,input,line,verdict,detail,puzzle,solution.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<String>,
    /// Write a JSON report (rows per verdict, examples, clue and guess histograms).
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// Count solutions up to N (at least 2: unique or not; more to say how many).
    #[arg(long, value_name = "N", default_value = "2", value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub limit: u32,
}

impl InputArgs {
    fn layout(&self) -> LayoutOptions {
        self.layout.layout()
    }

    fn inputs(&self) -> Vec<String> {
        if self.inputs.is_empty() {
            vec!["-".to_string()]
        } else {
            self.inputs.clone()
        }
    }

    fn shard(&self) -> Result<Option<Shard>, String> {
        parse_shard(self.shard.as_deref(), self.shard_count)
    }

    /// The validated input settings for `inputs` (already defaulted to stdin).
    fn read_config(&self, inputs: Vec<String>) -> Result<ReadConfig, String> {
        Ok(ReadConfig {
            layout: self.layout(),
            threads: self.threads(),
            quiet: self.quiet,
            mmap: !self.no_mmap,
            shard: self.shard()?,
            inputs,
        })
    }

    fn threads(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            NonZeroUsize::get,
        )
    }
}

/// Refuses two outputs that name one file: each is renamed into place at the end, so the
/// last rename would silently replace the other (issue 5). Devices such as `/dev/null`
/// may be shared; `-` is checked by the caller.
fn same_file_outputs(outputs: &[(&str, Option<&String>)]) -> Result<(), String> {
    let key = resolved;
    let files: Vec<(&str, &String)> = outputs
        .iter()
        .filter_map(|&(flag, p)| p.map(|p| (flag, p)))
        .filter(|(_, p)| *p != "-" && !std::fs::metadata(p).is_ok_and(|m| !m.is_file()))
        .collect();
    for (i, (a, pa)) in files.iter().enumerate() {
        if let Some((b, _)) = files[i + 1..].iter().find(|(_, pb)| key(pa) == key(pb)) {
            return Err(format!(
                "{a} and {b} both write {pa}: one would replace the other; give each its own file"
            ));
        }
    }
    // `-` beside a path that is standard output itself (`/dev/stdout`, or the file stdout
    // is redirected to): both would write into it, mixed. A terminal may be shared.
    if let Some((dash, _)) = outputs.iter().find(|(_, p)| p.is_some_and(|p| p == "-")) {
        if let Some(stdout) = stdout_file() {
            for &(flag, p) in outputs {
                let Some(p) = p.filter(|p| *p != "-") else {
                    continue;
                };
                if std::fs::metadata(p).is_ok_and(|m| same_file(&m, &stdout)) {
                    return Err(format!(
                        "{dash} and {flag} {p} both write standard output; give {flag} a file"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What standard output is, when it is not a terminal or another character device.
fn stdout_file() -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let m = std::fs::File::from(fd).metadata().ok()?;
    (!m.file_type().is_char_device()).then_some(m)
}

fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

/// The file `p` names, as an absolute path with symlinks resolved: the file itself when it
/// exists, else its directory's resolved path joined with its name, so two spellings of a
/// file not yet created (`b.txt`, `./b.txt`, `/abs/dir/b.txt`, a dangling symlink to it)
/// compare equal.
fn resolved(p: &str) -> std::path::PathBuf {
    let mut path = std::path::PathBuf::from(p);
    // A dangling symlink names the file it would create: follow it (a bounded number of
    // links, as the kernel does).
    for _ in 0..40 {
        if let Ok(c) = std::fs::canonicalize(&path) {
            return c;
        }
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    let path = path.as_path();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// Refuses an output that is one of the inputs (the same file by device and inode, so
/// `./in.txt`, a symlink or a hard link count too): renaming the output into place would
/// replace the puzzles with the results.
fn output_is_input(inputs: &[String], outputs: &[(&str, Option<&String>)]) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let id = |p: &str| {
        std::fs::metadata(p)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| (m.dev(), m.ino()))
    };
    for &(flag, out) in outputs {
        let Some(out_id) = out.and_then(|p| id(p)) else {
            continue;
        };
        if let Some(input) = inputs.iter().find(|i| *i != "-" && id(i) == Some(out_id)) {
            return Err(format!(
                "{flag} {} is the input {input}: it would be overwritten; write the results elsewhere",
                out.map_or("", String::as_str)
            ));
        }
    }
    Ok(())
}

impl SolveArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<SolveConfig, String> {
        let inputs = self.input.inputs();
        if inputs.iter().filter(|p| *p == "-").count() > 1 {
            return Err("standard input (-) can be read only once".into());
        }
        for (flag, path) in [("--stats", &self.stats), ("--report", &self.report)] {
            if path.as_deref() == Some("-") && self.output == "-" {
                return Err(format!(
                    "{flag} -: standard output already carries the solutions; give {flag} a file or use -o FILE"
                ));
            }
        }
        let outputs = [
            ("-o", Some(&self.output)),
            ("--stats", self.stats.as_ref()),
            ("--report", self.report.as_ref()),
        ];
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        Ok(SolveConfig {
            read: self.input.read_config(inputs)?,
            limit: if self.first { 1 } else { self.limit },
            output: self.output,
            output_format: self.output_format.map(Into::into),
            stats: self.stats,
            report: self.report,
        })
    }
}

/// Flags of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Input files: lines of 81 cells or a CSV dataset (`-`: standard input).
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<String>,
    /// Thread counts to measure, comma-separated, each 1 to 1024 [default: 1 and all cores].
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
    #[arg(long, value_name = "SEED")]
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
    /// Read files into memory instead of memory-mapping them.
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
}

impl BenchArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<BenchConfig, String> {
        if !self.min_time.is_finite() || self.min_time < 0.0 {
            return Err(format!(
                "--min-time {}: expected seconds >= 0",
                self.min_time
            ));
        }
        if self.inputs.iter().filter(|p| *p == "-").count() > 1 {
            return Err("standard input (-) can be read only once".into());
        }
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
        output_is_input(&self.inputs, &outputs)?;
        let mut threads: Vec<usize> = self.threads.iter().map(|n| n.get()).collect();
        if threads.is_empty() {
            threads = sudoku_batch::bench::default_threads();
        }
        Ok(BenchConfig {
            inputs: self.inputs,
            layout: self.layout.layout(),
            threads,
            warmup: self.warmup,
            min_time: std::time::Duration::from_secs_f64(self.min_time),
            seed: self.seed,
            limit: if self.first { 1 } else { 2 },
            shard: parse_shard(self.shard.as_deref(), self.shard_count)?,
            mmap: !self.no_mmap,
            quiet: self.quiet,
            exports: Exports {
                json: self.export_json,
                csv: self.export_csv,
                markdown: self.export_markdown,
            },
        })
    }
}

/// Subcommands of `report`.
#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// Merge the JSON `--report`s of shards (or of any runs) into one report.
    Merge {
        /// The merged report to write (`-`: standard output).
        #[arg(value_name = "OUT.json")]
        output: String,
        /// The reports to merge: shards of one run (`--shard K/N`, all N of them) or whole
        /// runs of different inputs, all of `solve` or all of `verify`.
        #[arg(value_name = "IN.json", required = true)]
        inputs: Vec<String>,
        /// Merge a set of shards that lacks some; the merged report says `"partial": true`
        /// and lists `missing_shards`.
        #[arg(long)]
        partial: bool,
    },
}

/// Checks `report merge OUT IN...` before anything is read: `OUT` must not be one of the
/// reports it merges (it would replace a shard's report with the merged one).
///
/// # Errors
/// The clash, as one line.
pub fn check_merge_paths(output: &str, inputs: &[String]) -> Result<(), String> {
    output_is_input(inputs, &[("OUT.json", Some(&output.to_string()))])
}

impl VerifyArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<VerifyConfig, String> {
        let inputs = self.input.inputs();
        if inputs.iter().filter(|p| *p == "-").count() > 1 {
            return Err("standard input (-) can be read only once".into());
        }
        if self.rejects.as_deref() == Some("-") && self.report.as_deref() == Some("-") {
            return Err(
                "--rejects - and --report -: only one of them can go to standard output".into(),
            );
        }
        let outputs = [
            ("--rejects", self.rejects.as_ref()),
            ("--report", self.report.as_ref()),
        ];
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        let mut read = self.input.read_config(inputs)?;
        read.layout.solution_column = self.solution_column;
        Ok(VerifyConfig {
            read,
            limit: self.limit,
            rejects: self.rejects,
            report: self.report,
        })
    }
}

/// Flags of `canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the forms here (`-`: standard output): a line each, `invalid` for a record that
    /// is not a puzzle; a CSV input gives its columns plus `minlex`.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// Write per-record stats CSV: record,line,status,clues,automorphisms,error.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,
}

impl CanonArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<CanonConfig, String> {
        let inputs = one_stdin(self.input.inputs())?;
        if self.stats.as_deref() == Some("-") && self.output == "-" {
            return Err("--stats -: standard output already carries the forms; give --stats a file or use -o FILE".into());
        }
        let outputs = [("-o", Some(&self.output)), ("--stats", self.stats.as_ref())];
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        Ok(CanonConfig {
            read: self.input.read_config(inputs)?,
            output: self.output,
            stats: self.stats,
        })
    }
}

/// Flags of `dedup`.
#[derive(Debug, Args)]
pub struct DedupArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the kept records here, in the input's layout (`-`: standard output).
    #[arg(short, long, value_name = "FILE", required = true)]
    pub output: String,
    /// Count isomorphs (same minlex form) as copies, not only equal puzzles.
    #[arg(long)]
    pub iso: bool,
    /// Write every dropped record as CSV:
    /// record,input,line,first_record,first_input,first_line,relation (exact or isomorph).
    #[arg(long, value_name = "FILE")]
    pub groups: Option<String>,
}

impl DedupArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<DedupConfig, String> {
        let inputs = one_stdin(self.input.inputs())?;
        if self.input.shard.is_some() {
            return Err(
                "--shard does not apply to dedup: copies in other shards would be kept".into(),
            );
        }
        if self.groups.as_deref() == Some("-") && self.output == "-" {
            return Err("--groups -: standard output already carries the kept records; give --groups a file".into());
        }
        let outputs = [
            ("-o", Some(&self.output)),
            ("--groups", self.groups.as_ref()),
        ];
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        Ok(DedupConfig {
            read: self.input.read_config(inputs)?,
            output: self.output,
            iso: self.iso,
            groups: self.groups,
        })
    }
}

/// Flags of `overlap`.
#[derive(Debug, Args)]
pub struct OverlapArgs {
    /// Train inputs (lines or CSV).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub train: Vec<String>,
    /// Test inputs (lines or CSV).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub test: Vec<String>,
    /// Write the overlapping test rows as CSV here (`-`: standard output):
    /// test_input,test_line,train_input,train_line,relation.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// Also list test rows whose solution grid is an isomorph of a train row's (the stored
    /// solution, or the puzzle's only solution): relation same-solution-class.
    #[arg(long)]
    pub by_solution: bool,
    /// How to read the inputs' layout.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// CSV solution column for --by-solution: header name (case-insensitive) or 1-based
    /// index [default: a column named solutions, solution, answer or answers].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = parse_threads)]
    pub threads: Option<NonZeroUsize>,
    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Read files into memory instead of memory-mapping them.
    #[arg(long)]
    pub no_mmap: bool,
}

impl OverlapArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<OverlapConfig, String> {
        let all: Vec<String> = self.train.iter().chain(&self.test).cloned().collect();
        one_stdin(all.clone())?;
        let outputs = [("-o", Some(&self.output))];
        output_is_input(&all, &outputs)?;
        let input = InputArgs {
            inputs: self.train,
            layout: self.layout,
            threads: self.threads,
            quiet: self.quiet,
            no_mmap: self.no_mmap,
            shard: None,
            shard_count: None,
        };
        let mut train = input.read_config(input.inputs.clone())?;
        train.layout.solution_column = self.solution_column;
        Ok(OverlapConfig {
            train,
            test: self.test,
            output: self.output,
            by_solution: self.by_solution,
        })
    }
}

/// `inputs`, unless standard input (`-`) is named twice.
fn one_stdin(inputs: Vec<String>) -> Result<Vec<String>, String> {
    if inputs.iter().filter(|p| *p == "-").count() > 1 {
        return Err("standard input (-) can be read only once".into());
    }
    Ok(inputs)
}

/// Flags of `augment`.
#[derive(Debug, Args)]
pub struct AugmentArgs {
    /// Inputs and how to read them (a CSV solution column is used when present).
    #[command(flatten)]
    pub input: InputArgs,
    /// Isomorphs written per puzzle.
    #[arg(short = 'n', long = "copies", value_name = "K", default_value = "8", value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub copies: u32,
    /// Seed of the counter-based generator: the same seed gives the same bytes at any -j
    /// and across shards.
    #[arg(long, value_name = "S", default_value = "0")]
    pub seed: u64,
    /// Also write each puzzle as it is (transform 0-012345678-012345678-123456789) before
    /// its isomorphs.
    #[arg(long)]
    pub include_original: bool,
    /// Write the isomorphs of puzzles that are not uniquely solvable, with an empty
    /// solution, instead of skipping them.
    #[arg(long)]
    pub keep_unsolved: bool,
    /// CSV solution column: header name (case-insensitive) or 1-based index [default: a
    /// column named solutions, solution, answer or answers].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,
    /// Write the pairs here (`-`: standard output); the extension picks the format (.csv,
    /// .txt, .jsonl, .npz, .parquet; anything else: CSV).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// The output format, whatever the extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
}

impl AugmentArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<AugmentConfig, String> {
        let inputs = self.input.inputs();
        if inputs.iter().filter(|p| *p == "-").count() > 1 {
            return Err("standard input (-) can be read only once".into());
        }
        let outputs = [("-o", Some(&self.output))];
        output_is_input(&inputs, &outputs)?;
        let mut read = self.input.read_config(inputs)?;
        read.layout.solution_column = self.solution_column;
        Ok(AugmentConfig {
            read,
            options: AugmentOptions {
                copies: self.copies,
                seed: self.seed,
                include_original: self.include_original,
                keep_unsolved: self.keep_unsolved,
            },
            output: TableOutput::new(self.output, self.output_format.map(Into::into)),
        })
    }
}

/// Flags of `rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Isomorphs of the canonical form solved per puzzle; the rating is the mean of
    /// log2(1 + guesses) over them.
    #[arg(long, value_name = "K", default_value = "10", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub samples: u32,
    /// Seed of the isomorph draws (a rating is comparable only under one seed and K).
    #[arg(long, value_name = "S", default_value = "0")]
    pub seed: u64,
    /// Write the ratings here (`-`: standard output); the extension picks the format (.csv,
    /// .txt, .jsonl, .npz, .parquet; anything else: CSV).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// The output format, whatever the extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
}

impl RateArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<RateConfig, String> {
        let inputs = self.input.inputs();
        if inputs.iter().filter(|p| *p == "-").count() > 1 {
            return Err("standard input (-) can be read only once".into());
        }
        output_is_input(&inputs, &[("-o", Some(&self.output))])?;
        Ok(RateConfig {
            read: self.input.read_config(inputs)?,
            samples: self.samples,
            seed: self.seed,
            output: TableOutput::new(self.output, self.output_format.map(Into::into)),
        })
    }
}
