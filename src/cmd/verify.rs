//! `sudoku-batch verify` (issue 3): prove every row of a dataset right, or say exactly
//! which is wrong. A [`Sink`] over the [`crate::engine`]: the workers run the
//! checks of `crate::verify::check` on each record (the uniqueness search is the cost
//! floor); the consumer ([`Auditor`]) takes the results in input order, looks puzzles up in
//! the duplicate set of `crate::verify::dedup`, counts verdicts and histograms, writes
//! `--rejects`, and at the end prints the summary and writes the `--report`.
//!
//! Duplicates: a row whose puzzle (blanks normalised) already stood on an earlier row is
//! still checked in full. Its verdict is its check verdict when that is not `ok`, else
//! `duplicate`; `duplicate` is informational and does not fail the run. The summary and the
//! report also count duplicate rows separately, whatever their verdict.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::{Context, Result};

use crate::engine::{self, Output, ReadConfig, Sink, Work};
use crate::input::{Dataset, Layout, RawRecord, ReadOptions};
use crate::output::rejects::{RejectRow, RejectsWriter};
use crate::output::Target;
use crate::output::{cannot_write, commit_outputs, open_json_target};
use crate::report::{Counts, Header, InputInfo, Report};
use crate::summary::{count, print_notes, PuzzleColumnCheck};
use crate::verify::check::{check_record, Checked, FieldNames, Verdict};
use crate::verify::dedup::{Fingerprints, FirstSeen};
use crate::verify::report::{Example, VerifyCounts, VerifyReport, MAX_EXAMPLES};

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

/// Runs `verify` as configured: checks every row of every input, writes the rejects and the
/// report, prints the summary to stderr, and returns the report.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened, a layout that cannot be
/// worked out (e.g. `--solution-column` names no column), an output that cannot be written.
/// Bad rows are never errors: they are verdicts.
pub fn run_verify(cfg: &VerifyConfig) -> Result<VerifyReport> {
    let start = Instant::now();
    let pool = engine::worker_pool(cfg.read.threads)?;
    let rejects = match &cfg.rejects {
        Some(p) => Some(
            Target::create(p)
                .and_then(RejectsWriter::new)
                .with_context(|| cannot_write(p, "--rejects"))?,
        ),
        None => None,
    };
    // Opened now, so an unwritable --report path fails before the work, not after it.
    let report_out = cfg
        .report
        .as_deref()
        .map(|p| open_json_target(p, "--report"))
        .transpose()?;
    let options = ReadOptions {
        keep_text: true,
        hash: cfg.report.is_some(),
        ..cfg.read.options()
    };
    let datasets = engine::open_inputs(&cfg.read.inputs, &options)?;
    let mut audit = Auditor::new(
        rejects,
        cfg.rejects.as_deref().unwrap_or_default(),
        cfg.limit,
    );
    let run = engine::run(datasets, &pool, &mut audit, cfg.read.quiet)?;
    let inputs = run
        .inputs
        .iter()
        .zip(&audit.solutions_read)
        .map(|(i, &read)| InputInfo::new(&i.path, &i.layout, &i.done, i.records, read))
        .collect();
    let secs = start.elapsed().as_secs_f64();
    let report = audit.report(cfg, inputs, secs, run.interrupted);
    let mut targets = Vec::new();
    if let Some(w) = audit.rejects.take() {
        let what = audit.rejects_what.clone();
        targets.push((w.into_target().context(what.clone())?, what));
    }
    if let (Some(mut t), Some(p)) = (report_out, cfg.report.as_deref()) {
        let what = cannot_write(p, "--report");
        t.write_json(&report).context(what.clone())?;
        targets.push((t, what));
    }
    commit_outputs(targets, run.datasets)?;
    audit.print_summary(cfg, &report);
    Ok(report)
}

/// The work of `verify` on one record: every check, counting solutions up to the limit.
pub struct VerifyWork {
    limit: u32,
    names: FieldNames,
}

