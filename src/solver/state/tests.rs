//! Tests of the portable propagation and the bit tricks it rests on.

use super::super::tables::COLUMN0;
use super::*;
use crate::grid::parse_cells;

/// Hard puzzles (forum_hardest_1905_11plus lines 1 and 100, top1465 lines 1 and 2), whose
/// searches stall many times.
pub(crate) const HARD: [&str; 4] = [
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
    "98.7.....76....8....5......4...3..2...89..4......54..1..75..6......2...3.....1.4.",
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
];

/// Whether cells `p` and `q` (0..81, row-major) are distinct and share a unit.
fn peers(p: usize, q: usize) -> bool {
    let same_box = p / 27 == q / 27 && p % 9 / 3 == q % 9 / 3;
    p != q && (p / 9 == q / 9 || p % 9 == q % 9 || same_box)
}

/// The SSE2 mask of changed boards agrees with the plain loop, board by board: each
/// of the 27 boards changed alone, and random pairs of states.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[test]
fn changed_boards_sse2_matches_the_loop() {
    let prev = INITIAL;
    for i in 0..27 {
        let mut cand = INITIAL;
        cand[i] &= !(1 << (i % 27));
        assert_eq!(changed_sse2(&cand, &prev), 1 << i, "board {i}");
        assert_eq!(changed_scalar(&cand, &prev), 1 << i, "board {i}");
    }
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..1000 {
        let (mut cand, mut prev) = ([0u32; BOARDS], [0u32; BOARDS]);
        for i in 0..27 {
            let x = next();
            cand[i] = (x as u32) & BAND;
            // About half the boards unchanged.
            prev[i] = if x >> 40 & 1 == 0 {
                cand[i]
            } else {
                (x >> 32) as u32 & BAND
            };
        }
        let want = changed_scalar(&cand, &prev);
        assert_eq!(changed_sse2(&cand, &prev), want);
        assert!(want.count_ones() > 3 && want.count_ones() < 24);
    }
}

/// Propagates `s` with the portable kernel and with `other` (another kernel's
/// [`State::propagate`]) and compares the result and the whole state; then does the same
/// below every candidate of the branch cell (both children of a split), depth first,
/// until `budget` nodes have been compared. Returns how many ended in a contradiction.
/// (Only x86-64 has other kernels to compare.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn walk(
    s: State,
    max_pairs: u32,
    logic: Logic,
    budget: &mut usize,
    other: &impl Fn(&mut State, u32, Logic) -> Result<Option<Branch>, Contradiction>,
) -> usize {
    if *budget == 0 {
        return 0;
    }
    *budget -= 1;
    let (mut portable, mut vector) = (s, s);
    let want = portable.propagate(max_pairs, logic);
    let got = other(&mut vector, max_pairs, logic);
    assert_eq!(got, want);
    let Ok(found) = want else { return 1 };
    assert_eq!(vector.cand, portable.cand);
    assert_eq!(vector.dirty, portable.dirty);
    assert_eq!(vector.unsolved, portable.unsolved);
    let (cell, mut digits) = match found {
        None => return 0,
        Some(Branch::Split(at)) => {
            let split = portable.split_at(at);
            return [0, 1]
                .map(|child| {
                    let mut s = portable;
                    s.take(&split, child);
                    walk(s, max_pairs, logic, budget, other)
                })
                .iter()
                .sum();
        }
        Some(Branch::Cell { cell, digits, .. }) => (cell, digits),
    };
    assert_eq!(digits, portable.digits(cell));
    let mut dead = 0;
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut child = portable;
        if child.assign(d, cell).is_ok() {
            dead += walk(child, max_pairs, logic, budget, other);
        }
    }
    dead
}

