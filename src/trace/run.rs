//! The trace runner: techniques simplest first, a guess when they stall, a backtrack when
//! the board is in contradiction.

use super::board::{bit, cells_of, Board, COUNT};
use super::opening::{self, Opening};
use super::singles::{singles, Singles};
use super::{fish, subsets, wings};
use super::{Outcome, Step, StepKind, Technique, Trace};
use crate::grid::Grid;

/// A technique: pushes its first step on the board (with its removals) and returns `true`,
/// or returns `false` when it does not apply (marking on the board, in [`Board`]'s quiet
/// sets, what it found nothing in).
type Find = fn(&mut Board, &mut Trace) -> bool;

/// The techniques after the singles, in the order they are tried (their code order).
const TECHNIQUES: [Find; 12] = [
    fish::pointing,
    fish::claiming,
    |b, t| subsets::naked(2, b, t),
    |b, t| fish::fish(2, b, t),
    |b, t| subsets::hidden(2, b, t),
    |b, t| subsets::naked(3, b, t),
    |b, t| fish::fish(3, b, t),
    |b, t| subsets::hidden(3, b, t),
    |b, t| wings::xy_wing(b, t),
    |b, t| wings::xyz_wing(b, t),
    |b, t| subsets::naked(4, b, t),
    |b, t| subsets::hidden(4, b, t),
];

/// Traces `puzzle` (see the module doc): every step until the grid is complete, every
/// branch failed, or (givens clash) none taken.
pub fn trace(puzzle: &Grid) -> Trace {
    let mut t = Trace::default();
    trace_into(puzzle, &mut t);
    t
}

/// [`trace`] into `t`, reusing its buffers (cleared first).
pub fn trace_into(puzzle: &Grid, t: &mut Trace) {
    t.steps.clear();
    t.removed.clear();
    t.grid = *puzzle;
    match opening::naked_singles(t) {
        Opening::Clash => {
            t.outcome = Some(Outcome::Clash);
            return;
        }
        Opening::Solved => {
            t.outcome = Some(Outcome::Solved);
            return;
        }
        Opening::Stalled => {}
    }
    let mut b = Board::new(&t.grid).expect("placed naked singles clash with no digit");
    // Open guesses: the board before each and the index of its step.
    let mut open: Vec<(Board, usize)> = Vec::new();
    let outcome = loop {
        if b.empty == 0 {
            break Outcome::Solved;
        }
        let depth = open.len() as u16;
        let found = singles(&mut b, t);
        if found == Singles::Contradiction {
            let Some((before, at)) = open.pop() else {
                break Outcome::Unsolvable;
            };
            for s in &mut t.steps[at..] {
                s.undone = true;
            }
            let guess = t.steps[at];
            b = before;
            b.remove(usize::from(guess.cell), bit(guess.digit));
            let mut s = Step::new(StepKind::Backtrack, Technique::Backtrack);
            s.cell = guess.cell;
            s.digit = guess.digit;
            s.depth = depth - 1;
            t.steps.push(s);
            continue;
        }
        if found == Singles::Found || TECHNIQUES.iter().any(|find| find(&mut b, t)) {
            let s = t
                .steps
                .last_mut()
                .expect("a technique that applies pushes a step");
            s.depth = depth;
            match s.kind {
                StepKind::Placement => b.place(usize::from(s.cell), s.digit),
                _ => {
                    let (from, to) = s.removed;
                    for &(c, m) in &t.removed[from as usize..to as usize] {
                        b.remove(usize::from(c), m);
                    }
                }
            }
            continue;
        }
        let c = match b.by_count() {
            [_, _, two, _] if two != 0 => two.trailing_zeros() as usize,
            [_, _, _, three] if three != 0 => three.trailing_zeros() as usize,
            _ => cells_of(b.empty)
                .min_by_key(|&c| COUNT[usize::from(b.cand[c])])
                .expect("a board that is not complete has an empty cell"),
        };
        let mut s = Step::new(StepKind::Guess, Technique::Guess);
        s.cell = c as u8;
        s.digit = b.cand[c].trailing_zeros() as u8 + 1;
        s.depth = depth;
        open.push((b, t.steps.len()));
        t.steps.push(s);
        b.place(c, s.digit);
    };
    t.grid = b.grid();
    t.outcome = Some(outcome);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::subsets::NO_SKIPS;

    /// The searches skipped by counting (subsets in a unit of at most n + 1 empty cells, fish
    /// of a digit missing from at most n + 1 lines) find nothing where they are skipped: the
    /// traces of the repository's sample, whose puzzles stall often, are the same without
    /// the skips, and the sample does reach the subset and fish searches.
    #[test]
    fn counting_skips_leave_every_trace_unchanged() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt"))
            .expect("data/sample.txt");
        let mut stalled = 0;
        for line in text.lines().take(600) {
            let puzzle = Grid::parse(line.as_bytes()).expect("a sample puzzle");
            let with = trace(&puzzle);
            NO_SKIPS.set(true);
            let without = trace(&puzzle);
            NO_SKIPS.set(false);
            assert_eq!(with, without, "{puzzle}");
            stalled += usize::from(with.steps.iter().any(|s| {
                (Technique::NakedPair..=Technique::HiddenQuad).contains(&s.technique)
                    && s.technique != Technique::XyWing
                    && s.technique != Technique::XyzWing
            }));
        }
        assert!(
            stalled > 50,
            "only {stalled} sample traces used subsets or fish"
        );
    }
}
