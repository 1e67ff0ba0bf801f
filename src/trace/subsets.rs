//! Naked and hidden subsets (pairs, triples, quads) within one unit.

use super::board::{bits_of, Board, COUNT, UNIT_CELLS};
use super::quiet::scan;
use super::{Step, StepKind, Technique, Trace};

/// For each 9-bit mask, its set bits' indices ascending (then zeros): a table, not a loop,
/// as the loop's exit branch is data-dependent and mispredicted once a subset search.
const INDICES: [[u8; 9]; 512] = {
    let mut out = [[0u8; 9]; 512];
    let mut m = 0;
    while m < 512 {
        let (mut i, mut len) = (0, 0);
        while i < 9 {
            if m >> i & 1 != 0 {
                out[m][len] = i as u8;
                len += 1;
            }
            i += 1;
        }
        m += 1;
    }
    out
};

/// Calls `found(set, union)` for each set of `n` (2..=4) of the nine `vals` (bit `i` of
/// `set` = `vals[i]`), taking only indices in `avail` (each of those values has 2 to `n`
/// bits), whose union has exactly `n` bits; in ascending order of `set`, until `found`
/// returns `true`; returns whether it did. A partial set whose union has more than `n`
/// bits is not grown: every set holding it would be refused.
pub(super) fn each_subset(
    n: u32,
    avail: u16,
    vals: &[u16; 9],
    mut found: impl FnMut(u16, u16) -> bool,
) -> bool {
    let idx = INDICES[usize::from(avail)].map(usize::from);
    let idx = &idx[..usize::from(COUNT[usize::from(avail)])];
    let count = |u: u16| u32::from(COUNT[usize::from(u)]);
    // Highest index outermost, each loop ascending: sets of one size in ascending order.
    if n == 2 {
        // Two values of two bits each have a union of two bits only when they are equal: a
        // test the branch predictor nearly always gets right.
        for (a, &i) in idx.iter().enumerate() {
            for &j in &idx[..a] {
                if vals[i] == vals[j] && found(1 << i | 1 << j, vals[i]) {
                    return true;
                }
            }
        }
        return false;
    }
    for (a, &i) in idx.iter().enumerate() {
        for (b, &j) in idx[..a].iter().enumerate() {
            let u2 = vals[i] | vals[j];
            if count(u2) > n {
                continue;
            }
            for (c, &k) in idx[..b].iter().enumerate() {
                let u3 = u2 | vals[k];
                if count(u3) > n {
                    continue;
                }
                if n == 3 {
                    if count(u3) == 3 && found(1 << i | 1 << j | 1 << k, u3) {
                        return true;
                    }
                    continue;
                }
                for &l in &idx[..c] {
                    let u4 = u3 | vals[l];
                    if count(u4) == 4 && found(1 << i | 1 << j | 1 << k | 1 << l, u4) {
                        return true;
                    }
                }
            }
        }
    }
    false
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

/// The units (0..27) not marked in `quiet`, ascending.
fn units_to_scan(quiet: u32) -> impl Iterator<Item = usize> {
    bits_of(!quiet & ((1 << 27) - 1))
}

/// The indices `i` of `vals` whose value has 2 to `n` bits (the members a subset or fish of
/// `n` can take), as a mask.
pub(super) fn sized(n: u32, vals: &[u16; 9]) -> u16 {
    vals.iter().enumerate().fold(0, |acc, (i, &v)| {
        acc | u16::from((2..=n).contains(&u32::from(COUNT[usize::from(v)]))) << i
    })
}

/// Whether a unit whose candidates are `cand` (0 for a filled cell) is too small to hold a
/// productive subset of `n`, on a board without singles or contradictions (as the runner
/// calls the subset techniques). With `e` empty cells, and so `e` missing digits: for `e <=
/// n` a subset takes every empty cell or missing digit and leaves nothing to remove; for `e =
/// n + 1` the cell a naked subset leaves is the only place left for the one missing digit
/// outside the subset (a hidden single), and the cell a hidden subset leaves can hold only
/// the one digit outside it (a naked single, or none).
fn too_few(n: u32, cand: &[u16; 9]) -> bool {
    let empty = cand.iter().map(|&m| u32::from(m != 0)).sum::<u32>();
    skips() && empty <= n + 1
}

#[cfg(test)]
thread_local! {
    /// Turns the counting skips ([`too_few`], the fish's) off on this thread, so that a test
    /// can compare traces made with and without them.
    pub(super) static NO_SKIPS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the counting skips are taken: always, but in a test that turns them off.
pub(super) fn skips() -> bool {
    #[cfg(test)]
    return !NO_SKIPS.get();
    #[cfg(not(test))]
    true
}

/// The first naked subset of `n` cells (units rows, columns, boxes) whose digits are still
/// candidates elsewhere in the unit: they are removed there.
pub(super) fn naked(n: u32, b: &mut Board, t: &mut Trace) -> bool {
    let quiet = scan::NAKED + n as usize - 2;
    for u in units_to_scan(*b.quiet.units(quiet)) {
        let unit = &UNIT_CELLS[u];
        let cand = unit.map(|c| b.cand[usize::from(c)]);
        if too_few(n, &cand) {
            *b.quiet.units(quiet) |= 1 << u;
            continue;
        }
        let avail = sized(n, &cand);
        if u32::from(COUNT[usize::from(avail)]) < n {
            *b.quiet.units(quiet) |= 1 << u;
            continue;
        }
        let found = each_subset(n, avail, &cand, |combo, digits| {
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
            push_if_removed(t, s, start)
        });
        if found {
            return true;
        }
        *b.quiet.units(quiet) |= 1 << u;
    }
    false
}

/// The first hidden subset of `n` digits (units rows, columns, boxes) whose cells hold
/// other candidates: those are removed.
pub(super) fn hidden(n: u32, b: &mut Board, t: &mut Trace) -> bool {
    let quiet = scan::HIDDEN + n as usize - 2;
    for u in units_to_scan(*b.quiet.units(quiet)) {
        let unit = &UNIT_CELLS[u];
        let cand = unit.map(|c| b.cand[usize::from(c)]);
        if too_few(n, &cand) {
            *b.quiet.units(quiet) |= 1 << u;
            continue;
        }
        // Positions (bit k = the unit's k-th cell) of each digit.
        let pos: [u16; 9] = std::array::from_fn(|d| b.positions(u, d as u8 + 1));
        let avail = sized(n, &pos);
        if u32::from(COUNT[usize::from(avail)]) < n {
            *b.quiet.units(quiet) |= 1 << u;
            continue;
        }
        let found = each_subset(n, avail, &pos, |digits, cells| {
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
            push_if_removed(t, s, start)
        });
        if found {
            return true;
        }
        *b.quiet.units(quiet) |= 1 << u;
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
        for c in 0..9 {
            b.remove(c, if c < 4 { ALL & !0b11_1111 } else { 0b1111 });
        }
        for c in 9..81 {
            b.remove(c, ALL);
        }
        let mut t = Trace::default();
        assert!(hidden(4, &mut b, &mut t));
        let s = t.steps[0];
        assert_eq!(s.technique, Technique::HiddenQuad);
        assert_eq!((s.digits, s.cells, s.base), (0b1111, 0b1111, 1));
        let removed: Vec<(u8, u16)> = t.removed_by(&s).to_vec();
        assert_eq!(removed, (0..4).map(|c| (c, 0b11_0000)).collect::<Vec<_>>());
    }
}