/// `other` (another kernel's [`State::propagate`], which the CPU runs) leaves exactly the
/// state the portable one does (candidates, dirty marks, unfixed cells) and returns
/// the same branch or contradiction, at every node of the search trees of the [`HARD`]
/// puzzles, with and without the stack logic and the pair cap, and with the triad rules
/// and the splits.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn kernel_matches_the_portable_one(
    other: impl Fn(&mut State, u32, Logic) -> Result<Option<Branch>, Contradiction>,
) {
    for (max_pairs, logic) in [
        (BUSIEST_MAX_PAIRS, Logic::Band),
        (u32::MAX, Logic::Stacks),
        (0, Logic::Triads),
    ] {
        let (mut nodes, mut dead) = (0, 0);
        for line in HARD {
            let puzzle = parse_cells(line.as_bytes()).unwrap().0;
            let s = State::from_givens_portable(&puzzle).unwrap();
            let mut budget = 2_000;
            dead += walk(s, max_pairs, logic, &mut budget, &other);
            nodes += 2_000 - budget;
        }
        // The trees are big enough to reach contradictions and solutions alike (with the
        // splits, the four whole trees have 376 nodes).
        assert!(nodes > 300 && dead > 100, "{nodes} nodes, {dead} dead ends");
    }
}

/// `other` (another kernel's placement of the givens) gives the same state as the portable
/// copy, or a contradiction for the same puzzles: on random puzzles of 0 to 40 givens (the
/// denser, the more often two equal givens meet in a unit) and on the given-by-given fills
/// of a solution grid.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn givens_match_the_portable_copy(
    other: impl Fn(&[u8; 81]) -> Result<State, Contradiction>,
) {
    let check = |p: &[u8; 81]| match (State::from_givens_portable(p), other(p)) {
        (Ok(w), Ok(g)) => {
            assert_eq!(
                (g.cand, g.dirty, g.unsolved),
                (w.cand, w.dirty, w.unsolved),
                "{p:?}"
            );
            true
        }
        (Err(_), Err(_)) => false,
        (w, g) => panic!("{p:?}: portable {:?}, other {:?}", w.is_ok(), g.is_ok()),
    };
    let mut next = xorshift(0x0123_4567_89AB_CDEF);
    let (mut fine, mut clash) = (0, 0);
    for round in 0..4000 {
        let mut p = [0u8; 81];
        for _ in 0..round % 41 {
            let r = next();
            p[(r % 81) as usize] = (r >> 8) as u8 % 9 + 1;
        }
        if check(&p) {
            fine += 1;
        } else {
            clash += 1;
        }
    }
    assert!(fine > 500 && clash > 500, "{fine} fine, {clash} clashes");
    let solution = crate::solver::solve(&crate::grid::Grid::EMPTY, 1)
        .grid
        .unwrap();
    let mut p = [0u8; 81];
    for q in 0..81 {
        p[q] = solution.0[q];
        assert!(check(&p), "{q}");
    }
}

/// Walks down the first candidate of every branch and checks each branch cell against
/// a plain count over the 81 cells: a two-candidate cell when there is one, and with at
/// most `max_pairs` of them, the first with the most unfixed peers. Run with the
/// search's two limits: [`BUSIEST_MAX_PAIRS`] and every pair (`u32::MAX`).
#[test]
fn branches_on_the_pair_cell_with_most_unfixed_peers() {
    for (max_pairs, logic) in [(BUSIEST_MAX_PAIRS, Logic::Band), (u32::MAX, Logic::Stacks)] {
        let (scored, many) = walk_first_candidates(max_pairs, logic);
        assert!(
            scored >= 4,
            "{max_pairs}: only {scored} scored branch points"
        );
        if max_pairs == u32::MAX {
            // Some stalls have more pairs than the cap: those are scored too.
            assert!(
                many >= 1,
                "no stall with more than {BUSIEST_MAX_PAIRS} pairs"
            );
        }
    }
}

