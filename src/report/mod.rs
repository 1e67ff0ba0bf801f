//! The JSON report of a run (`solve --report`, `verify --report`) and of a merge (`report
//! merge`): one serde type, [`Report`], written by the commands and read back by the merge,
//! so a renamed field cannot compile on one side and break the other (issue 11).
//!
//! A report is a [`Header`] (tool, version, schema version, command, inputs with their size
//! and content fingerprint, shard, threads, wall time) followed by the command's counts
//! ([`Counts`]: [`SolveCounts`] or `VerifyCounts` (of `verify`)), flattened into
//! one JSON object. Counts add (`AddAssign`), so merging the reports of the shards of a run
//! is a fold ([`mod@merge`]); the figures derived from them (rates, percentiles) are computed
//! again from the sums ([`Counts::finish`]).

pub mod merge;
pub mod plot;
mod solve;

use std::ops::AddAssign;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::input::{Finished, Layout};

pub use merge::{merge, MergeError};
pub use solve::{
    ratio, InvalidKinds, Latency, RunRates, SolveCounts, SolveReport, Status, StatusCounts, Tally,
    TallySummary,
};

/// The version of the report's JSON layout. 5: each input's `file_bytes` (`null` for standard
/// input, which said 0) and `content_sha256`, which were `bytes` and `sha256` (the name hid that it
/// is the decompressed content's); 4: the build's `commit` in the header, and each input's
/// `puzzle_source` and `solution_source`, which `report merge` compares (a schema-3 report lacks
/// them, so what its run read could not be checked); 3: solve's `invalid_kinds` and
/// `solutions_capped` (a schema-2 report lacks them, so merging it with a schema-3 one would give
/// kinds that do not add up to `invalid`); 2: the shared [`Header`] (`schema_version`, `sha256` per
/// input, `merged_from`, `shards`, `partial`, `missing_shards`, `interrupted_shards`,
/// `wall_ms_sum`); 1 (no `schema_version` field) is the layout of sudoku-batch 0.1 before it.
pub const SCHEMA_VERSION: u32 = 5;

/// The `tool` field of every report.
pub const TOOL: &str = "sudoku-batch";

/// The git commit of this build (`build.rs`): short hash, `-dirty` when tracked files
/// differed from it, or `unknown` when git could not say.
pub const BUILD_COMMIT: &str = env!("SUDOKU_BATCH_GIT_COMMIT");

/// One input of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputInfo {
    /// Path as given (`-` for standard input).
    pub path: String,
    /// Size of the file as stored (a compressed file's compressed size), bytes, also with
    /// `--shard`; `null` when the input is no file (standard input, a pipe).
    pub file_bytes: Option<u64>,
    /// Content fingerprint: SHA-256 of the whole content read (also with `--shard`), 64
    /// lower-case hex digits: the file's bytes, or for a compressed file the decompressed
    /// bytes, for a UTF-16 file the UTF-8 text, for standard input the bytes read; so a
    /// `.gz` and its plain copy have one fingerprint, which `sha256sum` gives for the plain
    /// copy. Two reports cover one input when their fingerprints agree, whatever the path
    /// was on each host (this was `sha256`, beside the compressed size, and read as
    /// the file's). Computed only when a report is written
    /// ([`crate::input::ReadOptions::hash`]); empty otherwise.
    pub content_sha256: String,
    /// Layout read: `lines`, `csv`, `jsonl` or `parquet`.
    pub layout: String,
    /// Where the puzzles were read: the puzzle column's header name or key (`column N`,
    /// 1-based, for a CSV without a header), or `field N` (1-based) of a line.
    pub puzzle_source: String,
    /// Where stored solutions were looked for: the solution column's name (`column N`
    /// without a header), what the layout says whether or not a row held one; for lines,
    /// `81-cell field after the puzzle` when solutions were read from the lines (`verify`
    /// on lines that carry one); or `null`: none (`solve`, which reads no solutions, a
    /// table without a solution column, lines without solutions). `verify`'s
    /// `solution_source` says where solutions were found.
    pub solution_source: Option<String>,
    /// How the input was compressed: `none`, `gzip`, `zstd`, `xz`, `bzip2` or `zip` (empty
    /// in a report written before codecs were named).
    #[serde(default)]
    pub codec: String,
    /// Data records read (of the shard, with `--shard`; summed in a merged report).
    pub records: u64,
}

