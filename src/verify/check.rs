//! The per-row checks of `verify`, run on the rayon workers: one [`Verdict`] and a readable
//! detail for each record, in a fixed order (puzzle first, then the stored solution).
//!
//! Order of the checks, the first that fails gives the verdict:
//! 1. `puzzle-malformed`: the puzzle field is not 81 cells (length, character, ragged row);
//! 2. `clue-conflict`: two equal givens share a unit ([`Grid::conflicts`]), no search;
//! 3. `no-solution` / `multiple-solutions`: the solver counts solutions up to the limit;
//! 4. `solution-malformed`: the stored solution is not 81 digits 1-9;
//! 5. `solution-illegal`: it is not a complete valid grid (a unit repeats a digit);
//! 6. `solution-contradicts-clue`: it is valid but disagrees with a given;
//! 7. `solution-wrong`: it differs from the unique solution the solver found.
//!
//! A valid grid that keeps every given of a unique puzzle *is* its solution, so 7 can only
//! fire when the solver itself is wrong: it is the cross-check between the dataset and the
//! solver, and costs one 81-byte comparison.

use xxhash_rust::xxh3::xxh3_128;

use crate::grid::{cell_name, Grid, ParseError, CELLS};
use crate::input::{Layout, RawRecord};
use crate::solver;

/// The verdict on one row of a dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Every check passed.
    Ok,
    /// Every check passed, but the same puzzle (blanks normalised) stands on an earlier row.
    /// Informational: it does not fail the run.
    Duplicate,
    /// The puzzle field is not 81 cells: wrong length, a bad character, a ragged CSV row.
    PuzzleMalformed,
    /// Two equal givens in one row, column or box.
    ClueConflict,
    /// No grid completes the givens.
    NoSolution,
    /// Two or more grids complete the givens.
    MultipleSolutions,
    /// The stored solution is not 81 digits 1-9 (a blank, a bad character, a wrong length).
    SolutionMalformed,
    /// The stored solution is 81 digits but not a valid grid: a unit repeats a digit.
    SolutionIllegal,
    /// The stored solution is a valid grid that disagrees with a given of the puzzle.
    SolutionContradictsClue,
    /// The puzzle is unique and the stored solution is not its solution.
    SolutionWrong,
    /// The checks panicked on this row: a bug in sudoku-batch, not a verdict on the row.
    InternalError,
}

impl Verdict {
    /// Every verdict, in the order of the checks (`ok` and `duplicate` first).
    pub const ALL: [Verdict; 11] = [
        Verdict::Ok,
        Verdict::Duplicate,
        Verdict::PuzzleMalformed,
        Verdict::ClueConflict,
        Verdict::NoSolution,
        Verdict::MultipleSolutions,
        Verdict::SolutionMalformed,
        Verdict::SolutionIllegal,
        Verdict::SolutionContradictsClue,
        Verdict::SolutionWrong,
        Verdict::InternalError,
    ];

    /// The word used in every output: `ok`, `duplicate`, `puzzle-malformed`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Duplicate => "duplicate",
            Verdict::PuzzleMalformed => "puzzle-malformed",
            Verdict::ClueConflict => "clue-conflict",
            Verdict::NoSolution => "no-solution",
            Verdict::MultipleSolutions => "multiple-solutions",
            Verdict::SolutionMalformed => "solution-malformed",
            Verdict::SolutionIllegal => "solution-illegal",
            Verdict::SolutionContradictsClue => "solution-contradicts-clue",
            Verdict::SolutionWrong => "solution-wrong",
            Verdict::InternalError => "internal-error",
        }
    }

    /// Whether a row with this verdict fails the run (exit 1): every verdict but `ok` and
    /// `duplicate`.
    pub fn is_rejection(self) -> bool {
        !matches!(self, Verdict::Ok | Verdict::Duplicate)
    }

    /// Whether this verdict says the stored solution is wrong (the `solution-*` verdicts),
    /// rather than something about the puzzle.
    pub fn is_stored_solution_problem(self) -> bool {
        matches!(
            self,
            Verdict::SolutionMalformed
                | Verdict::SolutionIllegal
                | Verdict::SolutionContradictsClue
                | Verdict::SolutionWrong
        )
    }
}

