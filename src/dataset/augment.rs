//! `augment`: for every record, `K` random isomorphs of the puzzle with the same transform
//! applied to its solution (the stored one, or the solver's), written as
//! `source_record,puzzle,solution,transform` (issue 13).
//!
//! The `k`-th isomorph of record `r` is [`Isomorph::keyed`]`(seed, r, k)`: it depends on
//! nothing else, so the output is the same bytes at any `-j`, and the shards of a
//! `--shard K/N` run of one input, joined in order (headers dropped), give the whole run's
//! rows. With several inputs a shard holds its part of each, so the joined shards give
//! them sorted by `source_record` (a stable sort).

use crate::summary::count;
use anyhow::Result;

use super::{write_table, TableOutput};
use crate::engine::{FromPanic, ReadConfig};
use crate::grid::{Grid, ParseError};
use crate::input::{Layout, RawRecord};
use crate::isomorph::{Isomorph, CODE_LEN};
use crate::output::table::{Column, Kind, TableWriter, Value};
use crate::solver;
use crate::summary::Notes;
use crate::verify::check;

/// The output columns: the 0-based record the pair comes from, the transformed puzzle and
/// solution (81 digits, `0` = blank; the solution empty when kept without one), and the
/// [transform code](Isomorph#transform-code) that maps the source row onto this one.
pub const COLUMNS: &[Column] = &[
    Column {
        name: "source_record",
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
        name: "transform",
        kind: Kind::Text,
    },
];

/// What `augment` draws and keeps.
#[derive(Clone, Copy, Debug)]
pub struct AugmentOptions {
    /// Isomorphs per record (`-n`).
    pub copies: u32,
    /// The generator's seed (`--seed`).
    pub seed: u64,
    /// Also write the record itself first, with the identity transform.
    pub include_original: bool,
    /// Write the isomorphs of a puzzle that is not uniquely solvable, without a solution,
    /// instead of skipping it.
    pub keep_unsolved: bool,
}

/// Everything `augment` needs, validated.
#[derive(Clone, Debug)]
pub struct AugmentConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// What to draw.
    pub options: AugmentOptions,
    /// Where the pairs go.
    pub output: TableOutput,
}

/// Why a record gave no pairs, or gave pairs without a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Not a puzzle, or two givens clash.
    Invalid(ParseError),
    /// No solution.
    Unsolvable,
    /// More than one solution.
    Multiple,
    /// The stored solution is not a complete valid grid keeping the givens, or does not parse.
    WrongSolution(String),
}

/// One output row: a transformed puzzle, its solution, and the transform's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The transformed puzzle.
    pub puzzle: Grid,
    /// The transformed solution; `None` for a puzzle kept without one.
    pub solution: Option<Grid>,
    /// The [transform code](Isomorph#transform-code), ASCII (written in the worker, so
    /// the in-order writer only copies it).
    pub code: [u8; CODE_LEN],
}

impl Pair {
    fn new(puzzle: Grid, solution: Option<Grid>, iso: &Isomorph) -> Pair {
        let mut code = [0u8; CODE_LEN];
        iso.write_code(&mut code);
        Pair {
            puzzle,
            solution,
            code,
        }
    }

    /// The transform code as text.
    pub fn code(&self) -> &str {
        std::str::from_utf8(&self.code).expect("a transform code is ASCII")
    }
}

/// The pairs drawn from one record, or why there are none.
#[derive(Clone, Debug)]
pub struct Augmented {
    /// 0-based record over the run.
    pub record: u64,
    /// 1-based line in its input.
    pub line: u64,
    /// Why the record was skipped or written without solutions; `None` when augmented.
    pub skip: Option<Skip>,
    /// The pairs carry the record's stored solution, checked for validity but not for
    /// uniqueness (the solver did not run).
    pub stored: bool,
    /// The pairs, in output order.
    pub pairs: Vec<Pair>,
}

/// A record whose work panicked: skipped as invalid, with the panic's message (exit 1).
impl FromPanic for Augmented {
    fn from_panic(raw: &RawRecord, message: String) -> Augmented {
        Augmented {
            record: raw.record,
            line: raw.line,
            skip: Some(Skip::Invalid(ParseError::Internal(message))),
            stored: false,
            pairs: Vec::new(),
        }
    }
}

