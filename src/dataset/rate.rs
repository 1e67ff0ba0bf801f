//! `rate`: a difficulty for every puzzle that all its isomorphs share (issue 13).
//!
//! A solver's guess count depends on the orientation it is given: on the same puzzle it
//! varies several times over between isomorphs. `rate` therefore solves `K` isomorphs and
//! averages, and draws them from the puzzle's *canonical form* ([`canon::minlex`]) with
//! [`Isomorph::keyed`]`(seed, hash(form), k)`: every isomorph of a puzzle has the same form,
//! so it is rated on exactly the same `K` grids and gets exactly the same rating.
//!
//! `rating` = mean over the samples of log2(1 + guesses), where guesses are those of our
//! solver proving the solution unique (counting up to 2 solutions; with [`SampleMode::First`]
//! finding it, uniqueness being proved once on the canonical form): 0 for a puzzle that
//! propagation alone solves, about 1 per doubling of the search tree.

use anyhow::Result;

use super::singles::solved_by_singles;
use super::{write_table, TableOutput};
use crate::canon;
use crate::engine::{FromPanic, ReadConfig};
use crate::grid::{Grid, ParseError};
use crate::input::{Layout, RawRecord};
use crate::isomorph::Isomorph;
use crate::output::table::{Column, Kind, TableWriter, Value, INPUT, LINE, RECORD};
use crate::report::{Status, StatusCounts};
use crate::solver;
use crate::summary::Notes;
use crate::verify::check::describe_puzzle;

/// The output columns; see the README's `rate` section for each.
pub const COLUMNS: &[Column] = &[
    RECORD,
    INPUT,
    LINE,
    Column {
        name: "clues",
        kind: Kind::Int,
    },
    Column {
        name: "status",
        kind: Kind::Text,
    },
    Column {
        name: "singles_only",
        kind: Kind::Bool,
    },
    Column {
        name: "rating",
        kind: Kind::Float,
    },
    Column {
        name: "guesses_min",
        kind: Kind::Int,
    },
    Column {
        name: "guesses_median",
        kind: Kind::Float,
    },
    Column {
        name: "guesses_max",
        kind: Kind::Int,
    },
];

/// Everything `rate` needs, validated.
#[derive(Clone, Debug)]
pub struct RateConfig {
    /// Inputs and how to read them.
    pub read: ReadConfig,
    /// Isomorphs solved per puzzle (at least 1).
    pub samples: u32,
    /// The generator's seed.
    pub seed: u64,
    /// How each sample is solved.
    pub mode: SampleMode,
    /// Where the ratings go.
    pub output: TableOutput,
}

/// Guess counts of a puzzle's samples, summarized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guesses {
    /// Mean of log2(1 + guesses) over the samples.
    pub rating: f64,
    /// Fewest guesses of a sample.
    pub min: u32,
    /// Median guesses (the mean of the two middle samples when their number is even).
    pub median: f64,
    /// Most guesses of a sample.
    pub max: u32,
}

/// The rating of one record.
#[derive(Clone, Debug)]
pub struct Rated {
    /// 0-based record over the run.
    pub record: u64,
    /// 1-based line in its input.
    pub line: u64,
    /// Givens, when the record is a puzzle.
    pub clues: Option<u32>,
    /// `solved` (exactly one solution), `multiple`, `unsolvable` or `invalid`.
    pub status: Status,
    /// Whether naked and hidden singles alone solve it (`None` for an invalid record).
    pub singles_only: Option<bool>,
    /// The samples' guesses, for a `solved` puzzle.
    pub guesses: Option<Guesses>,
    /// Why the record is `invalid`.
    pub error: Option<ParseError>,
}

/// A record whose work panicked: `invalid`, with the panic's message (exit 1).
impl FromPanic for Rated {
    fn from_panic(raw: &RawRecord, message: String) -> Rated {
        Rated {
            record: raw.record,
            line: raw.line,
            clues: raw.puzzle.as_ref().ok().map(Grid::clues),
            status: Status::Invalid,
            singles_only: None,
            guesses: None,
            error: Some(ParseError::Internal(message)),
        }
    }
}

/// How the samples of a puzzle are solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SampleMode {
    /// Each sample proves its solution unique (the solver counts to 2 solutions): the
    /// guesses are the size of the whole search tree.
    #[default]
    Unique,
    /// Uniqueness is proved once, on the canonical form; each sample stops at its first
    /// solution (`--first`): faster, but the guesses then depend on where the solution
    /// lies in the tree, so ratings are noisier (docs/GUIDE.md, `rate`).
    First,
}

