//! Step-by-step solutions with named techniques (issue 35): a logic solver on a candidates
//! [`board`] that applies the techniques of [`Technique`] simplest first, and guesses with
//! backtracking when they stall, so every solvable puzzle gets a complete trace.
//!
//! [`trace`] records every step in order: placements (a digit put in a cell), eliminations
//! (candidates removed), guesses (a digit tried in a cell when no technique applies) and
//! backtracks (a guess that led to a contradiction taken back: the board returns to its
//! state before the guess and the guessed digit is removed from the cell). Steps taken under
//! a guess that failed are marked [`Step::undone`].
//!
//! The order is deterministic: at each step the techniques are tried in [`Technique`] code
//! order; within a technique, cells row-major, units rows then columns then boxes (boxes
//! first for hidden singles and pointing), digits ascending. A guess takes the first empty
//! cell with the fewest candidates and tries its digits ascending.
//!
//! # Technique codes
//!
//! Stable; also the strategy codes of the [`shah`] layout. `hardest` in the summary is the
//! highest code used (guess 17 counts, backtrack does not).
//!
//! | code | name | kind |
//! |---|---|---|
//! | 0 | `given` | (a given, in the Shah layout only) |
//! | 1 | `naked_single` | placement |
//! | 2 | `hidden_single_box` | placement |
//! | 3 | `hidden_single_row` | placement |
//! | 4 | `hidden_single_column` | placement |
//! | 5 | `pointing` | elimination |
//! | 6 | `claiming` | elimination |
//! | 7 | `naked_pair` | elimination |
//! | 8 | `x_wing` | elimination |
//! | 9 | `hidden_pair` | elimination |
//! | 10 | `naked_triple` | elimination |
//! | 11 | `swordfish` | elimination |
//! | 12 | `hidden_triple` | elimination |
//! | 13 | `xy_wing` | elimination |
//! | 14 | `xyz_wing` | elimination |
//! | 15 | `naked_quad` | elimination |
//! | 16 | `hidden_quad` | elimination |
//! | 17 | `guess` | guess (a placement that may be taken back) |
//! | 18 | `backtrack` | backtrack |
//!
//! The order after the singles follows the Sudoku Explainer ratings of the techniques
//! (pointing 2.6, claiming 2.8, naked pair 3.0, X-wing 3.2, hidden pair 3.4, naked triple
//! 3.6, swordfish 3.8, hidden triple 4.0, XY-wing 4.2, XYZ-wing 4.4, naked quad 5.0, hidden
//! quad 5.4).

pub mod board;
mod fish;
pub mod json;
mod opening;
mod quiet;
mod run;
pub mod shah;
mod singles;
mod subsets;
mod wings;

pub use run::{trace, trace_into};

use board::Cells;

/// A named technique (see the module's table for codes and order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Technique {
    /// A given of the puzzle (Shah layout only).
    Given = 0,
    /// A cell with one candidate left.
    NakedSingle,
    /// The only cell of a box that can hold a digit.
    HiddenSingleBox,
    /// The only cell of a row that can hold a digit.
    HiddenSingleRow,
    /// The only cell of a column that can hold a digit.
    HiddenSingleColumn,
    /// A digit's candidates in a box all in one line: removed from the rest of that line.
    Pointing,
    /// A digit's candidates in a line all in one box: removed from the rest of that box.
    Claiming,
    /// Two cells of a unit with the same two candidates: removed from the unit's other cells.
    NakedPair,
    /// A digit's candidates in two lines all in two crossing lines: removed from the rest
    /// of the crossing lines.
    XWing,
    /// Two digits that only two cells of a unit can hold: the cells' other candidates go.
    HiddenPair,
    /// Three cells of a unit whose candidates are three digits.
    NakedTriple,
    /// The X-wing of three lines.
    Swordfish,
    /// Three digits that only three cells of a unit can hold.
    HiddenTriple,
    /// A pivot {x,y} seeing pincers {x,z} and {y,z}: z goes from cells seeing both pincers.
    XyWing,
    /// A pivot {x,y,z} seeing pincers {x,z} and {y,z}: z goes from cells seeing all three.
    XyzWing,
    /// Four cells of a unit whose candidates are four digits.
    NakedQuad,
    /// Four digits that only four cells of a unit can hold.
    HiddenQuad,
    /// A digit tried in a cell when no technique applies.
    Guess,
    /// A guess taken back after a contradiction.
    Backtrack,
}