impl Work for VerifyWork {
    type Output = Checked;

    fn work(&self, raw: &RawRecord) -> Checked {
        check_record(raw, self.limit, &self.names)
    }

    /// `internal-error`: a bug, not a verdict on the row; the run goes on and exits 1.
    fn panicked(&self, raw: &RawRecord, message: String) -> Checked {
        Checked {
            verdict: Verdict::InternalError,
            detail: Some(format!(
                "internal error (a bug, please report it with this row): {message}"
            )),
            clues: raw
                .puzzle
                .as_ref()
                .ok()
                .and_then(|p| u8::try_from(p.clues()).ok()),
            guesses: 0,
            fingerprint: None,
            stored_wrong: false,
            compared: false,
            stored_malformed: false,
        }
    }
}

/// The sequential consumer: counts, duplicates, rejects, examples.
pub struct Auditor {
    rejects: Option<RejectsWriter>,
    /// The message of a failure to write the rejects ([`cannot_write`]).
    rejects_what: String,
    limit: u32,
    /// What the report counts (its derived figures are set at the end).
    counts: VerifyCounts,
    seen: Fingerprints,
    /// `path:line: verdict: detail` of the first rejected rows.
    notes: Vec<String>,
    /// The run's input paths so far, by index.
    paths: Vec<String>,
    /// The input being read: its index and layout.
    input: u32,
    layout: Layout,
    /// Where stored solutions were read, each source once ([`Layout::solution_source`]).
    solution_sources: Vec<String>,
    /// Whether each input so far, by index, has had a row with a stored solution.
    solutions_read: Vec<bool>,
    /// Whether every puzzle is a complete grid (a solution column read as puzzles), judged
    /// on the first input's layout.
    puzzle_column: Option<PuzzleColumnCheck>,
}

impl Sink for Auditor {
    type Work = VerifyWork;

    fn start_input(&mut self, index: usize, data: &Dataset) -> Result<VerifyWork> {
        self.input = u32::try_from(index).context("too many inputs")?;
        self.layout = data.layout().clone();
        self.solutions_read.push(false);
        self.paths.push(data.path().to_string());
        self.puzzle_column.get_or_insert_with(|| {
            PuzzleColumnCheck::new("", "--puzzle-column", Some(data.layout()))
        });
        Ok(VerifyWork {
            limit: self.limit,
            names: FieldNames::of(&self.layout),
        })
    }

    fn consume(&mut self, raws: &[RawRecord], checks: &[Output<Self>]) -> Result<()> {
        self.consume_rows(raws, checks)
    }
}

impl Auditor {
    fn new(rejects: Option<RejectsWriter>, rejects_path: &str, limit: u32) -> Auditor {
        Auditor {
            rejects,
            rejects_what: cannot_write(rejects_path, "--rejects"),
            limit,
            counts: VerifyCounts::default(),
            seen: Fingerprints::default(),
            notes: Vec::new(),
            paths: Vec::new(),
            input: 0,
            layout: Layout::Lines {
                field: 0,
                paired: false,
            },
            solution_sources: Vec::new(),
            solutions_read: Vec::new(),
            puzzle_column: None,
        }
    }

    fn example(&self, input: u32, line: u64) -> Example {
        Example {
            path: self.paths[input as usize].clone(),
            line,
        }
    }

