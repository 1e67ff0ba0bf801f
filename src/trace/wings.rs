//! XY-wing and XYZ-wing: a pivot cell and two bivalue pincers it sees.

use super::board::{bit, cells_of, Board, Cells, COUNT, PEER_SET};
use super::subsets::push_if_removed;
use super::{Step, StepKind, Technique, Trace};

/// Pushes the removal of `z` from `targets` (the cells holding it that see every wing cell).
fn push(
    t: &mut Trace,
    technique: Technique,
    pivot: usize,
    pincers: Cells,
    pv: u16,
    z: u16,
    targets: Cells,
) -> bool {
    let start = t.removed.len();
    t.removed.extend(cells_of(targets).map(|c| (c as u8, z)));
    let mut s = Step::new(StepKind::Elimination, technique);
    s.cell = pivot as u8;
    s.digit = z.trailing_zeros() as u8 + 1;
    s.cells = pincers;
    s.digits = pv;
    push_if_removed(t, s, start)
}

/// The first XY-wing (pivots row-major): pivot {x,y}, pincers {x,z} and {y,z} that the pivot
/// sees; z goes from every cell that sees both pincers.
pub(super) fn xy_wing(b: &Board, t: &mut Trace) -> bool {
    let [_, _, two, _] = b.by_count();
    for pivot in cells_of(two) {
        let pv = b.cand[pivot];
        let near = PEER_SET[pivot] & two;
        for p1 in cells_of(near) {
            let c1 = b.cand[p1];
            if COUNT[usize::from(c1 & pv)] != 1 {
                continue;
            }
            let z = c1 & !pv;
            let want = (pv & !c1) | z;
            for p2 in cells_of(near & !((2 << p1) - 1)) {
                if b.cand[p2] != want {
                    continue;
                }
                let targets = b
                    .with_digit(PEER_SET[p1] & PEER_SET[p2], z.trailing_zeros() as u8 + 1)
                    & !(1 << pivot);
                if targets != 0 {
                    let pincers = 1 << p1 | 1 << p2;
                    return push(t, Technique::XyWing, pivot, pincers, pv, z, targets);
                }
            }
        }
    }
    false
}

/// The first XYZ-wing (pivots row-major): pivot {x,y,z}, pincers {x,z} and {y,z} that the
/// pivot sees; z goes from every cell that sees all three.
pub(super) fn xyz_wing(b: &Board, t: &mut Trace) -> bool {
    let [_, _, two, three] = b.by_count();
    for pivot in cells_of(three) {
        let pv = b.cand[pivot];
        let near = PEER_SET[pivot] & two;
        for p1 in cells_of(near) {
            let c1 = b.cand[p1];
            if c1 & !pv != 0 {
                continue;
            }
            for p2 in cells_of(near & !((2 << p1) - 1)) {
                let c2 = b.cand[p2];
                if c2 & !pv != 0 || c2 == c1 {
                    continue;
                }
                let z = c1 & c2;
                let d = z.trailing_zeros() as u8 + 1;
                debug_assert_eq!(z, bit(d));
                let targets = b.with_digit(PEER_SET[pivot] & PEER_SET[p1] & PEER_SET[p2], d);
                if targets != 0 {
                    let pincers = 1 << p1 | 1 << p2;
                    return push(t, Technique::XyzWing, pivot, pincers, pv, z, targets);
                }
            }
        }
    }
    false
}