impl Technique {
    /// Every technique, in code order.
    pub const ALL: [Technique; 19] = [
        Technique::Given,
        Technique::NakedSingle,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleRow,
        Technique::HiddenSingleColumn,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::Guess,
        Technique::Backtrack,
    ];

    /// The stable code (0..=18) of the module's table.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The technique of code `code`, if any.
    pub fn from_code(code: u8) -> Option<Technique> {
        Technique::ALL.get(usize::from(code)).copied()
    }

    /// The snake_case name of the module's table (`naked_single`, `x_wing`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Technique::Given => "given",
            Technique::NakedSingle => "naked_single",
            Technique::HiddenSingleBox => "hidden_single_box",
            Technique::HiddenSingleRow => "hidden_single_row",
            Technique::HiddenSingleColumn => "hidden_single_column",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked_pair",
            Technique::XWing => "x_wing",
            Technique::HiddenPair => "hidden_pair",
            Technique::NakedTriple => "naked_triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden_triple",
            Technique::XyWing => "xy_wing",
            Technique::XyzWing => "xyz_wing",
            Technique::NakedQuad => "naked_quad",
            Technique::HiddenQuad => "hidden_quad",
            Technique::Guess => "guess",
            Technique::Backtrack => "backtrack",
        }
    }
}

/// What a step does to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    // The discriminants index the counts in `Trace::summary`.
    /// Puts [`Step::digit`] in [`Step::cell`].
    Placement = 0,
    /// Removes the candidates [`Trace::removed_by`] lists.
    Elimination = 1,
    /// Puts [`Step::digit`] in [`Step::cell`] on trial; the board before it is kept.
    Guess = 2,
    /// The board is in contradiction: returns to the board before the latest guess still
    /// open, and removes that guess's digit ([`Step::digit`]) from its cell ([`Step::cell`]).
    Backtrack = 3,
}

impl StepKind {
    /// `placement`, `elimination`, `guess` or `backtrack`.
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Placement => "placement",
            StepKind::Elimination => "elimination",
            StepKind::Guess => "guess",
            StepKind::Backtrack => "backtrack",
        }
    }
}

/// No cell ([`Step::cell`] of an elimination that has no pivot).
pub const NO_CELL: u8 = u8::MAX;

/// One step of a trace. Which fields a technique fills (cells 0..81 row-major, digits
/// 1..=9, units 0..27: rows 0-8, columns 9-17, boxes 18-26):
///
/// | technique | `cell`, `digit` | `cells` | `digits` | `base` → `cover` units |
/// |---|---|---|---|---|
/// | naked single, guess, backtrack | the cell and digit | – | – | – |
/// | hidden single | the cell and digit | – | – | the unit → – |
/// | pointing, claiming, X-wing, swordfish | –, the digit | the digit's cells in `base` | – | box → line, line → box, 2 or 3 lines → as many crossing lines |
/// | naked/hidden subsets | – | the subset's cells | the subset's digits | the unit → – |
/// | XY-wing, XYZ-wing | the pivot, z | the two pincers | the pivot's digits | – |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// What it does.
    pub kind: StepKind,
    /// Why.
    pub technique: Technique,
    /// The cell placed, guessed or taken back, or a wing's pivot; [`NO_CELL`] otherwise.
    pub cell: u8,
    /// The digit placed, guessed or taken back, or the one digit of a single-digit
    /// elimination; 0 otherwise.
    pub digit: u8,
    /// The pattern's cells (see the table).
    pub cells: Cells,
    /// The pattern's digits, bit `d - 1` = digit `d`.
    pub digits: u16,
    /// The pattern's base units, bit `u` = unit `u`.
    pub base: u32,
    /// The pattern's cover units, bit `u` = unit `u`.
    pub cover: u32,
    /// Guesses open when the step was taken (0 = on the puzzle's own logic).
    pub depth: u16,
    /// Taken under a guess that later failed (undone by a backtrack).
    pub undone: bool,
    /// Index range of this step's removals in [`Trace::removed`].
    pub removed: (u32, u32),
}