impl InputInfo {
    /// The entry for input `path`, read in `layout`, as its reader `done` describes it, of
    /// which `records` records were read; `solutions_read`: some of its records carried a
    /// stored solution that was read ([`Layout::solution_source`]).
    pub fn new(
        path: &str,
        layout: &Layout,
        done: &Finished,
        records: u64,
        solutions_read: bool,
    ) -> InputInfo {
        InputInfo {
            path: path.to_string(),
            file_bytes: file_bytes(path, done),
            content_sha256: done.sha256.clone().unwrap_or_default(),
            layout: done.layout.to_string(),
            puzzle_source: layout.puzzle_source(),
            solution_source: layout.solution_source(solutions_read),
            codec: done.codec.to_string(),
            records,
        }
    }
}

/// The size of input `path` as stored, bytes, as its reader `done` measured it; `None`
/// when the input is no regular file (standard input `-`, a pipe), whose reader says 0.
pub fn file_bytes(path: &str, done: &Finished) -> Option<u64> {
    let is_file = path != "-" && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    is_file.then_some(done.bytes)
}

/// The fields every report starts with, whatever the command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// `sudoku-batch`.
    pub tool: String,
    /// Version of the tool that wrote the report (Cargo package version).
    pub version: String,
    /// Git commit of the build that wrote the report, as `build.rs` found it: short hash,
    /// `-dirty` when tracked files differed from it, or `unknown`. A merged report keeps
    /// its reports' commit (`unknown` when one of them had none).
    pub commit: String,
    /// The solver kernel the run's searches used ([`crate::solver::kernel`]: `portable`,
    /// `avx2` or `avx512`; all find the same solutions and make the same guesses, only the
    /// speed differs). A merged report names its reports' kernels, each once, in the order
    /// of the reports, joined by `,` (shards on different machines may differ). Empty in a
    /// report written before it was named.
    #[serde(default)]
    pub solver_kernel: String,
    /// Layout of this JSON ([`SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// The command whose counts follow: `solve` or `verify`.
    pub command: String,
    /// The inputs, in order.
    pub inputs: Vec<InputInfo>,
    /// Total size of the inputs as stored ([`InputInfo::file_bytes`], none counted for an
    /// input that is no file), bytes.
    pub input_bytes: u64,
    /// The shard read (`K/N`), or `null` for whole inputs (and for a merged report).
    pub shard: Option<String>,
    /// Worker threads (summed over the merged reports).
    pub threads: usize,
    /// Solutions are counted up to this many (1 with `solve --first`).
    pub solution_limit: u32,
    /// Wall time of the run, milliseconds, monotonic clock. Merged: the largest of the merged
    /// reports', the makespan when shards ran side by side.
    pub wall_ms: f64,
    /// Sum of the wall times of the runs behind the report, milliseconds (machine time);
    /// equal to `wall_ms` for one run.
    pub wall_ms_sum: f64,
    /// What the command's rates (`puzzles_per_s`, `us_per_puzzle`, `rows_per_s`) are
    /// computed from: `wall_ms of the run`, or for a merge `wall_ms of the slowest merged
    /// run` (right when the runs went side by side, too high when they went one after
    /// another: then `records_per_s_wall_sum` is the rate). Empty in a report written
    /// before it was named.
    #[serde(default)]
    pub rate_basis: String,
    /// Records (`verify`: rows) per second of `wall_ms_sum`: the rate had the runs behind
    /// the report gone one after another; for one run, the command's own rate.
    #[serde(default)]
    pub records_per_s_wall_sum: f64,
    /// Whether the run (any merged run) was interrupted (Ctrl-C, SIGTERM) before the end.
    pub interrupted: bool,
    /// The report files merged, in order (shards by `K`); empty for one run.
    #[serde(default)]
    pub merged_from: Vec<String>,
    /// The shard of each merged report, beside `merged_from` (`K/N`, or `null` for a whole run).
    #[serde(default)]
    pub shards: Vec<Option<String>>,
    /// `true` when shards are missing (`report merge --partial`): the counts are not those
    /// of the whole input.
    #[serde(default)]
    pub partial: bool,
    /// The shards a partial merge lacks (`K/N`).
    #[serde(default)]
    pub missing_shards: Vec<String>,
    /// The shards (`K/N`) of a `--partial` merge whose run was interrupted: their counts
    /// cover only the prefix of the shard that was finished. Empty in a report written
    /// before it was named.
    #[serde(default)]
    pub interrupted_shards: Vec<String>,
}