/// The solution that `raw`'s pairs carry: the stored one when it fits the puzzle, else the
/// solver's when it is unique.
fn solution_of(raw: &RawRecord, puzzle: &Grid) -> Result<Grid, Skip> {
    match &raw.solution {
        Some(Ok(s)) if s.is_complete_valid() && s.keeps_givens(puzzle) => Ok(*s),
        Some(Ok(s)) => Err(Skip::WrongSolution(format!(
            "the stored solution {s} is not a valid completion of the puzzle"
        ))),
        // Named as verify names it: the cell (`r9c9`), not a character position.
        Some(Err(e)) => Err(Skip::WrongSolution(check::describe(e, "stored solution"))),
        None => {
            let found = solver::solve(puzzle, 2);
            if found.givens_clash {
                let why = puzzle
                    .conflicts()
                    .unwrap_or_else(|| "two givens clash".to_string());
                return Err(Skip::Invalid(ParseError::Conflict(why)));
            }
            match (found.count, found.grid) {
                (1, Some(g)) => Ok(g),
                (0, _) => Err(Skip::Unsolvable),
                _ => Err(Skip::Multiple),
            }
        }
    }
}

/// `k` isomorphs of a puzzle and its solution: the `j`-th (`j` in `0..k`) applies
/// [`Isomorph::keyed`]`(seed, key, j)` to both, and is returned with that transform (its
/// [`Isomorph::inverse`] maps the pair back). With `key` the 0-based record index, these
/// are the pairs `sudoku-batch augment -n <k> --seed <seed>` writes for that record.
/// Nothing is checked: `solution` may be any grid (e.g. [`Grid::EMPTY`] for none).
///
/// ```
/// use sudoku_batch::{augment_pair, solve, Grid};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// let s = solve(&p, 1).grid.unwrap();
/// for (q, t, iso) in augment_pair(&p, &s, 4, 42, 0) {
///     assert!(t.is_complete_valid() && t.keeps_givens(&q));
///     assert_eq!(iso.inverse().apply(&q), p);
/// }
/// ```
pub fn augment_pair(
    puzzle: &Grid,
    solution: &Grid,
    k: u32,
    seed: u64,
    key: u64,
) -> Vec<(Grid, Grid, Isomorph)> {
    (0..u64::from(k))
        .map(|j| {
            let iso = Isomorph::keyed(seed, key, j);
            let [p, s] = iso.apply_all([puzzle, solution]);
            (p, s, iso)
        })
        .collect()
}

/// Draws the pairs of one record (see [`Augmented`]).
pub fn augment_record(raw: &RawRecord, opts: &AugmentOptions) -> Augmented {
    let mut out = Augmented {
        record: raw.record,
        line: raw.line,
        skip: None,
        stored: false,
        pairs: Vec::new(),
    };
    let puzzle = match &raw.puzzle {
        Ok(p) => *p,
        Err(e) => {
            out.skip = Some(Skip::Invalid(e.clone()));
            return out;
        }
    };
    let solution = match solution_of(raw, &puzzle) {
        Ok(s) => {
            out.stored = raw.solution.is_some();
            Some(s)
        }
        Err(skip) => {
            let keep = opts.keep_unsolved && matches!(skip, Skip::Unsolvable | Skip::Multiple);
            out.skip = Some(skip);
            if !keep {
                return out;
            }
            None
        }
    };
    out.pairs
        .reserve(opts.copies as usize + usize::from(opts.include_original));
    if opts.include_original {
        out.pairs
            .push(Pair::new(puzzle, solution, &Isomorph::IDENTITY));
    }
    match &solution {
        Some(s) => {
            let drawn = augment_pair(&puzzle, s, opts.copies, opts.seed, raw.record);
            for (p, s, iso) in drawn {
                out.pairs.push(Pair::new(p, Some(s), &iso));
            }
        }
        None => {
            for k in 0..u64::from(opts.copies) {
                let iso = Isomorph::keyed(opts.seed, raw.record, k);
                out.pairs.push(Pair::new(iso.apply(&puzzle), None, &iso));
            }
        }
    }
    out
}

