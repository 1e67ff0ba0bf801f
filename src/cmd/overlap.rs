//! `overlap`: the test rows of a split that are the same puzzle as a train row, exactly or
//! up to symmetry, and with `--by-solution` also those whose solution grid is an isomorph
//! of a train row's (issue 12).
//!
//! The train inputs are read first into three maps from a 96-bit key
//! ([`dedup`](super::dedup) explains the key and its collision bound) to the first train row
//! with it: exact grid, minlex form, and with `--by-solution` the minlex form of the
//! solution grid (the stored solution when the row has a valid one, else the puzzle's
//! solution when it has exactly one). Each test row is then looked up in that order, and
//! the first match is written as `test_input,test_line,train_input,train_line,relation`
//! with relation `exact`, `isomorph` or `same-solution-class`. A row with no such solution
//! grid is not compared by solution class: each side's such rows are counted and named in
//! a warning, so a clean result says what it did not check.
//!
//! Train and test are read each with its own layout options (`--train-puzzle-column`, ...):
//! a split's two files often differ. A side whose puzzles, read from a column, are all complete grids gets a
//! warning, since a puzzle column read from a solution column finds no overlap and would
//! pass a leaking split as clean.

use std::collections::HashMap;

use anyhow::{Context, Result};

use super::dedup::{key_of, Key};
use crate::canon::minlex;
use crate::engine::{Inputs, ReadConfig};
use crate::grid::ParseError;
use crate::input::{Layout, RawRecord};
use crate::output::{cannot_write, commit_outputs, Target};
use crate::solver::solve;
use crate::summary::{count, Notes, PuzzleColumnCheck};
use crate::verify::check::describe_puzzle;

/// Everything `overlap` needs, validated.
#[derive(Clone, Debug)]
pub struct OverlapConfig {
    /// Train inputs (`inputs`) and how to read them; its threads, quiet and mmap
    /// settings are the run's.
    pub train: ReadConfig,
    /// Test inputs and how to read them (the command line gives them the train side's
    /// threads, quiet, mmap and shard settings, with their own layout).
    pub test: ReadConfig,
    /// Matches CSV output path; `-` is standard output.
    pub output: String,
    /// Also match rows whose solution grids are isomorphs.
    pub by_solution: bool,
}

/// Counts of one `overlap` run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OverlapSummary {
    /// Train records read.
    pub train: u64,
    /// Test records read.
    pub test: u64,
    /// Test rows equal to a train row.
    pub exact: u64,
    /// Test rows isomorphic to a train row (and not equal to one).
    pub isomorph: u64,
    /// Test rows whose solution grid is an isomorph of a train row's (and no other match);
    /// always 0 without [`OverlapConfig::by_solution`], which alone runs that check.
    pub same_solution_class: u64,
    /// Train records that are not puzzles.
    pub train_invalid: u64,
    /// Test records that are not puzzles.
    pub test_invalid: u64,
    /// With [`OverlapConfig::by_solution`], train puzzles without a single solution (no
    /// valid stored one, and none or several): not compared by solution class.
    pub train_unclassed: u64,
    /// The same for test puzzles that match no train row otherwise (a listed row needs no
    /// more checking).
    pub test_unclassed: u64,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
}

impl OverlapSummary {
    /// Test rows that match a train row in any way.
    pub fn found(&self) -> u64 {
        self.exact + self.isomorph + self.same_solution_class
    }
}

/// The keys of one record: exact grid, form, and solution class when asked and known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keys {
    exact: Key,
    /// The key of the canonical form (`generate --exclude` keeps these out).
    pub(crate) form: Key,
    /// The key of the solution grid's canonical form, when asked for and known.
    pub(crate) solution: Option<Key>,
}

/// A train row: input index and 1-based line.
type Row = (u32, u64);

