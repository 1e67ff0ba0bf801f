//! Naked and hidden subsets (pairs, triples, quads) within one unit.

use super::board::{Board, UNIT_CELLS};
use super::{Step, StepKind, Technique, Trace};

/// The 9-bit masks with `K` bits set, ascending.
const fn combos<const K: usize>(bits: u32) -> [u16; K] {
    let mut out = [0u16; K];
    let (mut m, mut i) = (0u16, 0usize);
    while m < 512 {
        if m.count_ones() == bits {
            out[i] = m;
            i += 1;
        }
        m += 1;
    }
    out
}

const PAIRS: [u16; 36] = combos::<36>(2);
const TRIPLES: [u16; 84] = combos::<84>(3);
const QUADS: [u16; 126] = combos::<126>(4);

/// The masks of `n` (2..=4) elements of nine.
pub(super) fn combos_of(n: u32) -> &'static [u16] {
    match n {
        2 => &PAIRS,
        3 => &TRIPLES,
        _ => &QUADS,
    }
}

/// Pushes `s` with the removals `found` made since `start` when there are any; drops them
/// and returns `false` otherwise.
pub(super) fn push_if_removed(t: &mut Trace, mut s: Step, start: usize) -> bool {
    if t.removed.len() == start {
        return false;
    }
    s.removed = (start as u32, t.removed.len() as u32);
    t.steps.push(s);
    true
}

fn naked_technique(n: u32) -> Technique {
    match n {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    }
}

fn hidden_technique(n: u32) -> Technique {
    match n {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// The first naked subset of `n` cells (units rows, columns, boxes) whose digits are still
/// candidates elsewhere in the unit: they are removed there.
pub(super) fn naked(n: u32, b: &Board, t: &mut Trace) -> bool {
    for (u, unit) in UNIT_CELLS.iter().enumerate() {
        let cand = unit.map(|c| b.cand[usize::from(c)]);
        let mut avail = 0u16;
        for (k, m) in cand.iter().enumerate() {
            avail |= u16::from((2..=n).contains(&m.count_ones())) << k;
        }
        if avail.count_ones() < n {
            continue;
        }
        for &combo in combos_of(n) {
            if combo & !avail != 0 {
                continue;
            }
            let digits = (0..9)
                .filter(|k| combo >> k & 1 != 0)
                .fold(0, |acc, k| acc | cand[k]);
            if digits.count_ones() != n {
                continue;
            }
            let start = t.removed.len();
            for (k, &m) in cand.iter().enumerate() {
                if combo >> k & 1 == 0 && m & digits != 0 {
                    t.removed.push((unit[k], m & digits));
                }
            }
            let mut s = Step::new(StepKind::Elimination, naked_technique(n));
            s.cells = (0..9)
                .filter(|k| combo >> k & 1 != 0)
                .fold(0, |acc, k| acc | 1 << unit[k]);
            s.digits = digits;
            s.base = 1 << u;
            if push_if_removed(t, s, start) {
                return true;
            }
        }
    }
    false
}

/// The first hidden subset of `n` digits (units rows, columns, boxes) whose cells hold
/// other candidates: those are removed.
pub(super) fn hidden(n: u32, b: &Board, t: &mut Trace) -> bool {
    for (u, unit) in UNIT_CELLS.iter().enumerate() {
        let cand = unit.map(|c| b.cand[usize::from(c)]);
        // Positions (bit k = the unit's k-th cell) of each digit.
        let mut pos = [0u16; 9];
        for (k, &m) in cand.iter().enumerate() {
            for (d, p) in pos.iter_mut().enumerate() {
                *p |= (m >> d & 1) << k;
            }
        }
        let mut avail = 0u16;
        for (d, p) in pos.iter().enumerate() {
            avail |= u16::from((2..=n).contains(&p.count_ones())) << d;
        }
        if avail.count_ones() < n {
            continue;
        }
        for &digits in combos_of(n) {
            if digits & !avail != 0 {
                continue;
            }
            let cells = (0..9)
                .filter(|d| digits >> d & 1 != 0)
                .fold(0, |acc, d| acc | pos[d]);
            if cells.count_ones() != n {
                continue;
            }
            let start = t.removed.len();
            let mut set = 0;
            for (k, &m) in cand.iter().enumerate() {
                if cells >> k & 1 != 0 {
                    set |= 1 << unit[k];
                    if m & !digits != 0 {
                        t.removed.push((unit[k], m & !digits));
                    }
                }
            }
            let mut s = Step::new(StepKind::Elimination, hidden_technique(n));
            s.cells = set;
            s.digits = digits;
            s.base = 1 << u;
            if push_if_removed(t, s, start) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::board::ALL;

    /// Row 1 empty, the rest filled: digits 1-4 only in its first four cells (which also
    /// hold 5 and 6), the other five cells holding 5-9. A hidden quad, too rare in the
    /// sample sets to be met there: 5 and 6 go from the first four cells.
    #[test]
    fn hidden_quad_removes_the_other_digits_of_its_cells() {
        let mut b = crate::trace::board::Board::new(&crate::grid::Grid::EMPTY).unwrap();
        b.empty = 0x1FF;
        b.cand = [0; 81];
        for c in 0..9 {
            b.cand[c] = if c < 4 { 0b11_1111 } else { ALL & !0b1111 };
        }
        for c in 9..81 {
            b.cells[c] = 1;
        }
        let mut t = Trace::default();
        assert!(hidden(4, &b, &mut t));
        let s = t.steps[0];
        assert_eq!(s.technique, Technique::HiddenQuad);
        assert_eq!((s.digits, s.cells, s.base), (0b1111, 0b1111, 1));
        let removed: Vec<(u8, u16)> = t.removed_by(&s).to_vec();
        assert_eq!(removed, (0..4).map(|c| (c, 0b11_0000)).collect::<Vec<_>>());
    }
}