/// The walk of the test above (portable kernel); returns the branch points checked
/// against the score, and how many of them had more than [`BUSIEST_MAX_PAIRS`] pairs.
fn walk_first_candidates(max_pairs: u32, logic: Logic) -> (usize, usize) {
    let (mut scored, mut many) = (0, 0);
    for line in HARD {
        let mut s = State::from_givens_portable(&parse_cells(line.as_bytes()).unwrap().0).unwrap();
        let mut next = s.propagate(max_pairs, logic);
        while let Ok(Some(Branch::Cell { cell, digits, .. })) = next {
            assert_eq!(digits, s.digits(cell));
            let at = |q: usize| Cell {
                band: q / 27,
                bit: (q % 27) as u32,
            };
            let unfixed = |q: usize| s.unsolved[q / 27] >> (q % 27) & 1 == 1;
            let pairs: Vec<usize> = (0..81)
                .filter(|&q| unfixed(q) && s.digits(at(q)).count_ones() == 2)
                .collect();
            let p = 27 * cell.band + cell.bit as usize;
            assert!(pairs.is_empty() || pairs.contains(&p), "{line}: {p}");
            if !pairs.is_empty() && pairs.len() <= max_pairs as usize {
                let score = |q: usize| (0..81).filter(|&r| peers(q, r) && unfixed(r)).count();
                let best = pairs.iter().map(|&q| score(q)).max().unwrap();
                let first = pairs.iter().find(|&&q| score(q) == best).unwrap();
                assert_eq!(p, *first, "{line}: {p} among {pairs:?}");
                scored += 1;
                many += usize::from(pairs.len() > BUSIEST_MAX_PAIRS as usize);
            }
            let d = s.digits(cell).trailing_zeros() as usize;
            next = s
                .assign(d, cell)
                .and_then(|()| s.propagate(max_pairs, logic));
        }
    }
    (scored, many)
}

/// The stack logic by enumeration: for each digit and stack, the 3 x 3 table of which
/// band's box has a candidate in which of the stack's columns, and the (band, column)
/// entries that some one-to-one matching of the three boxes to the three columns uses.
fn stack_filter_by_matchings(cand: &[u32; BOARDS]) -> [u32; BOARDS] {
    let mut out = *cand;
    for d in 0..9 {
        for stack in 0..3 {
            let column = |k: usize| COLUMN0 << (3 * stack + k);
            let has = |b: usize, k: usize| cand[9 * b + d] & column(k) != 0;
            let mut used = [[false; 3]; 3];
            for p in crate::grid::ORDERS_OF_THREE {
                if (0..3).all(|b| has(b, p[b])) {
                    for b in 0..3 {
                        used[b][p[b]] = true;
                    }
                }
            }
            for (b, row) in used.iter().enumerate() {
                for (k, &kept) in row.iter().enumerate() {
                    if !kept {
                        out[9 * b + d] &= !column(k);
                    }
                }
            }
        }
    }
    out
}

/// The stack logic's bit algebra agrees with the enumeration of
/// matchings, on random boards from dense to sparse, and on a hidden single in a column.
#[test]
fn stack_logic_keeps_what_some_matching_uses() {
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let mut changed = 0;
    for round in 0..3000 {
        // Thinner boards in later rounds: a few candidates per column.
        let cand = random_boards(&mut next, round % 4);
        let want = stack_filter_by_matchings(&cand);
        let mut got = cand;
        stack_filter_portable(&mut got);
        assert_eq!(got, want, "{cand:?}");
        changed += usize::from(want != cand);
    }
    assert!(changed > 1000, "only {changed} of 3000 boards changed");

    // Digit 1 left in column 0 only in band 1: the middle box of stack 0 keeps column 0
    // alone for it, and nothing else changes.
    let mut cand = INITIAL;
    cand[0] &= !COLUMN0;
    cand[18] &= !COLUMN0;
    let before = cand;
    stack_filter_portable(&mut cand);
    assert_eq!(cand[9], BAND & !(COLUMN0 << 1 | COLUMN0 << 2));
    cand[9] = before[9];
    assert_eq!(cand, before);
}

/// [`given_cells`] agrees with a test of each byte, on random bands with 0 to 27 givens.
#[test]
fn given_cells_marks_the_nonzero_bytes() {
    let mut next = xorshift(0x5DEE_CE66_D1CE_4E5B);
    for round in 0..2000 {
        let mut cells = [0u8; 27];
        for c in &mut cells {
            let r = next();
            *c = if r % 28 < round % 28 {
                (r >> 8) as u8 % 9 + 1
            } else {
                0
            };
        }
        let want = (0..27).fold(0u32, |m, p| m | u32::from(cells[p] != 0) << p);
        assert_eq!(given_cells(&cells), want, "{cells:?}");
    }
    assert_eq!(given_cells(&[9; 27]), BAND);
    assert_eq!(given_cells(&[0; 27]), 0);
}