impl Step {
    /// A step of `kind` by `technique` with no pattern, cell or digit yet.
    pub(crate) fn new(kind: StepKind, technique: Technique) -> Step {
        Step {
            kind,
            technique,
            cell: NO_CELL,
            digit: 0,
            cells: 0,
            digits: 0,
            base: 0,
            cover: 0,
            depth: 0,
            undone: false,
            removed: (0, 0),
        }
    }
}

/// How a trace ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The grid was completed.
    Solved,
    /// Every branch ended in a contradiction: the puzzle has no solution.
    Unsolvable,
    /// Two givens share a unit and a digit: no step was taken.
    Clash,
}

/// A puzzle's trace: its steps and, for each elimination, the candidates it removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Candidates removed by the eliminations: (cell 0..81, digit mask); each step's slice
    /// is [`Step::removed`].
    pub removed: Vec<(u8, u16)>,
    /// The final grid (the solution when [`Trace::outcome`] is `Solved`), row-major, 0 =
    /// empty.
    pub grid: crate::grid::Grid,
    /// How it ended; `None` before [`trace_into`] has run.
    pub outcome: Option<Outcome>,
}

impl Default for Trace {
    fn default() -> Trace {
        Trace {
            steps: Vec::new(),
            removed: Vec::new(),
            grid: crate::grid::Grid::EMPTY,
            outcome: None,
        }
    }
}

impl Trace {
    /// The candidates removed by `step`: (cell, digit mask) pairs.
    pub fn removed_by(&self, step: &Step) -> &[(u8, u16)] {
        &self.removed[step.removed.0 as usize..step.removed.1 as usize]
    }

    /// The solution count of `puzzle` (the puzzle this trace is of) up to 2: 0 when the
    /// trace found none or the givens clash; 1 without a search when the trace is solved
    /// with no guess (every technique is a sound deduction, none assumes uniqueness, so a
    /// grid reached by them alone is the only solution); else by the solver, counting to 2.
    pub fn solution_count(&self, puzzle: &crate::grid::Grid) -> u32 {
        match self.outcome {
            Some(Outcome::Solved) if self.steps.iter().all(|s| s.kind != StepKind::Guess) => 1,
            Some(Outcome::Solved) => crate::solver::solve(puzzle, 2).count,
            _ => 0,
        }
    }

    /// The steps that `trace`'s outputs write, with their index in the full trace: every
    /// step, or with `placements_only` the placements and guesses that stand in the
    /// solution (the steps of the Shah layout).
    pub fn kept_steps(&self, placements_only: bool) -> impl Iterator<Item = (usize, &Step)> {
        self.steps.iter().enumerate().filter(move |(_, s)| {
            !placements_only
                || (matches!(s.kind, StepKind::Placement | StepKind::Guess) && !s.undone)
        })
    }

    /// The per-puzzle summary.
    pub fn summary(&self) -> Summary {
        // One pass without a branch a step: counts by kind, the highest code (plus one, 0
        // for none; a backtrack counts as none), the deepest nesting.
        let (mut by_kind, mut highest, mut max_depth) = ([0u32; 4], 0u8, 0u16);
        for st in &self.steps {
            by_kind[st.kind as usize] += 1;
            let counted = u8::from(st.kind != StepKind::Backtrack);
            highest = highest.max((st.technique.code() + 1) * counted);
            max_depth = max_depth.max(st.depth);
        }
        let [placements, eliminations, guesses, backtracks] = by_kind;
        Summary {
            steps: self.steps.len() as u32,
            placements,
            eliminations,
            guesses,
            backtracks,
            hardest: highest.checked_sub(1).and_then(Technique::from_code),
            max_depth: u32::from(max_depth),
        }
    }
}

/// A puzzle's trace in numbers, a human-style difficulty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Steps of every kind.
    pub steps: u32,
    /// Placement steps (guesses not counted).
    pub placements: u32,
    /// Elimination steps.
    pub eliminations: u32,
    /// Guesses.
    pub guesses: u32,
    /// Backtracks (failed guesses).
    pub backtracks: u32,
    /// The highest technique code used, backtracks aside; `None` when no step was taken.
    pub hardest: Option<Technique>,
    /// The deepest guess nesting.
    pub max_depth: u32,
}