/// The number of solutions of `puzzle` (up to 2, the same for every isomorph) and, when
/// it is exactly 1, the guesses of `samples` isomorphs of its canonical form drawn under
/// `seed`, solved as `mode` says, summarized. Depends only on the canonical form, so every
/// isomorph of `puzzle` gets the same result.
pub fn sample_guesses(
    puzzle: &Grid,
    samples: u32,
    seed: u64,
    mode: SampleMode,
) -> (Option<Guesses>, u32) {
    let form = canon::minlex(puzzle);
    let key = xxhash_rust::xxh3::xxh3_64(&form.0);
    let sample = |k: u64| Isomorph::keyed(seed, key, k).apply(&form);
    let (count, limit, mut guesses) = match mode {
        SampleMode::Unique => {
            let first = solver::solve(&sample(0), 2);
            (first.count, 2, vec![first.guesses])
        }
        SampleMode::First => (solver::solve(&form, 2).count, 1, Vec::new()),
    };
    if count != 1 {
        return (None, count);
    }
    let done = guesses.len() as u64;
    guesses.extend(
        (done..u64::from(samples.max(1))).map(|k| solver::solve(&sample(k), limit).guesses),
    );
    let rating = guesses.iter().map(|&g| f64::from(g).ln_1p()).sum::<f64>()
        / std::f64::consts::LN_2
        / guesses.len() as f64;
    guesses.sort_unstable();
    let n = guesses.len();
    let median = (f64::from(guesses[(n - 1) / 2]) + f64::from(guesses[n / 2])) / 2.0;
    let summary = Guesses {
        rating,
        min: guesses[0],
        median,
        max: guesses[n - 1],
    };
    (Some(summary), count)
}

/// The `rate` command's difficulty of one puzzle (its default mode, each sample proving
/// uniqueness): the same for every isomorph of the puzzle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Mean over the samples of log2(1 + guesses): 0 when propagation alone solves every
    /// sample, about 1 more per doubling of the search tree.
    pub rating: f64,
    /// Fewest guesses of a sample.
    pub min: u32,
    /// Median guesses (the mean of the two middle samples when their number is even).
    pub median: f64,
    /// Most guesses of a sample.
    pub max: u32,
    /// Whether naked and hidden singles alone solve the puzzle.
    pub singles_only: bool,
}

/// Rates `puzzle` as `sudoku-batch rate --samples <samples> --seed <seed>` does: the
/// guesses of `samples` (at least 1) isomorphs of its canonical form drawn under `seed`,
/// each solved proving uniqueness ([`sample_guesses`] in [`SampleMode::Unique`]).
/// `None` when the puzzle does not have exactly one solution (none, several, or clashing
/// givens). Every isomorph of `puzzle` gets the same rating.
///
/// ```
/// use sudoku_batch::{rate, Grid, Isomorph};
/// let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
/// let r = rate(&p, 8, 1).unwrap();
/// assert!(r.min as f64 <= r.median && r.median <= r.max as f64);
/// assert_eq!(rate(&Isomorph::keyed(3, 4, 5).apply(&p), 8, 1), Some(r));
/// assert_eq!(rate(&Grid::EMPTY, 8, 1), None);
/// ```
pub fn rate(puzzle: &Grid, samples: u32, seed: u64) -> Option<Rating> {
    let (guesses, _) = sample_guesses(puzzle, samples, seed, SampleMode::Unique);
    let g = guesses?;
    Some(Rating {
        rating: g.rating,
        min: g.min,
        median: g.median,
        max: g.max,
        singles_only: solved_by_singles(puzzle),
    })
}

/// Rates one record: its status, whether singles solve it, and for a uniquely solvable
/// puzzle the guesses of `samples` isomorphs of its canonical form drawn under `seed`,
/// solved as `mode` says.
pub fn rate_record(raw: &RawRecord, samples: u32, seed: u64, mode: SampleMode) -> Rated {
    let mut out = Rated {
        record: raw.record,
        line: raw.line,
        clues: None,
        status: Status::Invalid,
        singles_only: None,
        guesses: None,
        error: None,
    };
    // Not a puzzle, or clashing givens: `invalid`, with no clues, as `canon` and `dedup`
    // say it (a clash once gave `clues` beside an `invalid` status).
    let puzzle = match raw.checked_puzzle() {
        Ok(p) => p,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    out.clues = Some(puzzle.clues());
    out.singles_only = Some(solved_by_singles(puzzle));
    let (guesses, count) = sample_guesses(puzzle, samples, seed, mode);
    out.status = match count {
        0 => Status::Unsolvable,
        1 => Status::Solved,
        _ => Status::Multiple,
    };
    out.guesses = guesses;
    out
}

/// What a `rate` run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct RateSummary {
    /// Records by status.
    pub status: StatusCounts,
    /// Records solved by singles alone.
    pub singles_only: u64,
    /// Sum of the ratings of the `solved` records.
    pub rating_sum: f64,
    /// The run was stopped by Ctrl-C.
    pub interrupted: bool,
}