impl Header {
    /// The header of one run of `command` over `inputs`; the caller sets the run's figures.
    pub fn new(command: &str, inputs: Vec<InputInfo>, shard: Option<String>) -> Header {
        Header {
            tool: TOOL.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: BUILD_COMMIT.to_string(),
            solver_kernel: crate::solver::kernel().to_string(),
            schema_version: SCHEMA_VERSION,
            command: command.to_string(),
            input_bytes: inputs.iter().filter_map(|i| i.file_bytes).sum(),
            inputs,
            shard,
            threads: 0,
            solution_limit: 0,
            wall_ms: 0.0,
            wall_ms_sum: 0.0,
            rate_basis: RATE_OF_RUN.to_string(),
            records_per_s_wall_sum: 0.0,
            interrupted: false,
            merged_from: Vec::new(),
            shards: Vec::new(),
            partial: false,
            missing_shards: Vec::new(),
            interrupted_shards: Vec::new(),
        }
    }
}

impl Header {
    /// Derives `records_per_s_wall_sum` from the `records` counted and `wall_ms_sum`.
    pub fn finish(&mut self, records: u64) {
        self.records_per_s_wall_sum = ratio(records as f64, self.wall_ms_sum / 1000.0);
    }
}

/// [`Header::rate_basis`] of one run.
pub const RATE_OF_RUN: &str = "wall_ms of the run";

/// [`Header::rate_basis`] of a merged report.
pub const RATE_OF_MERGE: &str = "wall_ms of the slowest merged run";

/// The counts a command adds to its report: sums over records that add up across shards,
/// and figures derived from them.
pub trait Counts:
    Serialize + DeserializeOwned + Default + Clone + for<'a> AddAssign<&'a Self>
{
    /// The `command` of the reports that carry these counts.
    const COMMAND: &'static str;

    /// What [`Counts::records`] counts, singular and plural, in the command's own word:
    /// `record`/`records` for `solve`, `row`/`rows` for `verify`. Summaries of these counts
    /// (the command's own, `report merge`'s) use it.
    const NOUN: (&'static str, &'static str);

    /// Records (rows) counted.
    fn records(&self) -> u64;

    /// [`Counts::records`] with its [`Counts::NOUN`], e.g. `40 rows`, `1 record`.
    fn records_counted(&self) -> String {
        crate::summary::count(self.records(), Self::NOUN.0, Self::NOUN.1)
    }

    /// Recomputes the derived figures (rates, percentiles) from the sums and the wall time
    /// (milliseconds): after a merge, and when a run ends.
    fn finish(&mut self, wall_ms: f64);

    /// The first way these counts contradict one another, in words (e.g. `records is 45
    /// but the status counts add up to 40 (...)`); `None` when they add up, as in every
    /// report a run writes. `report merge` refuses a report whose counts do not (a
    /// hand-edited shard would otherwise merge into totals its statuses contradict).
    fn inconsistency(&self) -> Option<String>;
}

/// `None` when `got` equals `want`, else `{what} is {got} but {whose} add up to {want}
/// ({terms})`: the wording of a [`Counts::inconsistency`] between a total and its parts.
pub(crate) fn sum_mismatch(
    what: &str,
    got: u64,
    whose: &str,
    terms: &[(&str, u64)],
) -> Option<String> {
    let want: u64 = terms.iter().map(|(_, n)| n).sum();
    (got != want).then(|| {
        let parts: Vec<String> = terms.iter().map(|(k, n)| format!("{k} {n}")).collect();
        format!(
            "{what} is {got} but {whose} add up to {want} ({})",
            parts.join(" + ")
        )
    })
}

/// `None` when `part` is at most `whole`, else `{part_name} is {part} but {whole_name} is
/// only {whole}`: the wording of a [`Counts::inconsistency`] between a subset and its set.
pub(crate) fn over(part_name: &str, part: u64, whole_name: &str, whole: u64) -> Option<String> {
    (part > whole).then(|| format!("{part_name} is {part}, more than {whole_name} ({whole})"))
}

/// A report: the [`Header`] and the command's [`Counts`], flattened into one JSON object.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "C: Counts")]
pub struct Report<C> {
    /// What ran, on what, how long.
    #[serde(flatten)]
    pub header: Header,
    /// What it counted.
    #[serde(flatten)]
    pub counts: C,
}

impl<C: Counts> Report<C> {
    /// The report of one finished run: derives the rates from `counts` and the header's
    /// wall time, and sets `wall_ms_sum` to it.
    pub fn new(mut header: Header, mut counts: C) -> Report<C> {
        header.wall_ms_sum = header.wall_ms;
        counts.finish(header.wall_ms);
        header.finish(counts.records());
        Report { header, counts }
    }
}