/// The keys of one record, or why it is not a puzzle.
pub(crate) fn keys(raw: &RawRecord, by_solution: bool) -> Result<Keys, ParseError> {
    let puzzle = raw.checked_puzzle()?;
    let solution = by_solution.then(|| solution_class(raw)).flatten();
    Ok(Keys {
        exact: key_of(puzzle),
        form: key_of(&minlex(puzzle)),
        solution,
    })
}

/// The key of the minlex form of the record's solution grid: the stored one when it is a
/// valid grid keeping the givens, else the puzzle's only solution; `None` otherwise.
fn solution_class(raw: &RawRecord) -> Option<Key> {
    let puzzle = raw.puzzle.as_ref().ok()?;
    let stored = raw
        .solution
        .as_ref()
        .and_then(|s| s.as_ref().ok())
        .filter(|s| s.is_complete_valid() && s.keeps_givens(puzzle));
    let grid = match stored {
        Some(s) => *s,
        None => {
            let found = solve(puzzle, 2);
            (found.count == 1).then_some(found.grid?)?
        }
    };
    Some(key_of(&minlex(&grid)))
}

/// Runs `overlap` as configured and prints a summary unless quiet.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened or read, train (or test)
/// inputs of different layouts, an output that cannot be written.
pub fn run_overlap(cfg: &OverlapConfig) -> Result<OverlapSummary> {
    let by_solution = cfg.by_solution;
    overlap_with(cfg, move |r| keys(r, by_solution))
}

/// [`run_overlap`] with `work` for [`keys`] (tests give one that panics).
pub(crate) fn overlap_with<W>(cfg: &OverlapConfig, work: W) -> Result<OverlapSummary>
where
    W: Fn(&RawRecord) -> Result<Keys, ParseError> + Sync,
{
    let train = Inputs::open(&cfg.train, false)?.one_layout()?;
    let test = Inputs::open(&cfg.test, false)?.one_layout()?;
    let mut sides = [
        PuzzleColumnCheck::new("train ", "--train-puzzle-column", train.layout()),
        PuzzleColumnCheck::new("test ", "--test-puzzle-column", test.layout()),
    ];
    // Only now, as `solve` and `canon` do: a missing input must not leave a header on
    // standard output.
    let what = cannot_write(&cfg.output, "overlap rows");
    let mut out = csv::Writer::from_writer(Target::create(&cfg.output).context(what.clone())?);
    out.write_record([
        "test_input",
        "test_line",
        "train_input",
        "train_line",
        "relation",
    ])
    .context(what.clone())?;
    let mut sum = OverlapSummary::default();
    let mut notes = Notes::default();
    let mut maps: [HashMap<Key, Row>; 3] = Default::default();
    let layouts = [train.layouts(), test.layouts()];
    let stopped = train
        .run(&work, |input, path, raws, keys| {
            for (raw, k) in raws.iter().zip(keys) {
                sum.train += 1;
                sides[0].note(raw);
                let at = (path, &layouts[0][input], raw.line);
                let Some(k) = valid(k, &mut sum.train_invalid, &mut notes, at) else {
                    continue;
                };
                sum.train_unclassed += u64::from(cfg.by_solution && k.solution.is_none());
                let row = (input as u32, raw.line);
                for (map, key) in maps
                    .iter_mut()
                    .zip([Some(k.exact), Some(k.form), k.solution])
                {
                    if let Some(key) = key {
                        map.entry(key).or_insert(row);
                    }
                }
            }
            Ok(())
        })?
        .interrupted;
    let mut interrupted = stopped;
    if !stopped {
        let stopped = test
            .run(&work, |input, path, raws, keys| {
                for (raw, k) in raws.iter().zip(keys) {
                    sum.test += 1;
                    sides[1].note(raw);
                    let at = (path, &layouts[1][input], raw.line);
                    let Some(k) = valid(k, &mut sum.test_invalid, &mut notes, at) else {
                        continue;
                    };
                    let Some((relation, (ti, tl))) = find(&maps, k) else {
                        // Listed rows are flagged anyway; an unlisted one is clean only as
                        // far as it was compared.
                        sum.test_unclassed += u64::from(cfg.by_solution && k.solution.is_none());
                        continue;
                    };
                    match relation {
                        "exact" => sum.exact += 1,
                        "isomorph" => sum.isomorph += 1,
                        _ => sum.same_solution_class += 1,
                    }
                    out.write_record([
                        &cfg.test.inputs[input],
                        &raw.line.to_string(),
                        &cfg.train.inputs[ti as usize],
                        &tl.to_string(),
                        relation,
                    ])
                    .context(what.clone())?;
                }
                Ok(())
            })?
            .interrupted;
        interrupted = stopped;
    }
    sum.interrupted = interrupted;
    let t = out
        .into_inner()
        .map_err(|e| e.into_error())
        .context(what.clone())?;
    commit_outputs(vec![(t, what)], ())?;
    notes.print("invalid records");
    sides.iter().for_each(PuzzleColumnCheck::warn);
    if let Some(w) = unclassed_warning(&sum) {
        // Even when quiet, as the complete-grid warning: exit 0 does not clear these rows.
        eprintln!("sudoku-batch: warning: {w}");
    }
    if !cfg.train.quiet {
        // Each side's invalid count ("11 train records and 5 test records, 5
        // invalid" read as if every test record were invalid).
        eprintln!(
            "sudoku-batch: overlap: {} ({} invalid) and {} ({} invalid){}",
            count(sum.train, "train record", "train records"),
            sum.train_invalid,
            count(sum.test, "test record", "test records"),
            sum.test_invalid,
            if interrupted { " (interrupted)" } else { "" }
        );
        // Never "0 same solution class" for a check that did not run, nor
        // without a word on the rows it skipped.
        let skipped = sum.train_unclassed + sum.test_unclassed > 0;
        let class = match (cfg.by_solution, skipped) {
            (true, false) => format!("{} same solution class", sum.same_solution_class),
            (true, true) => format!(
                "{} same solution class among rows with a single solution",
                sum.same_solution_class
            ),
            (false, _) => "same solution class not checked (use --by-solution)".to_string(),
        };
        eprintln!(
            "sudoku-batch: {} a train row ({} exact, {} isomorph, {class})",
            count(sum.found(), "test row overlaps", "test rows overlap"),
            sum.exact,
            sum.isomorph,
        );
    }
    Ok(sum)
}