/// Names of the fields in details: the CSV header's names, else `puzzle` and `solution`.
#[derive(Clone, Debug)]
pub struct FieldNames {
    /// Name of the puzzle field.
    pub puzzle: String,
    /// Name of the solution field.
    pub solution: String,
}

impl FieldNames {
    /// The names of `layout`'s puzzle and solution columns in its header, each else the
    /// default (`puzzle`, `solution`: lines, a CSV without a header).
    pub fn of(layout: &Layout) -> FieldNames {
        let mut names = FieldNames::default();
        if let (Some(h), Some((puzzle, solution))) = (layout.header(), layout.columns()) {
            if let Some(n) = h.get(puzzle) {
                names.puzzle.clone_from(n);
            }
            if let Some(n) = solution.and_then(|s| h.get(s)) {
                names.solution.clone_from(n);
            }
        }
        names
    }
}

impl Default for FieldNames {
    fn default() -> Self {
        FieldNames {
            puzzle: "puzzle".into(),
            solution: "solution".into(),
        }
    }
}

/// What the checks found for one record (before duplicates are looked up).
#[derive(Clone, Debug)]
pub struct Checked {
    /// The verdict of the checks; never [`Verdict::Duplicate`] (that is decided in order).
    pub verdict: Verdict,
    /// Why the verdict is not `ok`; `None` for `ok`.
    pub detail: Option<String>,
    /// Givens in the puzzle, when it parsed.
    pub clues: Option<u8>,
    /// Guesses the solver made (0 when it did not run).
    pub guesses: u32,
    /// 128-bit xxh3 hash of the puzzle's 81 cells with blanks as 0, when it parsed.
    pub fingerprint: Option<u128>,
    /// The stored solution was compared and is wrong: a `solution-*` verdict other than
    /// `solution-malformed`, or a non-unique puzzle whose stored grid is none of its
    /// solutions. A non-unique puzzle whose stored grid is one of its solutions is not a
    /// mismatch.
    pub stored_wrong: bool,
    /// The row's stored solution was read and compared with the puzzle: false without one,
    /// when it is malformed (see `stored_malformed`), or when the puzzle failed first
    /// (malformed, clashing, no solution).
    pub compared: bool,
    /// The row's stored solution would have been compared but is malformed (not 81 digits
    /// 1-9), so it was not: never true with `compared`.
    pub stored_malformed: bool,
}

/// Runs every check on `raw`, counting solutions up to `limit` (at least 2).
pub fn check_record(raw: &RawRecord, limit: u32, names: &FieldNames) -> Checked {
    let mut out = Checked {
        verdict: Verdict::Ok,
        detail: None,
        clues: None,
        guesses: 0,
        fingerprint: None,
        stored_wrong: false,
        compared: false,
        stored_malformed: false,
    };
    let puzzle = match &raw.puzzle {
        Ok(p) => p,
        Err(e) => return out.with(Verdict::PuzzleMalformed, describe(e, &names.puzzle)),
    };
    out.clues = Some(puzzle.clues() as u8);
    out.fingerprint = Some(fingerprint(puzzle));
    let limit = limit.max(2);
    let found = solver::solve(puzzle, limit);
    if found.givens_clash {
        let c = puzzle
            .conflicts()
            .unwrap_or_else(|| "two givens clash".to_string());
        return out.with(Verdict::ClueConflict, c);
    }
    out.guesses = found.guesses;
    let stored = raw.solution.as_ref();
    let reached = found.count > 0;
    out.compared = reached && matches!(stored, Some(Ok(_)));
    out.stored_malformed = reached && matches!(stored, Some(Err(_)));
    match found.count {
        0 => {
            let d = format!("no grid completes the {} givens", puzzle.clues());
            out.with(Verdict::NoSolution, d)
        }
        1 => {
            let unique = found.grid.expect("a counted solution is kept");
            match stored.and_then(|s| judge_stored(puzzle, s, Some(&unique), names)) {
                Some((v, d)) => out.with(v, d),
                None => out,
            }
        }
        n => {
            let mut d = if n < limit {
                format!("exactly {n} solutions")
            } else {
                format!("at least {n} solutions (counted up to --limit {limit})")
            };
            match stored.map(|s| judge_stored(puzzle, s, None, names)) {
                Some(None) => d.push_str("; the stored solution is one of them"),
                Some(Some((v, why))) => {
                    out.stored_wrong = out.compared;
                    d.push_str(&format!(
                        "; the stored solution is also {}: {why}",
                        v.as_str()
                    ));
                }
                None => {}
            }
            out.with(Verdict::MultipleSolutions, d)
        }
    }
}

