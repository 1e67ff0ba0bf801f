//! Single-digit patterns: locked candidates (pointing, claiming) and fish (X-wing,
//! swordfish). Each is the same rule: when every candidate of a digit in the `base` units
//! lies in the `cover` units, the digit goes from the cover units' other cells.

use super::board::{bit, box_of, cells_of, Board, Cells, ALL, COUNT, UNIT_SET};
use super::quiet::scan;
use super::subsets::{each_subset, push_if_removed};
use super::{Step, StepKind, Technique, Trace};

/// Pushes the elimination of `d` from `targets` (a nonempty set of cells holding it).
fn push(t: &mut Trace, mut s: Step, d: u8, targets: Cells) -> bool {
    let start = t.removed.len();
    t.removed
        .extend(cells_of(targets).map(|c| (c as u8, bit(d))));
    s.digit = d;
    push_if_removed(t, s, start)
}

/// The first box (digits ascending within it) whose candidates of a digit lie in one row
/// or column that holds the digit outside the box.
pub(super) fn pointing(b: &mut Board, t: &mut Trace) -> bool {
    let quiet = *b.quiet.digits(scan::POINTING);
    for bx in 0..9 {
        let u = 18 + bx;
        for d in (1..=9).filter(|&d| quiet & bit(d) == 0) {
            let cells = b.with_digit(UNIT_SET[u], d);
            if cells == 0 {
                continue;
            }
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
    for (line, &line_set) in UNIT_SET[..18].iter().enumerate() {
        for d in (1..=9).filter(|&d| quiet & bit(d) == 0) {
            let cells = b.with_digit(line_set, d);
            if cells == 0 {
                continue;
            }
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
        // Base rows (covers: columns 9..18), then base columns (covers: rows 0..9).
        for (base0, cover0) in [(0usize, 9usize), (9, 0)] {
            let pos = b.positions_of_kind(base0 / 9, d);
            let mut avail = 0u16;
            for (i, p) in pos.iter().enumerate() {
                avail |= u16::from((2..=n).contains(&u32::from(COUNT[usize::from(*p)]))) << i;
            }
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
