//! `verify` (issue 3): prove every row of a dataset right, or say exactly which is wrong.
//!
//! Each input is read as for `solve` ([`crate::input`]) and run through the same batched,
//! ordered, parallel engine ([`crate::batch::pipeline`]): the workers run the checks of
//! [`check`] on each record (the uniqueness search is the cost floor); one thread then
//! consumes the results in input order, looks puzzles up in the duplicate set of [`dedup`],
//! counts verdicts and histograms, writes `--rejects`, and at the end prints the summary and
//! writes the `--report` JSON of [`report`].
//!
//! Duplicates: a row whose puzzle (blanks normalised) already stood on an earlier row is
//! still checked in full. Its verdict is its check verdict when that is not `ok`, else
//! `duplicate`; `duplicate` is informational and does not fail the run. The summary and the
//! report also count duplicate rows separately, whatever their verdict.

pub mod check;
pub mod dedup;
pub mod report;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Instant;

use anyhow::{Context, Result};

use crate::batch::{commit_outputs, pipeline, print_notes, progress_bar, worker_pool, ReadConfig};
use crate::input::{Dataset, Layout, RawRecord, ReadOptions};
use crate::output::rejects::{RejectRow, RejectsWriter};
use crate::output::Target;
use crate::report::{ratio, InputInfo};
use check::{check_record, Checked, FieldNames, Verdict};
use dedup::{Fingerprints, FirstSeen};
use report::{Example, GuessHistogram, VerdictCounts, VerifyReport};

/// Everything `verify` needs, validated.
#[derive(Clone, Debug)]
pub struct VerifyConfig {
    /// Inputs and how to read them; with a shard, duplicates are found within the shard only.
    pub read: ReadConfig,
    /// Count solutions up to this many (at least 2, to prove uniqueness).
    pub limit: u32,
    /// Rejects CSV path (`-`: standard output), if wanted.
    pub rejects: Option<String>,
    /// JSON report path (`-`: standard output), if wanted.
    pub report: Option<String>,
}

impl VerifyReport {
    /// The process exit code for this run: 0 when every row is `ok` or `duplicate`, 1 when
    /// some row has another verdict, 130 when the run was interrupted.
    pub fn exit_code(&self) -> u8 {
        if self.interrupted {
            130
        } else if self.rejected > 0 {
            1
        } else {
            0
        }
    }
}

/// Examples kept per verdict, and rejected rows named one by one on stderr.
const MAX_EXAMPLES: usize = 10;

