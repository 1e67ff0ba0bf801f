use std::num::NonZeroUsize;
use std::sync::atomic::Ordering;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::grid::fixtures::{P, S};
use crate::isomorph::Isomorph;
use crate::solver;

/// Unique puzzles: the fixture, a 17-clue puzzle and top95's first (hard) one.
const UNIQUE: [&str; 3] = [
    P,
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
];

/// No solution and no clash: row 1 holds 1-8, so r1c9 must be 9, which r2c9 already is.
const UNSOLVABLE: &str =
    "12345678.........9...............................................................";

/// Two 5s in row 1.
const CLASH: &str =
    "55...............................................................................";

fn grid(text: &str) -> Grid {
    Grid::parse(text.as_bytes()).expect("a test puzzle parses")
}

/// The unique puzzles and 40 random isomorphs of them, the empty grid, the unsolvable one.
fn mixed() -> Vec<Grid> {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut out: Vec<Grid> = UNIQUE.iter().map(|t| grid(t)).collect();
    for i in 0..40 {
        out.push(Isomorph::random(&mut rng).apply(&out[i % UNIQUE.len()]));
    }
    out.push(Grid::EMPTY);
    out.push(grid(UNSOLVABLE));
    out
}

fn threads(n: usize) -> Options {
    Options {
        threads: NonZeroUsize::new(n),
        ..Options::default()
    }
}

/// Everything but the timings.
fn without_nanos(mut s: Solved) -> Solved {
    s.nanos.clear();
    s
}

#[test]
fn solutions_are_valid_and_keep_the_givens() {
    let puzzles = mixed();
    let out = solve_many(&puzzles, &Options::default()).unwrap();
    assert_eq!(out.len(), puzzles.len());
    assert_eq!(out.solutions.len(), puzzles.len() * CELLS);
    for (i, p) in puzzles.iter().enumerate().take(puzzles.len() - 2) {
        let s = out.solution(i).expect("a unique puzzle is solved");
        assert!(s.is_complete_valid() && s.keeps_givens(p), "row {i}");
        assert_eq!((out.status[i], out.counts[i]), (Status::Solved, 1));
        assert_eq!(out.errors[i], None);
    }
    assert_eq!(out.solution(0), Some(grid(S)));
    let n = puzzles.len();
    assert_eq!(
        (out.status[n - 2], out.counts[n - 2]),
        (Status::Multiple, 2)
    );
    assert!(out.solution(n - 2).unwrap().is_complete_valid());
    assert_eq!(
        (out.status[n - 1], out.counts[n - 1]),
        (Status::Unsolvable, 0)
    );
    assert!(out.solutions[(n - 1) * CELLS..].iter().all(|&d| d == 0));
}

#[test]
fn solve_many_equals_solve_on_each_puzzle() {
    let puzzles = mixed();
    for limit in [1, 2, 5] {
        let opts = Options {
            limit,
            ..Options::default()
        };
        let out = solve_many(&puzzles, &opts).unwrap();
        for (i, p) in puzzles.iter().enumerate() {
            let one = solver::solve(p, limit);
            assert_eq!(out.counts[i], one.count, "row {i}");
            assert_eq!(out.guesses[i], one.guesses, "row {i}");
            assert_eq!(out.solution(i), one.grid, "row {i}");
            assert_eq!(solver::count(p, limit), one.count);
        }
    }
}

#[test]
fn one_thread_and_two_give_the_same_results() {
    // More rows than one chunk, so chunks are split between the threads.
    let puzzles: Vec<Grid> = mixed().into_iter().cycle().take(3 * CHUNK + 7).collect();
    let one = solve_many(&puzzles, &threads(1)).unwrap();
    let two = solve_many(&puzzles, &threads(2)).unwrap();
    assert_eq!(without_nanos(one), without_nanos(two));
    let few = &puzzles[..60];
    assert_eq!(
        canonical_many(few, &threads(1)).unwrap(),
        canonical_many(few, &threads(2)).unwrap()
    );
    assert_eq!(
        rate_many(few, 3, 7, &threads(1)).unwrap(),
        rate_many(few, 3, 7, &threads(2)).unwrap()
    );
    assert_eq!(
        dedupe(few, &threads(1)).unwrap(),
        dedupe(few, &threads(2)).unwrap()
    );
}

#[test]
fn a_bad_row_in_the_middle_is_invalid_and_the_others_are_unchanged() {
    let good = solve_texts(&[UNIQUE[0], UNIQUE[1]], &Options::default()).unwrap();
    let check = |out: &Solved, why: &str| {
        assert_eq!(out.len(), 3);
        assert_eq!(out.status[1], Status::Invalid);
        assert_eq!(out.counts[1], 0);
        assert_eq!(out.solution(1), None);
        assert!(
            out.errors[1].as_deref().unwrap().contains(why),
            "{:?}",
            out.errors[1]
        );
        for (i, j) in [(0, 0), (2, 1)] {
            assert_eq!(out.status[i], good.status[j]);
            assert_eq!(out.solution(i), good.solution(j));
            assert_eq!(
                (out.counts[i], out.guesses[i]),
                (good.counts[j], good.guesses[j])
            );
            assert_eq!(out.errors[i], None);
        }
    };
    let texts = [UNIQUE[0], &UNIQUE[1][1..], UNIQUE[1]];
    check(
        &solve_texts(&texts, &Options::default()).unwrap(),
        "80 characters, expected 81",
    );
    let texts = [UNIQUE[0], CLASH, UNIQUE[1]];
    check(
        &solve_texts(&texts, &Options::default()).unwrap(),
        "5 twice in row 1 (r1c1, r1c2)",
    );
    let mut cells: Vec<u8> = [UNIQUE[0], UNSOLVABLE, UNIQUE[1]]
        .iter()
        .flat_map(|t| grid(t).0)
        .collect();
    cells[CELLS + 10] = 10;
    check(
        &solve_cells(&cells, &Options::default()).unwrap(),
        "r2c2: invalid character",
    );
}