fn write_record(
    table: &mut (dyn TableWriter + Send),
    summary: &mut RateSummary,
    notes: &mut Notes,
    path: &str,
    layout: &Layout,
    r: &Rated,
) -> std::io::Result<()> {
    summary.status.add(r.status);
    summary.singles_only += u64::from(r.singles_only == Some(true));
    match (&r.error, r.status) {
        (Some(e), _) => notes.add(path, r.line, describe_puzzle(e, layout)),
        (None, Status::Solved) => {}
        (None, s) => notes.add(path, r.line, s.as_str()),
    }
    let int = |n: Option<u32>| n.map_or(Value::Null, |n| Value::Int(u64::from(n)));
    let g = r.guesses;
    summary.rating_sum += g.map_or(0.0, |g| g.rating);
    table.write_row(&[
        Value::Int(r.record),
        Value::Text(path),
        Value::Int(r.line),
        int(r.clues),
        Value::Text(r.status.as_str()),
        r.singles_only.map_or(Value::Null, Value::Bool),
        g.map_or(Value::Null, |g| Value::Float(g.rating)),
        int(g.map(|g| g.min)),
        g.map_or(Value::Null, |g| Value::Float(g.median)),
        int(g.map(|g| g.max)),
    ])
}

/// Runs `rate` as configured: writes one row per record, prints a summary to stderr, and
/// returns the counts.
///
/// # Errors
/// Fatal problems only (exit 2): an input that cannot be opened or read, an output that
/// cannot be written.
pub fn run_rate(cfg: &RateConfig) -> Result<RateSummary> {
    let (samples, seed, mode) = (cfg.samples, cfg.seed, cfg.mode);
    rate_with(cfg, |raw| rate_record(raw, samples, seed, mode))
}

/// [`run_rate`] with `work` for [`rate_record`] (tests give one that panics).
pub(crate) fn rate_with<W>(cfg: &RateConfig, work: W) -> Result<RateSummary>
where
    W: Fn(&RawRecord) -> Rated + Sync,
{
    let mut summary = RateSummary::default();
    let mut notes = Notes::default();
    summary.interrupted = write_table(
        &cfg.read,
        &cfg.output,
        COLUMNS,
        work,
        |table, path, layout, r| {
            Ok(write_record(
                table,
                &mut summary,
                &mut notes,
                path,
                layout,
                r,
            )?)
        },
    )?;
    notes.print("records not rated");
    if !cfg.read.quiet {
        let c = &summary.status;
        let mean = summary.rating_sum / c.solved.max(1) as f64;
        eprintln!("sudoku-batch: {}", c.line("rated", summary.interrupted));
        eprintln!(
            "sudoku-batch: mean rating {mean:.3}; {} solved by singles alone",
            summary.singles_only
        );
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_cells;

    #[test]
    fn clashing_givens_are_invalid_without_clues() {
        let mut text =
            *b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
        text[9] = b'3'; // a second 3 in row 2
        let raw = RawRecord {
            record: 0,
            line: 1,
            puzzle: parse_cells(&text),
            solution: None,
            fields: None,
        };
        let r = rate_record(&raw, 4, 0, SampleMode::First);
        assert_eq!(r.status, Status::Invalid);
        assert_eq!((r.clues, r.singles_only), (None, None));
        assert!(
            matches!(r.error, Some(ParseError::Conflict(_))),
            "{:?}",
            r.error
        );
        assert!(r.guesses.is_none());
    }

    #[test]
    fn isomorphs_get_the_same_rating_and_different_seeds_may_not() {
        let p = parse_cells(
            b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        )
        .unwrap();
        for mode in [SampleMode::Unique, SampleMode::First] {
            let (base, count) = sample_guesses(&p, 6, 1, mode);
            assert_eq!(count, 1);
            let base = base.unwrap();
            assert!(base.min as f64 <= base.median && base.median <= base.max as f64);
            for k in 0..20 {
                let iso = Isomorph::keyed(99, 0, k).apply(&p);
                assert_eq!(sample_guesses(&iso, 6, 1, mode).0, Some(base), "{mode:?}");
            }
        }
    }
}
