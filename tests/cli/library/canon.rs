//! The canonical form (issue 12) against an independent implementation's 4,000 forms, under
//! random isomorphs of every kind, on a grid with a large automorphism group, and on the
//! 49,158 pairwise non-isomorphic 17-clue puzzles. The tests that read `../shared` say so
//! and skip when it is absent.

use crate::common;

use std::collections::HashSet;

use common::{data_lines, shared};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudoku_batch::canon::{canonical, minlex};
use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::isomorph::Isomorph;

fn grid(s: &str) -> Grid {
    parse_cells(s.as_bytes()).unwrap()
}

#[test]
fn all_4000_reference_forms_agree() {
    let Some(dir) = shared("data/canon") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("minlex_reference.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(rows.headers().unwrap(), vec!["puzzle", "minlex"]);
    let mut n = 0;
    for row in rows.records() {
        let row = row.unwrap();
        let (puzzle, form) = (grid(&row[0]), &row[1]);
        assert_eq!(minlex(&puzzle).to_string(), form, "puzzle {}", &row[0]);
        n += 1;
    }
    assert_eq!(n, 4000);
}

/// A grid with the largest automorphism group a Sudoku grid has: 648 (Russell and Jarvis,
/// "Mathematics of Sudoku II", 2006).
const SYMMETRIC: &str =
    "123456789456789123789123456231564897564897231897231564312645978645978312978312645";

#[test]
fn a_grid_with_a_large_automorphism_group_and_puzzles_on_it_keep_one_form() {
    let g = grid(SYMMETRIC);
    assert!(g.is_complete_valid());
    let mut rng = ChaCha8Rng::seed_from_u64(648);
    // The grid, and puzzles on it whose own automorphism groups are large: the first cell
    // of each box (9 givens), the cells on the diagonal of each box (27), the others (54).
    let mut puzzles = vec![
        g,
        keep(&g, |i| (i / 9) % 3 == 0 && (i % 9) % 3 == 0),
        keep(&g, |i| (i / 9) % 3 == (i % 9) % 3),
        keep(&g, |i| (i / 9) % 3 != (i % 9) % 3),
    ];
    for clues in [17, 24, 30, 45] {
        let mut cells: Vec<usize> = (0..81).collect();
        cells.shuffle(&mut rng);
        let chosen: HashSet<usize> = cells[..clues].iter().copied().collect();
        puzzles.push(keep(&g, |i| chosen.contains(&i)));
    }
    for (k, p) in puzzles.iter().enumerate() {
        let c = canonical(p);
        assert!(c.automorphisms >= 1);
        assert_eq!(c.form.clues(), p.clues());
        // The complete grid is the slow case of the search (milliseconds): fewer rounds.
        let rounds = if k == 0 { 30 } else { 1000 };
        for _ in 0..rounds {
            let iso = Isomorph::random(&mut rng).apply(p);
            assert_eq!(canonical(&iso), c, "isomorph {iso} of {p}");
        }
    }
    let autos: Vec<u32> = puzzles[..4]
        .iter()
        .map(|p| canonical(p).automorphisms)
        .collect();
    // 648 for the grid (the known maximum); the puzzles keep subgroups of the grid's group
    // and gain the transforms that move only blanks.
    assert_eq!(autos[0], 648);
    assert!(autos[1..].iter().all(|&a| a >= 108), "{autos:?}");
}

/// The givens of `g` at the cells `pick` keeps.
fn keep(g: &Grid, pick: impl Fn(usize) -> bool) -> Grid {
    let mut p = *g;
    for (i, d) in p.0.iter_mut().enumerate() {
        if !pick(i) {
            *d = 0;
        }
    }
    p
}

/// An isomorph built from its parts, so that proptest draws every kind of transform.
fn isomorph() -> impl Strategy<Value = Isomorph> {
    let trio = || Just(vec![0usize, 1, 2]).prop_shuffle();
    let lines = || {
        (trio(), trio(), trio(), trio()).prop_map(|(outer, a, b, c)| {
            let inner = [a, b, c];
            let mut out = [0; 9];
            for (i, &band) in outer.iter().enumerate() {
                for (j, &k) in inner[i].iter().enumerate() {
                    out[i * 3 + j] = band * 3 + k;
                }
            }
            out
        })
    };
    let digits = Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle();
    (lines(), lines(), digits, any::<bool>()).prop_map(|(rows, cols, d, transpose)| Isomorph {
        rows,
        cols,
        digits: d.try_into().unwrap(),
        transpose,
    })
}

/// A puzzle: a random isomorph of a known grid, keeping each cell with probability `keep`.
fn puzzle() -> impl Strategy<Value = Grid> {
    (any::<u64>(), 0.0..1.0f64).prop_map(|(seed, keep)| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = Isomorph::random(&mut rng).apply(&grid(common::S));
        let mut p = g;
        for d in p.0.iter_mut() {
            if rand::Rng::random_bool(&mut rng, keep) {
                continue;
            }
            *d = 0;
        }
        p
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, rng_seed: proptest::test_runner::RngSeed::Fixed(12), ..ProptestConfig::default() })]

    #[test]
    fn isomorphs_have_one_form(p in puzzle(), a in isomorph(), b in isomorph()) {
        let (x, y) = (a.apply(&p), b.apply(&a.apply(&p)));
        let c = canonical(&p);
        prop_assert_eq!(canonical(&x), c);
        prop_assert_eq!(canonical(&y), c);
        prop_assert_eq!(c.form.clues(), p.clues());
        prop_assert_eq!(minlex(&c.form), c.form);
    }
}

#[test]
fn clue17_gives_49158_distinct_forms() {
    let Some(dir) = shared("data") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("17_clue.txt")).unwrap();
    let lines = data_lines(&text);
    assert_eq!(lines.len(), 49_158);
    let forms: HashSet<Grid> = lines.iter().map(|(_, l)| minlex(&grid(&l[..81]))).collect();
    assert_eq!(forms.len(), 49_158);
}