#[test]
fn a_flat_array_must_hold_whole_rows() {
    for len in [1, 80, 82, 2 * CELLS - 1] {
        match solve_cells(&vec![0; len], &Options::default()) {
            Err(BatchError::Shape { len: l }) => assert_eq!(l, len),
            other => panic!("{len}: {other:?}"),
        }
    }
    assert!(solve_cells(&[], &Options::default()).unwrap().is_empty());
}

#[test]
fn a_cancelled_call_returns_cancelled() {
    let cancel = Cancel::new();
    let opts = Options {
        cancel: Some(cancel.clone()),
        ..Options::default()
    };
    let puzzles = mixed();
    assert!(solve_many(&puzzles, &opts).is_ok());
    cancel.cancel();
    let cancelled = |r: Result<(), BatchError>| matches!(r, Err(BatchError::Cancelled(Cancelled)));
    assert!(cancelled(solve_many(&puzzles, &opts).map(drop)));
    assert!(cancelled(solve_texts(&UNIQUE, &opts).map(drop)));
    assert!(cancelled(canonical_many(&puzzles, &opts).map(drop)));
    assert!(cancelled(rate_many(&puzzles, 2, 1, &opts).map(drop)));
    assert!(cancelled(dedupe(&puzzles, &opts).map(drop)));
    assert!(cancelled(overlap(&puzzles, &puzzles, &opts).map(drop)));
    let local = Options {
        threads: NonZeroUsize::new(2),
        ..opts
    };
    assert!(cancelled(solve_many(&puzzles, &local).map(drop)));
    assert_eq!(
        BatchError::from(Cancelled).to_string(),
        "cancelled",
        "the Python side shows this text"
    );
}

#[test]
fn a_cancel_during_a_call_stops_it_at_the_next_chunk() {
    // The work itself sets the token on an early row, so the call is surely still running.
    let cancel = Cancel::new();
    let opts = Options {
        threads: NonZeroUsize::new(1),
        cancel: Some(cancel.clone()),
        ..Options::default()
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let result = map_rows(10 * CHUNK, &opts, |i| {
        if i == 10 {
            cancel.cancel();
        }
        done.fetch_add(1, Ordering::Relaxed);
    });
    assert!(matches!(result, Err(BatchError::Cancelled(_))));
    assert!(done.load(Ordering::Relaxed) < 10 * CHUNK);
}

#[test]
fn augmented_pairs_map_back_by_the_inverse() {
    let p = grid(P);
    let s = grid(S);
    let pairs = crate::dataset::augment::augment_pair(&p, &s, 64, 11, 3);
    assert_eq!(pairs.len(), 64);
    assert!(pairs.iter().any(|(_, _, iso)| iso.transpose));
    assert!(pairs.iter().any(|(_, _, iso)| !iso.transpose));
    for (j, (q, t, iso)) in pairs.iter().enumerate() {
        assert_eq!(*iso, Isomorph::keyed(11, 3, j as u64));
        assert!(t.is_complete_valid() && t.keeps_givens(q));
        assert_eq!(solver::solve(q, 2).grid, Some(*t));
        let back = iso.inverse();
        assert_eq!((back.apply(q), back.apply(t)), (p, s));
        assert_eq!(iso.apply(&back.apply(q)), *q);
        assert_eq!(back.inverse(), *iso);
        let code: Isomorph = back.to_string().parse().unwrap();
        assert_eq!(code, back);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..500 {
        let iso = Isomorph::random(&mut rng);
        assert_eq!(iso.inverse().apply(&iso.apply(&s)), s);
    }
}

#[test]
fn dedupe_and_overlap_find_random_isomorphs() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let base: Vec<Grid> = UNIQUE.iter().map(|t| grid(t)).collect();
    // Each base puzzle, then isomorphs of them interleaved, then the bases again.
    let mut rows = base.clone();
    let mut class = vec![0, 1, 2];
    for i in 0..30 {
        rows.push(Isomorph::random(&mut rng).apply(&base[i % 3]));
        class.push(i % 3);
    }
    rows.push(Grid::EMPTY);
    class.push(3);
    rows.extend(&base);
    class.extend([0, 1, 2]);
    let found = dedupe(&rows, &Options::default()).unwrap();
    for (i, f) in found.iter().enumerate() {
        let want = (i != 33 && i >= 3).then_some(class[i]);
        assert_eq!(*f, want, "row {i}");
    }
    // Train holds two of the three classes (the second one twice); test holds isomorphs
    // of all three.
    let train = [Grid::EMPTY, base[1], base[0], base[1]];
    let test: Vec<Grid> = (0..9)
        .map(|i| Isomorph::random(&mut rng).apply(&base[i % 3]))
        .collect();
    let leaks = overlap(&train, &test, &Options::default()).unwrap();
    for (i, l) in leaks.iter().enumerate() {
        assert_eq!(*l, [Some(2), Some(1), None][i % 3], "test row {i}");
    }
}
