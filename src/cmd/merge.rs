//! `sudoku-batch report merge OUT.json IN.json... [--partial]`: read the `--report` files of
//! the shards of a run (`solve` or `verify` with `--shard K/N`), check that they fit
//! together and add them up ([`mod@crate::report::merge`] holds the rules), and write one
//! report of the same [`Report`] type.

use anyhow::{bail, Context, Result};
use serde::Serialize;

use crate::report::{self, Counts, MergeError, Report, SolveReport, SCHEMA_VERSION, TOOL};
use crate::summary::count;
use crate::verify::report::VerifyReport;

/// What `report merge` needs, validated.
#[derive(Clone, Debug)]
pub struct MergeConfig {
    /// The merged report's path (`-`: standard output); never one of `inputs`.
    pub output: String,
    /// The reports to merge.
    pub inputs: Vec<String>,
    /// Merge a set of shards that lacks some, and say so in the report.
    pub partial: bool,
}

/// A merged report, of the command of the reports merged.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Merged {
    /// Of `solve` reports.
    Solve(Box<SolveReport>),
    /// Of `verify` reports.
    Verify(Box<VerifyReport>),
}

impl Merged {
    /// One line for standard error: how many reports of which command were merged, the
    /// records they hold (in the command's word, [`Counts::NOUN`]: `rows` for `verify`), a partial set's missing and interrupted shards, and where the report went, e.g.
    /// `merged 4 solve reports (shards 1/4 to 4/4): 1000000 records -> report.json`; for
    /// verify, `... 400 rows (repeats searched within each shard only) -> ...`.
    pub fn summary(&self, output: &str) -> String {
        let (header, records) = match self {
            Merged::Solve(r) => (&r.header, r.counts.records_counted()),
            // Repeats across the merged runs were never looked for.
            Merged::Verify(r) => (
                &r.header,
                format!(
                    "{} (repeats searched within {} only)",
                    r.counts.records_counted(),
                    r.counts.duplicates_within
                ),
            ),
        };
        let shards: Vec<&str> = header.shards.iter().flatten().map(String::as_str).collect();
        let span = match (shards.first(), shards.last()) {
            (Some(a), Some(b)) if a != b => format!(" (shards {a} to {b})"),
            (Some(a), _) => format!(" (shard {a})"),
            _ => String::new(),
        };
        let missing = match header.partial {
            true => format!(", partial: {}", partial_why(header)),
            false => String::new(),
        };
        let cmd = &header.command;
        let n = header.merged_from.len() as u64;
        let reports = count(n, &format!("{cmd} report"), &format!("{cmd} reports"));
        let to = if output == "-" {
            "standard output"
        } else {
            output
        };
        format!("merged {reports}{span}: {records}{missing} -> {to}")
    }

    /// One line for standard error: what the merged report's headline rate is per second
    /// of ([`crate::report::Header::rate_basis`]: the slowest run's wall time, right when
    /// the runs went side by side) and the rate had they gone one after another
    /// (`records_per_s_wall_sum`), e.g. `5000 puzzles/s over the slowest run's wall time,
    /// as if side by side; 1250/s if one after another`.
    pub fn rate_line(&self) -> String {
        let (header, rate, unit) = match self {
            Merged::Solve(r) => (&r.header, r.counts.rates.puzzles_per_s, "puzzles"),
            Merged::Verify(r) => (&r.header, r.counts.rows_per_s, "rows"),
        };
        format!(
            "{rate:.0} {unit}/s over the slowest run's wall time, as if side by side; \
             {:.0}/s if one after another",
            header.records_per_s_wall_sum
        )
    }
}

/// Why a merge is partial, in words: `missing 3/4`, `shard 2/4 interrupted (counts cover
/// only its finished prefix)`, or both joined by `; `.
fn partial_why(header: &report::Header) -> String {
    let mut why = Vec::new();
    if !header.missing_shards.is_empty() {
        why.push(format!("missing {}", header.missing_shards.join(", ")));
    }
    let cut = &header.interrupted_shards;
    if !cut.is_empty() {
        let s = if cut.len() == 1 { "" } else { "s" };
        why.push(format!(
            "shard{s} {} interrupted (counts cover only the finished prefix)",
            cut.join(", ")
        ));
    }
    why.join("; ")
}

