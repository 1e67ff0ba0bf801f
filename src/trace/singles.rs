//! Singles (naked and hidden) and the contradiction test the runner backtracks on.

use super::board::{bits_of, Board, ALL, UNIT_CELLS};
use super::quiet::scan;
use super::{Step, StepKind, Technique, Trace};

/// The units not marked in `quiet`, in the order hidden singles are looked for: boxes,
/// rows, columns (unit `(i + 18) % 27` for `i` ascending), from the mask's set bits.
fn hidden_order(quiet: u32) -> impl Iterator<Item = usize> {
    const UNITS: u32 = (1 << 27) - 1;
    // Bit i of the rotated mask is unit (i + 18) % 27.
    bits_of(!(quiet >> 18 | quiet << 9) & UNITS).map(|i| (i + 18) % 27)
}

/// What [`singles`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Singles {
    /// A placement, pushed.
    Found,
    /// The board can no longer be completed: an empty cell without candidates, or a unit
    /// where a digit is neither placed nor a candidate.
    Contradiction,
    /// Neither a single nor a contradiction.
    None,
}

/// Naked singles, then hidden singles, checking on the way for the contradictions that
/// make the runner backtrack: every empty cell is looked at before a naked single is
/// taken, and every unit before [`Singles::None`] is returned, so a board on which the
/// runner guesses has none. A contradiction that a single hides is found a few steps later
/// (a contradiction stays one), the steps between valid ones on their board.
pub(super) fn singles(b: &mut Board, t: &mut Trace) -> Singles {
    let (none, one) = (b.dead(), b.naked_singles());
    if none != 0 {
        return Singles::Contradiction;
    }
    if one != 0 {
        let c = one.trailing_zeros() as usize;
        let mut s = Step::new(StepKind::Placement, Technique::NakedSingle);
        s.cell = c as u8;
        s.digit = b.cand[c].trailing_zeros() as u8 + 1;
        t.steps.push(s);
        return Singles::Found;
    }
    hidden_single(b, t)
}

/// The first unit (boxes, rows, columns) with a digit that one of its cells alone can
/// hold, lowest digit first: a placement; or a unit where a digit has no place left. Units
/// found without either are marked quiet until their candidates change.
fn hidden_single(b: &mut Board, t: &mut Trace) -> Singles {
    let mut quiet = *b.quiet.units(scan::HIDDEN_SINGLE);
    let mut found = Singles::None;
    for u in hidden_order(quiet) {
        let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
        for &c in &UNIT_CELLS[u] {
            let c = usize::from(c);
            let m = b.cand[c];
            twice |= once & m;
            once |= m;
            // 0 (empty) gives no bit.
            placed |= (1u16 << b.cells[c]) >> 1;
        }
        if once | placed != ALL {
            found = Singles::Contradiction;
            break;
        }
        let single = once & !twice;
        if single == 0 {
            quiet |= 1 << u;
            continue;
        }
        let d = single.trailing_zeros() as u8 + 1;
        let c = UNIT_CELLS[u]
            .iter()
            .find(|&&c| b.cand[usize::from(c)] & (1 << (d - 1)) != 0)
            .expect("a digit seen once in the unit has a cell");
        let mut s = Step::new(
            StepKind::Placement,
            match u / 9 {
                0 => Technique::HiddenSingleRow,
                1 => Technique::HiddenSingleColumn,
                _ => Technique::HiddenSingleBox,
            },
        );
        s.cell = *c;
        s.digit = d;
        s.base = 1 << u;
        t.steps.push(s);
        found = Singles::Found;
        break;
    }
    *b.quiet.units(scan::HIDDEN_SINGLE) = quiet;
    found
}