    fn consume_rows(&mut self, raws: &[RawRecord], checks: &[Checked]) -> Result<()> {
        let input = self.input;
        if let Some(check) = &mut self.puzzle_column {
            raws.iter().for_each(|r| check.note(r));
        }
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
                    self.counts.duplicates += 1;
                    if self.counts.duplicate_examples.len() < MAX_EXAMPLES {
                        let ex = self.example(input, raw.line);
                        self.counts.duplicate_examples.push(ex);
                    }
                    if verdict == Verdict::Ok {
                        verdict = Verdict::Duplicate;
                    }
                }
            }
            // A row carries a stored solution when its solution field holds something, even
            // when the row failed before it was parsed (ragged, unclosed quote).
            let carries =
                raw.solution.is_some() || !self.layout.record_text(raw).1.trim_ascii().is_empty();
            let counts = &mut self.counts;
            counts.rows += 1;
            counts.verdicts.add(verdict);
            counts.stored_solutions_wrong += u64::from(c.stored_wrong);
            counts.stored_solutions_compared += u64::from(c.compared);
            counts.stored_solutions_malformed += u64::from(c.stored_malformed);
            counts.rows_without_solution += u64::from(!carries);
            counts.stored_solutions_not_compared +=
                u64::from(carries && !c.compared && !c.stored_malformed);
            let noted = &mut self.solutions_read[input as usize];
            if raw.solution.is_some() && !*noted {
                *noted = true;
                let source = self.layout.solution_source(true).unwrap_or_default();
                if !self.solution_sources.contains(&source) {
                    self.solution_sources.push(source);
                }
            }
            if let Some(n) = c.clues {
                counts.clues_histogram.0[usize::from(n)] += 1;
            }
            if !matches!(c.verdict, Verdict::PuzzleMalformed | Verdict::ClueConflict) {
                counts.guesses_histogram.add(c.guesses);
            }
            if verdict != Verdict::Ok {
                let detail = match (&c.detail, repeat) {
                    (Some(d), Some(r)) => format!("{d}; {r}"),
                    (Some(d), None) => d.clone(),
                    (None, Some(r)) => r,
                    (None, None) => String::new(),
                };
                self.reject(input, raw, verdict, &detail)?;
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
        raw: &RawRecord,
        verdict: Verdict,
        detail: &str,
    ) -> Result<()> {
        let ex = (self.counts.examples)
            .entry(verdict.as_str().to_string())
            .or_default();
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
            let (puzzle, solution) = self.layout.record_text(raw);
            let row = RejectRow {
                record: raw.record,
                input: &self.paths[input as usize],
                line: raw.line,
                verdict: verdict.as_str(),
                detail,
                puzzle,
                solution,
            };
            w.write(&row).with_context(|| self.rejects_what.clone())?;
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
        let mut header = Header::new("verify", inputs, cfg.read.shard.map(|s| s.to_string()));
        header.threads = cfg.read.threads;
        header.solution_limit = cfg.limit;
        header.wall_ms = secs * 1000.0;
        header.interrupted = interrupted;
        let mut counts = self.counts.clone();
        counts.duplicates_within = match cfg.read.shard {
            Some(_) => "the shard",
            None => "the run",
        }
        .to_string();
        counts.solution_source =
            (!self.solution_sources.is_empty()).then(|| self.solution_sources.join(", "));
        Report::new(header, counts)
    }

    fn print_summary(&self, cfg: &VerifyConfig, r: &VerifyReport) {
        let (h, c) = (&r.header, &r.counts);
        let mut err = io::stderr().lock();
        print_notes(
            &mut err,
            &self.notes,
            c.rejected,
            "rejected rows (see --rejects)",
        );
        self.puzzle_column.iter().for_each(PuzzleColumnCheck::warn);
        if cfg.read.quiet {
            return;
        }
        // Never "0 wrong" about solutions that were never read (issue 10) or never compared
        // (a column of empty or malformed solutions).
        let stored = match c.stored_solutions_compared + c.stored_solutions_wrong {
            1.. => format!(
                "; {} wrong",
                count(
                    c.stored_solutions_wrong,
                    "stored solution",
                    "stored solutions"
                )
            ),
            0 => String::new(),
        };
        // "0 duplicate" of a shard read as "no repeats in the file".
        let within = match cfg.read.shard {
            Some(_) => " (repeats searched within this shard only)",
            None => "",
        };
        let _ = writeln!(
            err,
            "sudoku-batch: verify: {}: {} ok, {} duplicate{within}, {} rejected{stored}{}",
            c.records_counted(),
            c.verdicts.get(Verdict::Ok),
            c.verdicts.get(Verdict::Duplicate),
            c.rejected,
            if h.interrupted { "; interrupted" } else { "" }
        );
        let _ = writeln!(err, "sudoku-batch:   {}", solution_line(c, &h.inputs));
        let one_input = self.paths.len() == 1;
        let lines = |ex: &[Example]| example_lines(ex, one_input);
        for v in &Verdict::ALL[1..] {
            let n = c.verdicts.get(*v);
            if n > 0 {
                let ex = c.examples.get(v.as_str()).map_or(&[][..], Vec::as_slice);
                let _ = writeln!(err, "sudoku-batch:   {}: {n} ({})", v.as_str(), lines(ex));
            }
        }
        if c.duplicates > 0 {
            let _ = writeln!(
                err,
                "sudoku-batch:   rows repeating an earlier puzzle (any verdict): {} ({})",
                c.duplicates,
                lines(&c.duplicate_examples)
            );
        }
        let _ = writeln!(
            err,
            "sudoku-batch: {:.3} s wall, {:.0} rows/s, {}, solutions counted up to {}",
            h.wall_ms / 1000.0,
            c.rows_per_s,
            count(h.threads as u64, "thread", "threads"),
            h.solution_limit
        );
    }
}