/// A grid of 81 givens comes back from [`State::solved_digits`] as it went in: random
/// solution grids (relabelled digits, shuffled rows and columns inside bands and stacks
/// of the solver's grid for the empty puzzle).
#[test]
fn solved_digits_returns_a_full_grid_unchanged() {
    let base = crate::solver::solve(&crate::grid::Grid::EMPTY, 1)
        .grid
        .unwrap();
    let mut next = xorshift(0x0123_4567_89AB_CDEF);
    for _ in 0..200 {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        for i in (1..9).rev() {
            digits.swap(i, next() as usize % (i + 1));
        }
        let (r, c) = (next() as usize % 3, next() as usize % 3);
        let mut g = [0u8; 81];
        for (q, cell) in g.iter_mut().enumerate() {
            // Swap rows 3k + r and 3k + (r + 1) % 3, and the same for columns.
            let line = |i: usize, s: usize| match i % 3 {
                m if m == s => i - s + (s + 1) % 3,
                m if m == (s + 1) % 3 => i - m + s,
                _ => i,
            };
            let (row, col) = (line(q / 9, r), line(q % 9, c));
            *cell = digits[usize::from(base.0[9 * row + col] - 1)];
        }
        let grid = crate::grid::Grid(g);
        assert!(grid.is_complete_valid());
        let s = State::from_givens(&g).unwrap();
        assert_eq!(s.solved_digits(), g);
    }
}

/// The stack logic and the triad rules never remove a digit of the solution:
/// propagating with them along the solution of the hard puzzles, each branch cell given
/// its solution digit.
#[test]
fn stack_logic_and_triads_keep_the_solution() {
    for (logic, line) in [Logic::Stacks, Logic::Triads]
        .into_iter()
        .flat_map(|logic| HARD.iter().map(move |line| (logic, line)))
    {
        let puzzle = parse_cells(line.as_bytes()).unwrap();
        let solution = crate::solver::solve(&puzzle, 1).grid.unwrap();
        let mut s = State::from_givens(&puzzle.0).unwrap();
        let mut steps = 0;
        loop {
            let next = s.propagate(u32::MAX, logic).expect("no contradiction");
            for q in 0..81 {
                let d = usize::from(solution.0[q] - 1);
                assert!(s.cand[9 * (q / 27) + d] >> (q % 27) & 1 == 1, "{line}: {q}");
            }
            let keeps = |s: &State| {
                (0..81).all(|q| {
                    let d = usize::from(solution.0[q] - 1);
                    s.cand[9 * (q / 27) + d] >> (q % 27) & 1 == 1
                })
            };
            match next {
                None => break,
                Some(Branch::Cell { cell, .. }) => {
                    let d = usize::from(solution.0[27 * cell.band + cell.bit as usize] - 1);
                    s.assign(d, cell).unwrap();
                }
                // Go on in the child that keeps the solution (exactly one does).
                Some(Branch::Split(at)) => {
                    let split = s.split_at(at);
                    let children = [0, 1].map(|child| {
                        let mut c = s;
                        c.take(&split, child);
                        c
                    });
                    let kept: Vec<State> = children.into_iter().filter(keeps).collect();
                    assert_eq!(kept.len(), 1, "{line}");
                    s = kept[0];
                }
            }
            steps += 1;
        }
        assert_eq!(s.solved_digits(), solution.0, "{line}");
        assert!(steps >= 1, "{line}");
    }
}

/// xorshift64 words from seed `x` (not 0): a tiny deterministic generator so that the
/// random tests reproduce.
pub(super) fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// 27 random boards (board 27, the padding, 0), each anded with `thin` more
/// random words, so that larger `thin` gives sparser boards.
pub(super) fn random_boards(next: &mut impl FnMut() -> u64, thin: usize) -> [u32; BOARDS] {
    let mut cand = [0u32; BOARDS];
    for board in &mut cand[..27] {
        let mut b = next() as u32 & BAND;
        for _ in 0..thin {
            b &= next() as u32;
        }
        *board = b;
    }
    cand
}
