//! Singles (naked and hidden) and the contradiction test the runner backtracks on.

use super::board::{cells_of, Board, UNIT_CELLS};
use super::{Step, StepKind, Technique, Trace};

/// Units in the order hidden singles are looked for: boxes, rows, columns.
const HIDDEN_ORDER: [usize; 27] = {
    let mut out = [0usize; 27];
    let mut i = 0;
    while i < 27 {
        out[i] = (i + 18) % 27;
        i += 1;
    }
    out
};

/// Whether the board can no longer be completed by its candidates: an empty cell with no
/// candidate, or a unit where a digit is neither placed nor a candidate.
pub(super) fn contradiction(b: &Board) -> bool {
    if cells_of(b.empty).any(|c| b.cand[c] == 0) {
        return true;
    }
    UNIT_CELLS.iter().any(|unit| {
        let mut seen = 0u16;
        for &c in unit {
            let c = usize::from(c);
            seen |= b.cand[c];
            if b.cells[c] != 0 {
                seen |= 1 << (b.cells[c] - 1);
            }
        }
        seen != super::board::ALL
    })
}

/// The first empty cell (row-major) with one candidate: a placement.
pub(super) fn naked_single(b: &Board, t: &mut Trace) -> bool {
    let Some(c) = cells_of(b.empty).find(|&c| b.cand[c].count_ones() == 1) else {
        return false;
    };
    let mut s = Step::new(StepKind::Placement, Technique::NakedSingle);
    s.cell = c as u8;
    s.digit = b.cand[c].trailing_zeros() as u8 + 1;
    t.steps.push(s);
    true
}

/// The first unit (boxes, rows, columns) with a digit that one of its cells alone can
/// hold, lowest digit first: a placement.
pub(super) fn hidden_single(b: &Board, t: &mut Trace) -> bool {
    for u in HIDDEN_ORDER {
        let (mut once, mut twice) = (0u16, 0u16);
        for &c in &UNIT_CELLS[u] {
            let m = b.cand[usize::from(c)];
            twice |= once & m;
            once |= m;
        }
        let single = once & !twice;
        if single == 0 {
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
        return true;
    }
    false
}