/// What an `augment` run did, by record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AugmentCounts {
    /// Records read.
    pub records: u64,
    /// Records augmented with their solution.
    pub augmented: u64,
    /// Rows written.
    pub pairs: u64,
    /// Records that are not puzzles, or whose givens clash: skipped.
    pub invalid: u64,
    /// Records with no solution: skipped, or kept without solutions.
    pub unsolvable: u64,
    /// Records with more than one solution: skipped, or kept without solutions.
    pub multiple: u64,
    /// Records whose stored solution is wrong: skipped.
    pub wrong_solution: u64,
    /// Records written without solutions (`--keep-unsolved`).
    pub kept: u64,
    /// Of the augmented, those taken with their stored solution: valid and keeping the
    /// givens, but not checked for uniqueness (so not counted in `multiple`).
    pub stored: u64,
    /// The run was stopped by Ctrl-C; the counts cover the records written.
    pub interrupted: bool,
}

impl AugmentCounts {
    /// Records that gave no rows.
    pub fn skipped(&self) -> u64 {
        self.records - self.augmented - self.kept
    }
}

/// Writes the rows of one record and counts what happened.
fn write_record(
    table: &mut (dyn TableWriter + Send),
    counts: &mut AugmentCounts,
    notes: &mut Notes,
    path: &str,
    layout: &Layout,
    a: &Augmented,
) -> std::io::Result<()> {
    counts.records += 1;
    match &a.skip {
        None => {
            counts.augmented += 1;
            counts.stored += u64::from(a.stored);
        }
        Some(skip) => {
            match skip {
                Skip::Invalid(_) => counts.invalid += 1,
                Skip::Unsolvable => counts.unsolvable += 1,
                Skip::Multiple => counts.multiple += 1,
                Skip::WrongSolution(_) => counts.wrong_solution += 1,
            }
            let why = SkipReason { skip, layout };
            if a.pairs.is_empty() {
                notes.add(path, a.line, why);
            } else {
                counts.kept += 1;
                notes.add(path, a.line, format_args!("{why}: kept without a solution"));
            }
        }
    }
    for pair in &a.pairs {
        let s = pair.solution.as_ref().map_or(Value::Null, Value::Grid);
        let row = [
            Value::Int(a.record),
            Value::Grid(&pair.puzzle),
            s,
            Value::Text(pair.code()),
        ];
        table.write_row(&row)?;
    }
    counts.pairs += a.pairs.len() as u64;
    Ok(())
}

/// Why a record of an input in `layout` was skipped, worded when displayed (only the
/// first few skipped records are named).
struct SkipReason<'a> {
    skip: &'a Skip,
    layout: &'a Layout,
}

impl std::fmt::Display for SkipReason<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.skip {
            Skip::Invalid(e) => check::describe_puzzle(e, self.layout).fmt(f),
            Skip::Unsolvable => f.write_str("unsolvable: no solution"),
            Skip::Multiple => f.write_str("multiple: more than one solution"),
            Skip::WrongSolution(why) => f.write_str(why),
        }
    }
}

/// Runs `augment` as configured: writes the pairs, prints a summary to stderr, and returns
/// the counts.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened or read, an output that
/// cannot be written. Records that cannot be augmented are counted, not errors.
pub fn run_augment(cfg: &AugmentConfig) -> Result<AugmentCounts> {
    let opts = cfg.options;
    augment_with(cfg, |raw| augment_record(raw, &opts))
}

/// [`run_augment`] with `work` for [`augment_record`] (tests give one that panics).
pub(crate) fn augment_with<W>(cfg: &AugmentConfig, work: W) -> Result<AugmentCounts>
where
    W: Fn(&RawRecord) -> Augmented + Sync,
{
    let mut counts = AugmentCounts::default();
    let mut notes = Notes::default();
    counts.interrupted = write_table(
        &cfg.read,
        &cfg.output,
        COLUMNS,
        work,
        |table, path, layout, a| {
            Ok(write_record(
                table,
                &mut counts,
                &mut notes,
                path,
                layout,
                a,
            )?)
        },
    )?;
    notes.print("records not augmented");
    if !cfg.read.quiet {
        print_summary(&counts, cfg.options.keep_unsolved);
    }
    Ok(counts)
}

