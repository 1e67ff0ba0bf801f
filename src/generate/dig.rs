//! Clue removal and minimality: from a solution grid to a puzzle with exactly one solution.
//!
//! The givens are tried for removal an orbit at a time (one cell without `--symmetry`) in
//! an order drawn from the candidate's stream; an orbit stays removed when the puzzle is
//! still unique without it (our solver counting to 2). Uniqueness only gets harder to keep
//! as givens go, so an orbit that cannot be removed at its turn cannot be removed later
//! either: after one pass no single orbit is removable.
//!
//! The pass tests orbits in groups ([`dig`]): when the puzzle stays unique without the next
//! `k` orbits, each of them would also have been removed one at a time (every puzzle on the
//! way has more givens than the one tested), so the group is removed with one solve; when
//! it does not, the group is halved. This gives exactly the puzzle of the one-at-a-time pass
//! with fewer solves: groups grow while removals succeed (the first half of the pass) and
//! shrink to single orbits where most fail.
//!
//! [`is_minimal`] checks a finished puzzle given by given, against the puzzle itself: what
//! `--minimal` keeps is checked, not inferred from the pass.

use crate::grid::Grid;
use crate::solver::solve;

/// Largest group of orbits removed with one solve.
const MAX_GROUP: usize = 16;

/// Whether `puzzle` has exactly one solution (our solver, counting to 2).
pub fn is_unique(puzzle: &Grid) -> bool {
    solve(puzzle, 2).count == 1
}

/// Removes from `solution` the orbits of `order`, in that order, each when the puzzle
/// stays unique without it and keeps at least `min_clues` givens (see the module docs);
/// returns the puzzle and the solves it took. `order`: orbits of cells (0-based,
/// row-major) that partition some of the cells; cells in no orbit stay given.
pub fn dig(solution: &Grid, order: &[&[u8]], min_clues: u32) -> (Grid, u32) {
    let mut puzzle = *solution;
    let mut clues = puzzle.clues();
    let mut solves = 0;
    let mut group = 1;
    let mut i = 0;
    while i < order.len() {
        // The longest prefix of the next `group` orbits that keeps `min_clues` givens.
        let (mut take, mut removed) = (0, 0);
        for orbit in order[i..].iter().take(group) {
            if clues - removed < min_clues + orbit.len() as u32 {
                break;
            }
            removed += orbit.len() as u32;
            take += 1;
        }
        if take == 0 {
            // This orbit alone would go below `min_clues`: it stays.
            i += 1;
            continue;
        }
        let mut trial = puzzle;
        for orbit in &order[i..i + take] {
            orbit.iter().for_each(|&c| trial.0[usize::from(c)] = 0);
        }
        solves += 1;
        if is_unique(&trial) {
            puzzle = trial;
            clues -= removed;
            i += take;
            group = (group * 2).min(MAX_GROUP);
        } else if take == 1 {
            i += 1;
            group = 1;
        } else {
            group = take / 2;
        }
    }
    (puzzle, solves)
}

/// The first given (0-based cell) whose removal leaves `puzzle` unique, or `None` when
/// every given is needed; `puzzle` is taken to be unique.
pub fn removable_given(puzzle: &Grid) -> Option<usize> {
    (0..81).filter(|&c| puzzle.0[c] != 0).find(|&c| {
        let mut less = *puzzle;
        less.0[c] = 0;
        is_unique(&less)
    })
}

/// Whether the unique `puzzle` is minimal: no single given can be removed with the
/// puzzle staying unique (each given checked on this puzzle).
pub fn is_minimal(puzzle: &Grid) -> bool {
    removable_given(puzzle).is_none()
}

#[cfg(test)]
mod tests {
    use super::super::draw::Draw;
    use super::super::sample::random_solution;
    use super::super::symmetry::Symmetry;
    use super::*;

    /// The one-at-a-time pass the groups must reproduce.
    fn one_at_a_time(solution: &Grid, order: &[&[u8]], min_clues: u32) -> Grid {
        let mut p = *solution;
        for orbit in order {
            if p.clues() < min_clues + orbit.len() as u32 {
                continue;
            }
            let mut t = p;
            orbit.iter().for_each(|&c| t.0[usize::from(c)] = 0);
            if solve(&t, 2).count == 1 {
                p = t;
            }
        }
        p
    }

    #[test]
    fn groups_give_the_one_at_a_time_puzzle() {
        for (seed, sym, min) in [
            (1, Symmetry::None, 0),
            (2, Symmetry::None, 30),
            (3, Symmetry::Rotate180, 0),
            (4, Symmetry::Rotate90, 0),
            (5, Symmetry::Full, 25),
        ] {
            let mut draw = Draw::new(seed);
            let solution = random_solution(&mut draw);
            let orbits = sym.orbits();
            let mut order: Vec<&[u8]> = orbits.iter().map(Vec::as_slice).collect();
            draw.shuffle(&mut order);
            let (p, solves) = dig(&solution, &order, min);
            assert_eq!(p, one_at_a_time(&solution, &order, min), "seed {seed}");
            if sym == Symmetry::None {
                // Groups save solves where the one-at-a-time pass makes one per cell.
                assert!(solves < 81, "{solves} solves");
            }
            assert!(p.clues() >= min && sym.holds(&p.0));
            assert!(solution.keeps_givens(&p));
            if min == 0 && sym == Symmetry::None {
                assert!(is_minimal(&p));
            }
        }
    }
}
