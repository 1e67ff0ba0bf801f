//! Single-digit patterns: locked candidates (pointing, claiming) and fish (X-wing,
//! swordfish). Each is the same rule: when every candidate of a digit in the `base` units
//! lies in the `cover` units, the digit goes from the cover units' other cells.

use super::board::{bit, box_of, cells_of, digits_of, Board, Cells, ALL, COUNT, UNIT_SET};
use super::quiet::scan;
use super::subsets::{each_subset, push_if_removed, sized, skips};
use super::{Step, StepKind, Technique, Trace};

/// Pushes the elimination of `d` from `targets` (a nonempty set of cells holding it).
fn push(t: &mut Trace, mut s: Step, d: u8, targets: Cells) -> bool {
    let start = t.removed.len();
    t.removed
        .extend(cells_of(targets).map(|c| (c as u8, bit(d))));
    s.digit = d;
    push_if_removed(t, s, start)
}

/// Bit 0 of each unit's nine bits in a position board ([`Board::positions_board`]).
const UNIT_LOW: Cells = {
    let mut out = 0 as Cells;
    let mut i = 0;
    while i < 9 {
        out |= 1 << (9 * i);
        i += 1;
    }
    out
};

/// For a position board, bit `9 * i` set when unit `i`'s positions are all in one of
/// three triads of its nine cells and not none: triad `t` = cells `step * t + stride * j`,
/// `j` in 0..3 (`(3, 1)`: cells 0-2, 3-5, 6-8; `(1, 3)`: cells 0, 3, 6 and so on). All
/// nine units at once, without a branch: the shifts stay inside each unit's nine bits at
/// the bits kept.
fn in_one_triad(x: Cells, step: u32, stride: u32) -> Cells {
    // Bit `step * t` of unit i: triad t holds a position.
    let any = x | x >> stride | x >> (2 * stride);
    let [t0, t1, t2] = [0, 1, 2].map(|t| any >> (step * t) & UNIT_LOW);
    (t0 | t1 | t2) & !(t0 & t1 | t0 & t2 | t1 & t2)
}

/// `f(d)` for each digit `d` not in `quiet` (bit `d - 1`), by `d - 1`; 0 for the others: a
/// technique's digits are mostly quiet after its first scan.
fn per_digit(quiet: u16, f: impl Fn(u8) -> Cells) -> [Cells; 9] {
    let mut out = [0 as Cells; 9];
    for d in digits_of(ALL & !quiet) {
        out[usize::from(d - 1)] = f(d);
    }
    out
}

/// The digits (bit `d - 1`) each unit of a kind holds `hits` for: entry `i` gets digit
/// `d`'s bit when bit `9 * i` of `hits[d - 1]` is set.
fn by_unit(hits: [Cells; 9]) -> [u16; 9] {
    // Digit d's bit moved to 9 * i + d - 1: each unit's nine bits are its digit mask.
    let all = hits.iter().enumerate().fold(0, |acc, (d, &h)| acc | h << d);
    std::array::from_fn(|i| (all >> (9 * i)) as u16 & ALL)
}

/// The first box (digits ascending within it) whose candidates of a digit lie in one row
/// or column that holds the digit outside the box.
pub(super) fn pointing(b: &mut Board, t: &mut Trace) -> bool {
    let quiet = *b.quiet.digits(scan::POINTING);
    // Boxes whose positions of a digit lie in one of their rows or columns: the only ones
    // worth a look, found for all boxes and digits at once.
    let aligned = by_unit(per_digit(quiet, |d| {
        let x = b.positions_board(2, d);
        in_one_triad(x, 3, 1) | in_one_triad(x, 1, 3)
    }));
    for (bx, &aligned) in aligned.iter().enumerate() {
        let u = 18 + bx;
        for d in digits_of(aligned & !quiet) {
            let cells = b.with_digit(UNIT_SET[u], d);
            let first = cells.trailing_zeros() as usize;
            for line in [first / 9, 9 + first % 9] {
                if cells & !UNIT_SET[line] != 0 {
                    continue;
                }
                let targets = b.with_digit(UNIT_SET[line] & !UNIT_SET[u], d);
                if targets == 0 {
                    continue;
                }
                let mut s = Step::new(StepKind::Elimination, Technique::Pointing);
                s.cells = cells;
                s.base = 1 << u;
                s.cover = 1 << line;
                return push(t, s, d, targets);
            }
        }
    }
    *b.quiet.digits(scan::POINTING) = ALL;
    false
}