/// The summary's line on stored solutions: where they were read and how many rows were
/// compared, or why none was. A solution column with every field empty is named as present
/// ("no stored solutions" read as if the column were missing), and
/// no row is said to be compared that was not.
fn solution_line(c: &VerifyCounts, inputs: &[InputInfo]) -> String {
    // An empty CSV field, a line without a solution field, or a JSON Lines or Parquet row
    // without the key (or `null`).
    let lines_only = inputs.iter().all(|i| i.layout == "lines");
    let empty = match inputs.iter().all(|i| i.layout == "csv") {
        true => ("row with an empty solution", "rows with an empty solution"),
        false if lines_only => ("line without a solution", "lines without a solution"),
        false => ("row without a solution", "rows without a solution"),
    };
    // Tables whose layout has a solution column, whether or not a row filled it in.
    let columns: Vec<&str> = (inputs.iter())
        .filter(|i| i.layout != "lines")
        .filter_map(|i| i.solution_source.as_deref())
        .collect();
    match &c.solution_source {
        Some(source) => {
            // How many rows the "wrong" count is about (lines without a solution
            // passed as `ok`, and "0 wrong" seemed to cover them).
            let mut without = match c.stored_solutions_malformed {
                0 => String::new(),
                n => format!(", {n} malformed (not compared)"),
            };
            if c.stored_solutions_not_compared > 0 {
                let n = c.stored_solutions_not_compared;
                without.push_str(&format!(", {n} not compared (row failed first)"));
            }
            if c.rows_without_solution > 0 {
                let n = c.rows_without_solution;
                without.push_str(&format!(", {}", count(n, empty.0, empty.1)));
            }
            let n = c.stored_solutions_compared;
            let compared = count(n, "stored solution", "stored solutions");
            format!("solution source: {source}; {compared} compared{without}")
        }
        // No rows (an empty shard, a header-only file) say nothing about solutions (an
        // empty shard of a file with a solution column must not claim it has none).
        None if c.rows == 0 => "no rows read: nothing checked".to_string(),
        None if !columns.is_empty() => {
            let mut names = columns;
            names.dedup();
            let what = match c.rows_without_solution {
                n if n == c.rows => format!("all {}", count(n, empty.0, empty.1)),
                n => count(n, empty.0, empty.1),
            };
            format!(
                "solution column {} present, no stored solution compared ({what}): \
                 only the puzzles were checked",
                names.join(", ")
            )
        }
        None if lines_only => {
            "no stored solutions (no line has a solution field): only the puzzles were checked"
                .to_string()
        }
        None => "no solution column: only the puzzles were checked".to_string(),
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