impl Checked {
    fn with(mut self, verdict: Verdict, detail: String) -> Checked {
        self.stored_wrong |= self.compared && verdict.is_stored_solution_problem();
        self.verdict = verdict;
        self.detail = Some(detail);
        self
    }
}

/// The fingerprint used to find repeated puzzles: xxh3-128 of the 81 cells, `0` = blank, so
/// `.`, `0` and `_` blanks give the same fingerprint.
pub fn fingerprint(puzzle: &Grid) -> u128 {
    xxh3_128(&puzzle.0)
}

/// Checks a stored solution against `puzzle` and, when the puzzle is unique, against its
/// solution `unique`. `None` when it passes; else the failing verdict and its detail.
pub fn judge_stored(
    puzzle: &Grid,
    stored: &Result<Grid, ParseError>,
    unique: Option<&Grid>,
    names: &FieldNames,
) -> Option<(Verdict, String)> {
    let stored = match stored {
        Ok(g) => g,
        Err(e) => {
            let mut d = describe(e, &names.solution);
            if let (Some(cell), Some(u)) = (error_cell(e), unique) {
                d.push_str(&format!("; the unique solution has {} there", u.0[cell]));
            }
            return Some((Verdict::SolutionMalformed, d));
        }
    };
    // The fast path of every good row: the unique solution is a valid grid with the givens.
    if unique == Some(stored) {
        return None;
    }
    if let Some(mut c) = stored.conflicts() {
        // How far off it is, which the (capped) list of repeats does not say: a solution
        // shifted by one character differs from the unique one almost everywhere.
        if let Some(u) = unique {
            let differ = (0..CELLS).filter(|&i| u.0[i] != stored.0[i]).count();
            c.push_str(&format!(
                "; {differ} of 81 cells {} from the unique solution",
                differ_verb(differ)
            ));
        }
        return Some((Verdict::SolutionIllegal, c));
    }
    if !stored.keeps_givens(puzzle) {
        return Some((
            Verdict::SolutionContradictsClue,
            contradiction(puzzle, stored),
        ));
    }
    let u = unique?;
    let first = (0..CELLS)
        .find(|&i| u.0[i] != stored.0[i])
        .expect("the grids differ");
    let differ = (0..CELLS).filter(|&i| u.0[i] != stored.0[i]).count();
    Some((
        Verdict::SolutionWrong,
        format!(
            "{}: solution {}, the unique solution has {}; {differ} of 81 cells {}",
            cell_name(first),
            stored.0[first],
            u.0[first],
            differ_verb(differ)
        ),
    ))
}