/// The first row or column (rows first, digits ascending) whose candidates of a digit lie
/// in one box that holds the digit outside the line.
pub(super) fn claiming(b: &mut Board, t: &mut Trace) -> bool {
    let quiet = *b.quiet.digits(scan::CLAIMING);
    // Lines whose positions of a digit lie in one box (three consecutive cells of the
    // line, for rows and columns alike), as for pointing.
    let [rows, columns] = [0, 1].map(|kind| {
        by_unit(per_digit(quiet, |d| {
            in_one_triad(b.positions_board(kind, d), 3, 1)
        }))
    });
    for (line, &line_set) in UNIT_SET[..18].iter().enumerate() {
        let aligned = if line < 9 {
            rows[line]
        } else {
            columns[line - 9]
        };
        for d in digits_of(aligned & !quiet) {
            let cells = b.with_digit(line_set, d);
            let bx = 18 + box_of(cells.trailing_zeros() as usize);
            if cells & !UNIT_SET[bx] != 0 {
                continue;
            }
            let targets = b.with_digit(UNIT_SET[bx] & !line_set, d);
            if targets == 0 {
                continue;
            }
            let mut s = Step::new(StepKind::Elimination, Technique::Claiming);
            s.cells = cells;
            s.base = 1 << line;
            s.cover = 1 << bx;
            return push(t, s, d, targets);
        }
    }
    *b.quiet.digits(scan::CLAIMING) = ALL;
    false
}

/// The first fish of `n` lines (2: X-wing, 3: swordfish): digits ascending, rows as base
/// before columns.
pub(super) fn fish(n: u32, b: &mut Board, t: &mut Trace) -> bool {
    let technique = if n == 2 {
        Technique::XWing
    } else {
        Technique::Swordfish
    };
    let quiet = scan::FISH + n as usize - 2;
    for d in 1..=9 {
        if *b.quiet.digits(quiet) & bit(d) != 0 {
            continue;
        }
        // A fish of n rows leaves, in the other `m - n` of the m rows still missing `d`, a
        // fish of `m - n` columns with the same removals (and so the other way round): with
        // m <= n + 1 that would be none, or a column with one place for `d`, a hidden single
        // the runner takes before any fish.
        let missing = b
            .positions_of_kind(0, d)
            .iter()
            .filter(|&&p| p != 0)
            .count();
        if skips() && missing <= n as usize + 1 {
            *b.quiet.digits(quiet) |= bit(d);
            continue;
        }
        // Base rows (covers: columns 9..18), then base columns (covers: rows 0..9).
        for (base0, cover0) in [(0usize, 9usize), (9, 0)] {
            let pos = b.positions_of_kind(base0 / 9, d);
            let avail = sized(n, &pos);
            if u32::from(COUNT[usize::from(avail)]) < n {
                continue;
            }
            let found = each_subset(n, avail, &pos, |lines, covers| {
                let (mut base_set, mut cover_set) = (0 as Cells, 0 as Cells);
                let (mut base, mut cover) = (0u32, 0u32);
                for i in 0..9 {
                    if lines >> i & 1 != 0 {
                        base_set |= UNIT_SET[base0 + i];
                        base |= 1 << (base0 + i);
                    }
                    if covers >> i & 1 != 0 {
                        cover_set |= UNIT_SET[cover0 + i];
                        cover |= 1 << (cover0 + i);
                    }
                }
                let targets = b.with_digit(cover_set & !base_set, d);
                if targets == 0 {
                    return false;
                }
                let mut s = Step::new(StepKind::Elimination, technique);
                s.cells = b.with_digit(base_set, d);
                s.base = base;
                s.cover = cover;
                push(t, s, d, targets)
            });
            if found {
                return true;
            }
        }
        *b.quiet.digits(quiet) |= bit(d);
    }
    false
}