/// One report file, parsed as far as its header says what it is.
struct Read {
    path: String,
    command: String,
    json: serde_json::Value,
}

/// Reads a report file and checks that it is a report of this schema.
fn read(path: &str) -> Result<Read> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{path}: cannot read"))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{path}: not JSON"))?;
    let field = |k: &str| json.get(k).and_then(serde_json::Value::as_str);
    let bench_tool = json
        .pointer("/provenance/tool")
        .and_then(serde_json::Value::as_str);
    if field("tool").is_none() && bench_tool == Some(TOOL) {
        // A bench export was called "not a sudoku-batch --report".
        bail!(
            "{path}: a bench export (--export-json), which report merge does not merge: \
             bench rows are timings, not counts; put the rows of the shards side by side \
             (README, bench --shard)"
        );
    }
    if field("tool") != Some(TOOL) {
        bail!("{path}: not a sudoku-batch --report (no \"tool\": \"{TOOL}\")");
    }
    let schema = json
        .get("schema_version")
        .and_then(serde_json::Value::as_u64);
    if schema != Some(u64::from(SCHEMA_VERSION)) {
        bail!(
            "{path}: report schema {} (sudoku-batch {}), but this version reads schema \
             {SCHEMA_VERSION}: run that shard again with this version",
            schema.map_or_else(|| "1".to_string(), |s| s.to_string()),
            field("version").unwrap_or("unknown")
        );
    }
    let command = field("command").unwrap_or_default().to_string();
    Ok(Read {
        path: path.to_string(),
        command,
        json,
    })
}

/// Parses every report as `Report<C>` and merges them.
fn merge_as<C: Counts>(reads: Vec<Read>, partial: bool) -> Result<Report<C>> {
    let mut reports = Vec::with_capacity(reads.len());
    for r in reads {
        let report: Report<C> = serde_json::from_value(r.json)
            .with_context(|| format!("{}: not a sudoku-batch {} --report", r.path, C::COMMAND))?;
        reports.push((r.path, report));
    }
    Ok(report::merge(reports, partial)?)
}

/// Reads the reports at `paths` and merges them; with `partial`, shards may be missing
/// (the merged report says so).
///
/// # Errors
/// A report that cannot be read or is not a report of this tool and schema (naming its
/// path), reports of different commands, and every [`MergeError`].
pub fn merge_files(paths: &[String], partial: bool) -> Result<Merged> {
    let reads = paths.iter().map(|p| read(p)).collect::<Result<Vec<_>>>()?;
    let Some(first) = reads.first() else {
        return Err(MergeError::Empty.into());
    };
    if let Some(other) = reads.iter().find(|r| r.command != first.command) {
        return Err(MergeError::MixedCommands {
            a: first.path.clone(),
            ca: first.command.clone(),
            b: other.path.clone(),
            cb: other.command.clone(),
        }
        .into());
    }
    match first.command.as_str() {
        "solve" => {
            let mut r: SolveReport = merge_as(reads, partial)?;
            // A report written before `multiple` was `null` in first-solution mode says 0
            // there; its limit of 1 tells the mode, and no second solution was looked for.
            if r.header.solution_limit == 1 {
                r.counts.status.first_solution_only = true;
            }
            Ok(Merged::Solve(Box::new(r)))
        }
        "verify" => {
            let mut r: VerifyReport = merge_as(reads, partial)?;
            // Repeats across the merged runs were never looked for.
            let shards = r.header.shards.iter().all(Option::is_some);
            r.counts.duplicates_within = match shards {
                true => "each shard",
                false => "each merged run",
            }
            .to_string();
            Ok(Merged::Verify(Box::new(r)))
        }
        other => bail!(
            "{}: a report of command {other:?}: only solve and verify reports merge",
            first.path
        ),
    }
}