/// `r1c2: clue 4, solution 9; 28 of 34 clues differ`.
fn contradiction(puzzle: &Grid, stored: &Grid) -> String {
    let differs = |i: &usize| puzzle.0[*i] != 0 && puzzle.0[*i] != stored.0[*i];
    let first = (0..CELLS).find(differs).expect("some given differs");
    let n = (0..CELLS).filter(differs).count();
    format!(
        "{}: clue {}, solution {}; {n} of {} clues {}",
        cell_name(first),
        puzzle.0[first],
        stored.0[first],
        puzzle.clues(),
        differ_verb(n)
    )
}

/// `differs` after `1 of 81 cells`, `differ` after any other count.
fn differ_verb(n: usize) -> &'static str {
    if n == 1 {
        "differs"
    } else {
        "differ"
    }
}

/// The 0-based cell a parse error points at, when it points at one of the 81 cells.
fn error_cell(e: &ParseError) -> Option<usize> {
    match *e {
        ParseError::BadChar { column, .. } | ParseError::BlankInSolution { column, .. }
            if (1..=CELLS).contains(&column) =>
        {
            Some(column - 1)
        }
        _ => None,
    }
}

/// A parse error as a detail naming the field: `solution: r9c9: blank '0', expected a digit
/// 1-9`, `question: 80 characters, expected 81`; a row-level error (ragged row, unclosed
/// quote, JSON record) as `row: ...`; clashing givens as [`Grid::conflicts`] words them.
pub fn describe(e: &ParseError, field: &str) -> String {
    match e {
        ParseError::Length { found: 0, .. } => format!("{field}: empty, expected 81 cells"),
        ParseError::FieldCount { .. }
        | ParseError::MissingField { .. }
        | ParseError::LineTooLong { .. }
        | ParseError::UnclosedQuote { .. }
        | ParseError::Record(_) => {
            format!("row: {e}")
        }
        ParseError::Conflict(_) | ParseError::Internal(_) => e.to_string(),
        ParseError::BadChar { .. }
        | ParseError::LengthAndChar { .. }
        | ParseError::BlankInSolution { .. }
        | ParseError::Length { .. }
        | ParseError::Scientific { .. }
        | ParseError::SpansLines { .. } => format!("{field}: {e}"),
    }
}

/// Why a record of an input in `layout` is not a puzzle, as every command words it:
/// [`describe`] with the puzzle column's name for a CSV, JSON Lines or Parquet input
/// (`question: 80 characters, expected 81`), the error alone for a lines input, whose one
/// field needs no name (`r5c5: invalid character 'x' (character 41)`). Worded only when
/// displayed: the commands name their first few invalid records and count the rest, which
/// then cost no text.
pub fn describe_puzzle<'a>(e: &'a ParseError, layout: &'a Layout) -> PuzzleReason<'a> {
    PuzzleReason { error: e, layout }
}

/// [`describe_puzzle`]'s reason, worded when displayed.
pub struct PuzzleReason<'a> {
    error: &'a ParseError,
    layout: &'a Layout,
}