/// Prints the two summary lines (see README, `augment`). Records taken with their stored
/// solution were not checked for uniqueness: the summary says so, and gives `… multiple`
/// only when the solver ran on some record, so `0 multiple` never stands for "not
/// checked".
fn print_summary(c: &AugmentCounts, keep_unsolved: bool) {
    eprintln!(
        "sudoku-batch: {}: {} augmented, {} kept without solutions; {} written{}",
        count(c.records, "record", "records"),
        c.augmented,
        c.kept,
        count(c.pairs, "pair", "pairs"),
        if c.interrupted { " (interrupted)" } else { "" }
    );
    let wrong = count(
        c.wrong_solution,
        "wrong stored solution",
        "wrong stored solutions",
    );
    // Records the solver ran on: every `multiple` is among them.
    let solved_here = c.augmented - c.stored + c.unsolvable + c.multiple;
    let multiple = if c.stored > 0 && solved_here == 0 {
        String::new()
    } else {
        format!(", {} multiple", c.multiple)
    };
    let unchecked = if c.stored > 0 {
        let taken = count(
            c.stored,
            "record taken with its stored solution",
            "records taken with their stored solution",
        );
        format!("; uniqueness not checked: {taken} (run verify to check)")
    } else {
        String::new()
    };
    // With --keep-unsolved every unsolvable and multiple record is kept, not skipped.
    if keep_unsolved {
        eprintln!(
            "sudoku-batch: kept without solutions: {} unsolvable{multiple}; {} skipped: {} invalid, {wrong}{unchecked}",
            c.unsolvable,
            c.skipped(),
            c.invalid,
        );
    } else {
        eprintln!(
            "sudoku-batch: {} skipped: {} invalid, {} unsolvable{multiple}, {wrong}{unchecked}",
            c.skipped(),
            c.invalid,
            c.unsolvable,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};
    use crate::grid::parse_cells;

    fn raw(puzzle: &str, solution: Option<&str>) -> RawRecord {
        RawRecord {
            record: 5,
            line: 6,
            puzzle: parse_cells(puzzle.as_bytes()),
            solution: solution.map(|s| parse_cells(s.as_bytes())),
            fields: None,
        }
    }

    const OPTS: AugmentOptions = AugmentOptions {
        copies: 20,
        seed: 3,
        include_original: true,
        keep_unsolved: false,
    };

    #[test]
    fn pairs_are_valid_and_rebuilt_by_their_code() {
        let (p, s) = (
            parse_cells(P.as_bytes()).unwrap(),
            parse_cells(S.as_bytes()).unwrap(),
        );
        for stored in [None, Some(S)] {
            let a = augment_record(&raw(P, stored), &OPTS);
            assert_eq!(a.skip, None);
            assert_eq!(a.pairs.len(), 21);
            assert_eq!(a.pairs[0], Pair::new(p, Some(s), &Isomorph::IDENTITY));
            for pair in &a.pairs {
                let is = pair.solution.unwrap();
                let found = solver::solve(&pair.puzzle, 2);
                assert_eq!((found.count, found.grid), (1, Some(is)));
                let rebuilt: Isomorph = pair.code().parse().unwrap();
                assert_eq!((rebuilt.apply(&p), rebuilt.apply(&s)), (pair.puzzle, is));
            }
        }
    }

    #[test]
    fn unsolvable_and_wrong_rows_are_skipped_or_kept_bare() {
        let empty = ".".repeat(81);
        let a = augment_record(&raw(&empty, None), &OPTS);
        assert_eq!((a.skip, a.pairs.len()), (Some(Skip::Multiple), 0));
        let keep = AugmentOptions {
            keep_unsolved: true,
            ..OPTS
        };
        let a = augment_record(&raw(&empty, None), &keep);
        assert_eq!(a.skip, Some(Skip::Multiple));
        assert_eq!(a.pairs.len(), 21);
        assert!(a
            .pairs
            .iter()
            .all(|p| p.solution.is_none() && p.puzzle.clues() == 0));
        let mut wrong = S.as_bytes().to_vec();
        wrong.swap(0, 1);
        let a = augment_record(&raw(P, Some(std::str::from_utf8(&wrong).unwrap())), &keep);
        assert!(matches!(a.skip, Some(Skip::WrongSolution(_))));
        assert!(a.pairs.is_empty(), "a wrong stored solution is never kept");
        let clash = format!("11{}", ".".repeat(79));
        let a = augment_record(&raw(&clash, None), &keep);
        assert!(matches!(
            a.skip,
            Some(Skip::Invalid(ParseError::Conflict(_)))
        ));
        assert!(a.pairs.is_empty());
    }
}