/// Runs `verify` as configured: checks every row of every input, writes the rejects and the
/// report, prints the summary to stderr, and returns the report.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened, a layout that cannot be
/// worked out (e.g. `--solution-column` names no column), an output that cannot be written.
/// Bad rows are never errors: they are verdicts.
pub fn run_verify(cfg: &VerifyConfig) -> Result<VerifyReport> {
    let start = Instant::now();
    let pool = worker_pool(cfg.read.threads)?;
    let rejects = match &cfg.rejects {
        Some(p) => Some(RejectsWriter::new(Target::create(p)?).with_context(|| p.clone())?),
        None => None,
    };
    // Opened now, so an unwritable --report path fails before the work, not after it.
    let report_out = cfg.report.as_deref().map(Target::create).transpose()?;
    let mut audit = Auditor::new(rejects, cfg.rejects.clone().unwrap_or_default());
    let mut inputs = Vec::new();
    let mut interrupted = false;
    let mut next_record = 0;
    for (index, path) in cfg.read.inputs.iter().enumerate() {
        let index = u32::try_from(index).context("too many inputs")?;
        let (info, next, stopped) = pool.install(|| audit.input(cfg, index, path, next_record))?;
        inputs.push(info);
        next_record = next;
        interrupted = stopped;
        if interrupted {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let report = audit.report(cfg, inputs, secs, interrupted);
    let mut targets = Vec::new();
    if let Some(w) = audit.rejects.take() {
        let what = format!("--rejects {}: cannot write", audit.rejects_path);
        targets.push((w.into_target().context(what.clone())?, what));
    }
    if let (Some(mut t), Some(p)) = (report_out, cfg.report.as_deref()) {
        let what = format!("--report {p}: cannot write");
        t.write_json(&report).context(what.clone())?;
        targets.push((t, what));
    }
    commit_outputs(targets, ())?;
    audit.print_summary(cfg, &report);
    Ok(report)
}

/// The names used in details: the CSV header's names of the puzzle and solution columns.
fn field_names(layout: &Layout) -> FieldNames {
    let mut names = FieldNames::default();
    if let Layout::Csv {
        header: Some(h),
        puzzle,
        solution,
        ..
    } = layout
    {
        if let Some(n) = h.get(*puzzle) {
            names.puzzle.clone_from(n);
        }
        if let Some(n) = solution.and_then(|s| h.get(s)) {
            names.solution.clone_from(n);
        }
    }
    names
}

/// The sequential consumer: counts, duplicates, rejects, examples.
struct Auditor {
    rejects: Option<RejectsWriter>,
    /// Where the rejects go, for error messages.
    rejects_path: String,
    counts: VerdictCounts,
    seen: Fingerprints,
    duplicates: u64,
    /// Rows whose stored solution is wrong ([`Checked::stored_wrong`]).
    stored_wrong: u64,
    examples: BTreeMap<&'static str, Vec<Example>>,
    duplicate_examples: Vec<Example>,
    /// `path:line: verdict: detail` of the first rejected rows.
    notes: Vec<String>,
    clues: [u64; 82],
    guesses: GuessHistogram,
    /// The run's input paths so far, by index.
    paths: Vec<String>,
    /// Rows that carried a stored solution.
    stored_rows: u64,
    /// Where stored solutions were read, each source once ([`Layout::solution_source`]).
    solution_sources: Vec<String>,
}

impl Auditor {
    fn new(rejects: Option<RejectsWriter>, rejects_path: String) -> Auditor {
        Auditor {
            rejects,
            rejects_path,
            counts: VerdictCounts::default(),
            seen: Fingerprints::default(),
            duplicates: 0,
            stored_wrong: 0,
            examples: BTreeMap::new(),
            duplicate_examples: Vec::new(),
            notes: Vec::new(),
            clues: [0; 82],
            guesses: GuessHistogram::default(),
            paths: Vec::new(),
            stored_rows: 0,
            solution_sources: Vec::new(),
        }
    }

    /// Verifies one input (inside the pool): opens it, works out its layout, runs the
    /// checks through the pipeline. The input's records are numbered from `next_record`, as
    /// in the whole run even for a shard. Returns what the report says about the input, the
    /// number of the next input's first record, and whether the run was interrupted.
    fn input(
        &mut self,
        cfg: &VerifyConfig,
        index: u32,
        path: &str,
        next_record: u64,
    ) -> Result<(InputInfo, u64, bool)> {
        let options = ReadOptions {
            keep_text: true,
            ..cfg.read.options()
        };
        let mut data = Dataset::open(path, &options)?;
        let layout = data.layout().clone();
        let names = field_names(&layout);
        self.paths.push(path.to_string());
        data.number_from(next_record);
        let consumed_before = self.counts.total();
        let stored_before = self.stored_rows;
        let pb = progress_bar(data.len(), cfg.read.quiet);
        let interrupted = pipeline(
            &mut data,
            |r| check_record(r, cfg.limit, &names),
            |raws, checks| self.consume(index, &layout, raws, checks),
            &pb,
        )?;
        pb.finish_and_clear();
        let done = data.finish()?;
        if self.stored_rows > stored_before {
            let source = layout.solution_source().unwrap_or_default();
            if !self.solution_sources.contains(&source) {
                self.solution_sources.push(source);
            }
        }
        // Records checked and counted: fewer than records read when interrupted.
        let records = self.counts.total() - consumed_before;
        let next = done.next_record;
        if records == 0 && !cfg.read.quiet {
            eprintln!("sudoku-batch: note: {path}: no puzzles found (0 records)");
        }
        let info = InputInfo {
            path: path.to_string(),
            bytes: done.bytes,
            layout: done.layout,
            records,
        };
        Ok((info, next, interrupted))
    }

    fn example(&self, input: u32, line: u64) -> Example {
        Example {
            path: self.paths[input as usize].clone(),
            line,
        }
    }

    fn consume(
        &mut self,
        input: u32,
        layout: &Layout,
        raws: &[RawRecord],
        checks: &[Checked],
    ) -> Result<()> {
        for (raw, c) in raws.iter().zip(checks) {
            let mut verdict = c.verdict;
            let mut repeat = None;
            if let Some(fp) = c.fingerprint {
                let here = FirstSeen {
                    input,
                    line: raw.line,
                };
                if let Some(first) = self.seen.first_or_insert(fp, here) {
                    repeat = Some(self.repeat_detail(input, first));
                    self.duplicates += 1;
                    if self.duplicate_examples.len() < MAX_EXAMPLES {
                        self.duplicate_examples.push(self.example(input, raw.line));
                    }
                    if verdict == Verdict::Ok {
                        verdict = Verdict::Duplicate;
                    }
                }
            }
            self.counts.add(verdict);
            self.stored_wrong += u64::from(c.stored_wrong);
            self.stored_rows += u64::from(raw.solution.is_some());
            if let Some(n) = c.clues {
                self.clues[usize::from(n)] += 1;
            }
            if !matches!(c.verdict, Verdict::PuzzleMalformed | Verdict::ClueConflict) {
                self.guesses.add(c.guesses);
            }
            if verdict != Verdict::Ok {
                let detail = match (&c.detail, repeat) {
                    (Some(d), Some(r)) => format!("{d}; {r}"),
                    (Some(d), None) => d.clone(),
                    (None, Some(r)) => r,
                    (None, None) => String::new(),
                };
                self.reject(input, layout, raw, verdict, &detail)?;
            }
        }
        Ok(())
    }

    /// `same puzzle as line 2` (or `... as other.csv:2` when first seen in another input).
    fn repeat_detail(&self, input: u32, first: FirstSeen) -> String {
        if first.input == input {
            format!("same puzzle as line {}", first.line)
        } else {
            let path = &self.paths[first.input as usize];
            format!("same puzzle as {path}:{}", first.line)
        }
    }

    fn reject(
        &mut self,
        input: u32,
        layout: &Layout,
        raw: &RawRecord,
        verdict: Verdict,
        detail: &str,
    ) -> Result<()> {
        let ex = self.examples.entry(verdict.as_str()).or_default();
        if ex.len() < MAX_EXAMPLES {
            let path = self.paths[input as usize].clone();
            ex.push(Example {
                path,
                line: raw.line,
            });
        }
        if verdict.is_rejection() && self.notes.len() < MAX_EXAMPLES {
            let path = &self.paths[input as usize];
            let note = format!("{path}:{}: {}: {detail}", raw.line, verdict.as_str());
            self.notes.push(note);
        }
        if let Some(w) = &mut self.rejects {
            let (puzzle, solution) = layout.record_text(raw);
            let row = RejectRow {
                record: raw.record,
                line: raw.line,
                verdict: verdict.as_str(),
                detail,
                puzzle,
                solution,
            };
            w.write(&row)
                .with_context(|| format!("--rejects {}: cannot write", self.rejects_path))?;
        }
        Ok(())
    }

    fn report(
        &self,
        cfg: &VerifyConfig,
        inputs: Vec<InputInfo>,
        secs: f64,
        interrupted: bool,
    ) -> VerifyReport {
        let rows = self.counts.total();
        VerifyReport {
            tool: "sudoku-batch",
            version: env!("CARGO_PKG_VERSION"),
            command: "verify",
            input_bytes: inputs.iter().map(|i| i.bytes).sum(),
            inputs,
            rows,
            verdicts: self.counts,
            rejected: self.counts.rejected(),
            duplicates: self.duplicates,
            stored_solutions_wrong: self.stored_wrong,
            solution_source: (!self.solution_sources.is_empty())
                .then(|| self.solution_sources.join(", ")),
            examples: self.examples.clone(),
            duplicate_examples: self.duplicate_examples.clone(),
            clues_histogram: (0u32..).zip(self.clues).filter(|&(_, n)| n > 0).collect(),
            guesses_histogram: self.guesses.buckets(),
            solution_limit: cfg.limit,
            threads: cfg.read.threads,
            wall_ms: secs * 1000.0,
            rows_per_s: ratio(rows as f64, secs),
            interrupted,
        }
    }

    fn print_summary(&self, cfg: &VerifyConfig, r: &VerifyReport) {
        let mut err = io::stderr().lock();
        print_notes(
            &mut err,
            &self.notes,
            r.rejected,
            "rejected rows (see --rejects)",
        );
        if cfg.read.quiet {
            return;
        }
        // Never "0 wrong" about solutions that were never read (issue 10).
        let stored = match &r.solution_source {
            Some(source) => format!(
                "{} stored solutions wrong (solution source: {source})",
                r.stored_solutions_wrong
            ),
            None => "no stored solutions: puzzles checked only".to_string(),
        };
        let _ = writeln!(
            err,
            "sudoku-batch: verify: {} rows: {} ok, {} duplicate, {} rejected; {stored}{}",
            r.rows,
            r.verdicts.get(Verdict::Ok),
            r.verdicts.get(Verdict::Duplicate),
            r.rejected,
            if r.interrupted { " (interrupted)" } else { "" }
        );
        let one_input = self.paths.len() == 1;
        let lines = |ex: &[Example]| example_lines(ex, one_input);
        for v in &Verdict::ALL[1..] {
            let n = r.verdicts.get(*v);
            if n > 0 {
                let ex = r.examples.get(v.as_str()).map_or(&[][..], Vec::as_slice);
                let _ = writeln!(err, "sudoku-batch:   {}: {n} ({})", v.as_str(), lines(ex));
            }
        }
        if r.duplicates > 0 {
            let _ = writeln!(
                err,
                "sudoku-batch:   rows repeating an earlier puzzle (any verdict): {} ({})",
                r.duplicates,
                lines(&r.duplicate_examples)
            );
        }
        let _ = writeln!(
            err,
            "sudoku-batch: {:.3} s wall, {:.0} rows/s, {} threads, solutions counted up to {}",
            r.wall_ms / 1000.0,
            r.rows_per_s,
            r.threads,
            r.solution_limit
        );
    }
}

/// `line 4` or `lines 3, 4`; with several inputs, `lines a.csv:3, b.csv:4`.
fn example_lines(ex: &[Example], one_input: bool) -> String {
    let at: Vec<String> = ex
        .iter()
        .map(|e| match one_input {
            true => e.line.to_string(),
            false => format!("{}:{}", e.path, e.line),
        })
        .collect();
    let word = if ex.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", at.join(", "))
}
