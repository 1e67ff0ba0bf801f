//! `dedup`: keep the first occurrence of each puzzle, exact or up to symmetry (issue 12).
//!
//! Exact: two records are the same puzzle when their parsed grids are equal (so blank
//! symbols and the text around the puzzle do not count). `--iso`: when their minlex forms
//! are equal. Kept records are written in the input's layout: CSV rows as read, lines as
//! read (ratings, hashes and labels after the puzzle included).
//! Records that are not puzzles are kept and counted as invalid (exit 1, as `solve`).
//!
//! # Memory and collisions
//! Each class is remembered by a 96-bit key, the first 96 bits of the XXH3-128 hash of its
//! grid (exact) or of its form (`--iso`). Without `--groups` a [`ClassSet`] keeps 90 of
//! those bits in 1,024 shards of hash tables: 12.6 to 25.1 bytes a class, and under 32
//! while a shard doubles. Two different classes are taken for one with probability at most
//! n²/2^91 for n classes (the birthday bound): 4·10^-16 for a million classes, 4·10^-10 for
//! a billion. `--groups` keeps the whole 96-bit key (n²/2^97), the first record's position
//! and its exact key for each class in one map (about 40 more bytes a class).

use crate::summary::{count, Notes, PuzzleColumnCheck};
use crate::verify::check::describe_puzzle;
use anyhow::{Context, Result};
use std::collections::HashMap;

use super::classset::ClassSet;
use super::rows::{commit_rows, side_csv, RowWriter};
use crate::canon::minlex;
use crate::engine::{Inputs, ReadConfig};
use crate::grid::{Grid, ParseError};
use crate::input::RawRecord;
use crate::output::cannot_write;

/// Everything `dedup` needs, validated.
#[derive(Clone, Debug)]
pub struct DedupConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// Kept records' output path; `-` is standard output.
    pub output: String,
    /// Compare up to symmetry (minlex forms), not exactly.
    pub iso: bool,
    /// CSV of dropped records and the first record of their class, if wanted.
    pub groups: Option<String>,
}

/// Counts of one `dedup` run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DedupSummary {
    /// Records read.
    pub records: u64,
    /// Records written (first of their class, or invalid).
    pub kept: u64,
    /// Records dropped as copies of an earlier one.
    pub dropped: u64,
    /// Of the dropped, those that differ from their class's first record (only counted
    /// with `--groups`; else 0).
    pub isomorphs: u64,
    /// Records that are not puzzles (kept).
    pub invalid: u64,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
}

/// A 96-bit class key (see the module docs).
pub type Key = [u32; 3];

/// The key of `g`'s 81 cells: the first 96 bits of their XXH3-128 hash.
pub fn key_of(g: &Grid) -> Key {
    let h = xxhash_rust::xxh3::xxh3_128(&g.0);
    [h as u32, (h >> 32) as u32, (h >> 64) as u32]
}

/// The keys of one record: its exact key and its class key (the same without `--iso`).
pub(crate) type Keys = Result<(Key, Key), ParseError>;

/// The first record of a class, for `--groups`.
#[derive(Clone, Copy, Debug)]
struct First {
    record: u64,
    line: u64,
    input: u32,
    exact: Key,
}

/// Runs `dedup` as configured and prints a summary unless quiet.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened or read, inputs of
/// different layouts, an output that cannot be written.
pub fn run_dedup(cfg: &DedupConfig) -> Result<DedupSummary> {
    let (iso, with_groups) = (cfg.iso, cfg.groups.is_some());
    dedup_with(cfg, move |raw: &RawRecord| -> Keys {
        let puzzle = raw.checked_puzzle()?;
        if !iso {
            let exact = key_of(puzzle);
            return Ok((exact, exact));
        }
        let class = key_of(&minlex(puzzle));
        // The exact key only tells `--groups`'s relation (exact or isomorph).
        Ok((if with_groups { key_of(puzzle) } else { class }, class))
    })
}

/// [`run_dedup`] with `work` giving each record's keys (tests give one that panics).
pub(crate) fn dedup_with<W>(cfg: &DedupConfig, work: W) -> Result<DedupSummary>
where
    W: Fn(&RawRecord) -> Keys + Sync,
{
    let header = [
        "record",
        "input",
        "line",
        "first_record",
        "first_input",
        "first_line",
        "relation",
    ];
    let mut groups = side_csv(cfg.groups.as_deref(), "--groups", &header)?;
    let inputs = Inputs::open(&cfg.read, true)?.one_layout()?;
    let what = cannot_write(&cfg.output, "kept records");
    let mut out = RowWriter::new(inputs.layout(), &cfg.output, None, &what)?;
    let mut seen = ClassSet::default();
    let mut firsts: HashMap<Key, First> = HashMap::new();
    let mut sum = DedupSummary::default();
    let paths = &cfg.read.inputs;
    let mut check = PuzzleColumnCheck::new("", "--puzzle-column", inputs.layout());
    let mut notes = Notes::default();
    let layouts = inputs.layouts();
    let run = inputs.run(work, |input, path, raws, keys| {
        raws.iter().for_each(|r| check.note(r));
        for (raw, keys) in raws.iter().zip(keys) {
            sum.records += 1;
            let (exact, class) = match keys {
                Err(e) => {
                    sum.invalid += 1;
                    notes.add(path, raw.line, describe_puzzle(e, &layouts[input]));
                    sum.kept += 1;
                    out.write(raw, b"").context(what.clone())?;
                    continue;
                }
                Ok(k) => *k,
            };
            let first = First {
                record: raw.record,
                line: raw.line,
                input: input as u32,
                exact,
            };
            let earlier = match &mut groups {
                None => (!seen.insert(&class)).then_some(first),
                Some(_) => match firsts.entry(class) {
                    std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(first);
                        None
                    }
                },
            };
            let Some(f) = earlier else {
                sum.kept += 1;
                out.write(raw, b"").context(what.clone())?;
                continue;
            };
            sum.dropped += 1;
            if let Some((g, what)) = &mut groups {
                let relation = if f.exact == exact {
                    "exact"
                } else {
                    "isomorph"
                };
                sum.isomorphs += u64::from(f.exact != exact);
                g.write_record([
                    &raw.record.to_string(),
                    &paths[input],
                    &raw.line.to_string(),
                    &f.record.to_string(),
                    &paths[f.input as usize],
                    &f.line.to_string(),
                    relation,
                ])
                .context(what.clone())?;
            }
        }
        Ok(())
    })?;
    sum.interrupted = run.interrupted;
    let out = out.into_target().context(what.clone())?;
    commit_rows((out, what), groups)?;
    notes.print("invalid records");
    check.warn();
    if !cfg.read.quiet {
        print_summary(&sum, cfg);
    }
    Ok(sum)
}

fn print_summary(s: &DedupSummary, cfg: &DedupConfig) {
    let split = if cfg.groups.is_some() && cfg.iso {
        format!(
            " ({} exact, {} isomorph)",
            s.dropped - s.isomorphs,
            s.isomorphs
        )
    } else {
        String::new()
    };
    eprintln!(
        "sudoku-batch: dedup{}: {}: {} kept, {} dropped{split}, {} invalid (kept){}",
        if cfg.iso { " --iso" } else { "" },
        count(s.records, "record", "records"),
        s.kept,
        s.dropped,
        s.invalid,
        if s.interrupted { " (interrupted)" } else { "" }
    );
}