/// What `--by-solution` left out, when it did: `N train / M test rows without a single
/// solution: not compared by solution class (...)`; `None` when every valid row was compared.
fn unclassed_warning(sum: &OverlapSummary) -> Option<String> {
    (sum.train_unclassed + sum.test_unclassed > 0).then(|| {
        format!(
            "{} train / {} test rows without a single solution: not compared by solution \
             class (no valid stored solution, and none or several solutions); a clean result \
             does not clear them",
            sum.train_unclassed, sum.test_unclassed
        )
    })
}

/// A record's keys, or `None` when it is not a puzzle: then counted in `invalid` and noted
/// as `path:line: reason` (`at`: the input's path and layout, the record's line).
fn valid<'k>(
    keys: &'k Result<Keys, ParseError>,
    invalid: &mut u64,
    notes: &mut Notes,
    at: (&str, &Layout, u64),
) -> Option<&'k Keys> {
    let (path, layout, line) = at;
    keys.as_ref()
        .inspect_err(|e| {
            *invalid += 1;
            notes.add(path, line, describe_puzzle(e, layout));
        })
        .ok()
}

/// The first train row a test row's keys match, with the relation.
fn find(maps: &[HashMap<Key, Row>; 3], k: &Keys) -> Option<(&'static str, Row)> {
    let relations = ["exact", "isomorph", "same-solution-class"];
    [Some(k.exact), Some(k.form), k.solution]
        .iter()
        .zip(maps)
        .zip(relations)
        .find_map(|((key, map), rel)| Some((rel, *map.get(key.as_ref()?)?)))
}