impl std::fmt::Display for PuzzleReason<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.layout {
            Layout::Lines { .. } => self.error.fmt(f),
            Layout::Csv { .. } | Layout::Columns { .. } => {
                f.write_str(&describe(self.error, &FieldNames::of(self.layout).puzzle))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::fixtures::{P, S};
    use crate::grid::{parse_cells, parse_solution};

    fn raw(puzzle: &str, solution: Option<&str>) -> RawRecord {
        RawRecord {
            record: 0,
            line: 1,
            puzzle: parse_cells(puzzle.as_bytes()),
            solution: solution.map(|s| parse_solution(s.as_bytes())),
            fields: None,
        }
    }

    fn verdict(puzzle: &str, solution: Option<&str>) -> (Verdict, String) {
        let c = check_record(&raw(puzzle, solution), 2, &FieldNames::default());
        (c.verdict, c.detail.unwrap_or_default())
    }

    #[test]
    fn good_row_and_puzzle_only_row_are_ok() {
        assert_eq!(verdict(P, Some(S)), (Verdict::Ok, String::new()));
        assert_eq!(verdict(P, None), (Verdict::Ok, String::new()));
        let c = check_record(&raw(P, Some(S)), 2, &FieldNames::default());
        assert_eq!(
            c.clues,
            Some(P.bytes().filter(|&b| b != b'.').count() as u8)
        );
    }

    #[test]
    fn blank_symbols_share_a_fingerprint() {
        let a = parse_cells(P.as_bytes()).unwrap();
        let b = parse_cells(P.replace('.', "0").as_bytes()).unwrap();
        assert_eq!(fingerprint(&a), fingerprint(&b));
        assert_ne!(fingerprint(&a), fingerprint(&Grid::EMPTY));
    }

    #[test]
    fn solution_wrong_names_the_first_differing_cell() {
        // Reachable only if the solver is wrong: inject a "unique solution" that differs
        // from the (valid, consistent) stored one in a non-given cell.
        let puzzle = parse_cells(P.as_bytes()).unwrap();
        let stored = parse_solution(S.as_bytes()).unwrap();
        let mut other = stored;
        other.0[0] = 9;
        let got = judge_stored(&puzzle, &Ok(stored), Some(&other), &FieldNames::default());
        assert_eq!(
            got,
            Some((
                Verdict::SolutionWrong,
                "r1c1: solution 6, the unique solution has 9; 1 of 81 cells differs".to_string()
            ))
        );
    }

    #[test]
    fn malformed_solution_names_the_cell_and_the_right_digit() {
        let zero = format!("{}0", &S[..80]);
        let (v, d) = verdict(P, Some(&zero));
        assert_eq!(v, Verdict::SolutionMalformed);
        assert_eq!(
            d,
            "solution: r9c9: blank '0', expected a digit 1-9; the unique solution has 4 there"
        );
    }

    #[test]
    fn non_unique_puzzle_says_whether_the_stored_solution_is_one_of_its_solutions() {
        // S with r3c4, r3c6, r6c4, r6c6 blanked: two columns of one stack, rows of two
        // bands, digits 9 5 / 5 9, so exactly two grids complete it (case C09).
        let mut two: Vec<u8> = S.bytes().collect();
        for i in [21, 23, 48, 50] {
            two[i] = b'.';
        }
        let two = String::from_utf8(two).unwrap();
        let (v, d) = verdict(&two, Some(S));
        assert_eq!(v, Verdict::MultipleSolutions);
        assert_eq!(
            d,
            "at least 2 solutions (counted up to --limit 2); the stored solution is one of them"
        );
        let c = check_record(&raw(&two, Some(S)), 3, &FieldNames::default());
        assert!(!c.stored_wrong, "the stored grid is one of the solutions");
        assert_eq!(
            c.detail.unwrap(),
            "exactly 2 solutions; the stored solution is one of them"
        );
        let swapped = format!("56{}", &S[2..]);
        let c = check_record(&raw(&two, Some(&swapped)), 2, &FieldNames::default());
        assert!(
            c.stored_wrong,
            "non-unique, and the stored grid is illegal too"
        );
        let (v, d) = verdict(&two, Some(&swapped));
        assert_eq!(v, Verdict::MultipleSolutions);
        assert_eq!(
            d,
            "at least 2 solutions (counted up to --limit 2); the stored solution is also \
             solution-illegal: 5 twice in col 1 (r1c1, r8c1); 6 twice in col 2 (r1c2, r7c2)"
        );
    }

    #[test]
    fn every_verdict_has_a_distinct_word() {
        let words: std::collections::HashSet<&str> =
            Verdict::ALL.iter().map(|v| v.as_str()).collect();
        assert_eq!(words.len(), Verdict::ALL.len());
        assert!(!Verdict::Ok.is_rejection() && !Verdict::Duplicate.is_rejection());
        assert!(Verdict::ALL[2..].iter().all(|v| v.is_rejection()));
    }
}
