//! XY-wing and XYZ-wing: a pivot cell and two bivalue pincers it sees.

use super::board::{bit, cells_of, digits_of, Board, Cells, ALL, PEER_SET};
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

/// The bivalue cells (`two`) holding each digit, by digit `d - 1`.
fn two_with(b: &Board, two: Cells) -> [Cells; 9] {
    std::array::from_fn(|i| b.with_digit(two, i as u8 + 1))
}

/// The cells of `set` holding a candidate outside `mask`, from the digits' boards.
fn outside(b: &Board, set: Cells, mask: u16) -> Cells {
    digits_of(ALL & !mask).fold(0, |acc, d| acc | b.with_digit(set, d))
}

/// The first XY-wing (pivots row-major): pivot {x,y}, pincers {x,z} and {y,z} that the pivot
/// sees; z goes from every cell that sees both pincers.
pub(super) fn xy_wing(b: &Board, t: &mut Trace) -> bool {
    let [_, _, two, _] = b.by_count();
    let with = two_with(b, two);
    for pivot in cells_of(two) {
        let pv = b.cand[pivot];
        let near = PEER_SET[pivot] & two;
        let (x, y) = (
            pv.trailing_zeros() as usize,
            (pv & (pv - 1)).trailing_zeros() as usize,
        );
        // Bivalue peers sharing exactly one digit with the pivot: the pincer candidates.
        for p1 in cells_of(near & (with[x] ^ with[y])) {
            let c1 = b.cand[p1];
            let z = c1 & !pv;
            let other = pv & !c1;
            // The second pincer: {other, z} exactly, after p1.
            let second = with[other.trailing_zeros() as usize] & with[z.trailing_zeros() as usize];
            for p2 in cells_of(near & second & !((2 << p1) - 1)) {
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
        // Bivalue peers whose two digits are the pivot's: the pincer candidates.
        let near = PEER_SET[pivot] & two;
        let near = near & !outside(b, near, pv);
        for p1 in cells_of(near) {
            let c1 = b.cand[p1];
            for p2 in cells_of(near & !((2 << p1) - 1)) {
                let c2 = b.cand[p2];
                if c2 == c1 {
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
