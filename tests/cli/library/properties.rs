//! Property tests (issue 5), run by `cargo test` with proptest:
//! - a random isomorph of a puzzle (relabelled digits, permuted bands, rows in a band,
//!   stacks, columns in a stack, transposition) has the mapped solution;
//! - on random puzzles made by blanking cells of a random solved grid (at least 25 givens,
//!   so the reference stays fast), the solver agrees with `solver::reference` on the
//!   solution count up to 3, and every solution is a valid grid that keeps the givens;
//! - the input readers take any bytes, in every layout, without panicking, and number
//!   records and lines consistently. This is the fuzzing smoke that runs in CI; longer
//!   runs use `scripts/fuzz.sh` (see FUZZING.md).

use crate::common;

use proptest::prelude::*;
use std::sync::OnceLock;
use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::input::{Dataset, Format, LayoutOptions, ReadOptions};
use sudoku_batch::solver::{reference::count_solutions, solve};

/// The committed sample: unique puzzles with their solutions.
fn sample() -> &'static [(Grid, Grid)] {
    static SAMPLE: OnceLock<Vec<(Grid, Grid)>> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt"));
        common::data_lines(text)
            .into_iter()
            .take(300)
            .map(|(_, l)| {
                let p = parse_cells(&l.as_bytes()[..81]).unwrap();
                let found = solve(&p, 2);
                assert_eq!(found.count, 1, "sample puzzles are unique");
                let s = found.grid.unwrap();
                assert_valid_solution(&p, &s);
                (p, s)
            })
            .collect()
    })
}

/// A symmetry of the Sudoku rules: cell (r, c) of the image holds `digits[v]` where `v` is
/// the value at (`rows[r]`, `cols[c]`) of the source, transposed first if `transpose`.
#[derive(Clone, Debug)]
struct Iso {
    digits: Vec<u8>,
    rows: Vec<usize>,
    cols: Vec<usize>,
    transpose: bool,
}

impl Iso {
    fn apply(&self, g: &Grid) -> Grid {
        let mut out = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (sr, sc) = (self.rows[r], self.cols[c]);
                let v = if self.transpose {
                    g.0[sc * 9 + sr]
                } else {
                    g.0[sr * 9 + sc]
                };
                out[r * 9 + c] = if v == 0 { 0 } else { self.digits[v as usize] };
            }
        }
        Grid(out)
    }
}

/// A permutation of 0..9 that keeps bands (or stacks) together: bands permuted, then
/// rows permuted within each band.
fn line_perm() -> impl Strategy<Value = Vec<usize>> {
    let three = || Just(vec![0usize, 1, 2]).prop_shuffle();
    (three(), three(), three(), three()).prop_map(|(bands, a, b, c)| {
        let inner = [a, b, c];
        bands
            .iter()
            .enumerate()
            .flat_map(|(i, &band)| {
                inner[i]
                    .iter()
                    .map(move |&r| band * 3 + r)
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

fn iso() -> impl Strategy<Value = Iso> {
    (
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        line_perm(),
        line_perm(),
        any::<bool>(),
    )
        .prop_map(|(d, rows, cols, transpose)| {
            let mut digits = vec![0];
            digits.extend(d);
            Iso {
                digits,
                rows,
                cols,
                transpose,
            }
        })
}

fn assert_valid_solution(puzzle: &Grid, solution: &Grid) {
    common::assert_solves(&puzzle.to_string(), &solution.to_string(), "property");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 32 } else { 512 }))]

    #[test]
    fn an_isomorph_has_the_mapped_solution(i in 0usize..300, t in iso()) {
        let (p, s) = sample()[i];
        let (tp, ts) = (t.apply(&p), t.apply(&s));
        assert_valid_solution(&tp, &ts);
        let found = solve(&tp, 2);
        prop_assert_eq!(found.count, 1);
        prop_assert_eq!(found.grid, Some(ts));
    }

    #[test]
    fn the_solver_agrees_with_the_reference_on_random_puzzles(
        i in 0usize..300,
        t in iso(),
        cells in Just((0..81usize).collect::<Vec<_>>()).prop_shuffle(),
        blanks in 0usize..=56,
        limit in 2u32..=3,
    ) {
        let full = t.apply(&sample()[i].1);
        let mut puzzle = full;
        for &c in &cells[..blanks] {
            puzzle.0[c] = 0;
        }
        let fast = solve(&puzzle, limit);
        let (count, _) = count_solutions(&puzzle, limit);
        prop_assert_eq!(fast.count, count, "puzzle {}", puzzle);
        prop_assert!(fast.count >= 1, "made from a solved grid");
        assert_valid_solution(&puzzle, &fast.grid.unwrap());
    }
}

/// Bytes that look enough like puzzle files to reach deep into the readers: cells,
/// separators, quotes, line ends, comments, a BOM piece, non-UTF-8 and NUL.
fn puzzleish_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet =
        prop::sample::select(b"0123456789._,;:\"\n\r\t #xE+\xef\xbb\xbf\xff\x00".to_vec());
    let token = prop_oneof![
        4 => alphabet.prop_map(|b| vec![b]),
        1 => Just(b"quizzes,solutions\n".to_vec()),
        1 => Just(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9".to_vec()),
    ];
    prop::collection::vec(token, 0..120).prop_map(|t| t.concat())
}

fn read_everything(bytes: &[u8], opts: &LayoutOptions) {
    let opts = ReadOptions {
        layout: opts.clone(),
        ..ReadOptions::default()
    };
    let Ok(mut reader) = Dataset::from_bytes("bytes", bytes.to_vec(), &opts) else {
        return;
    };
    let mut batch = Vec::new();
    let mut next = 0;
    let mut last_line = 0;
    loop {
        if reader.fill(&mut batch, 3).is_err() {
            return; // an I/O error of the CSV reader: fatal for the input, not a panic
        }
        if batch.is_empty() {
            break;
        }
        for r in &batch {
            assert_eq!(r.record, next, "records numbered from 0 without gaps");
            // `>=`: a record of a quoted field over several lines takes its first line.
            assert!(
                r.line >= last_line.max(1),
                "lines never go back: {} after {last_line}",
                r.line
            );
            if let Err(e) = &r.puzzle {
                assert!(!e.to_string().is_empty());
            }
            next += 1;
            last_line = r.line;
        }
    }
    assert_eq!(reader.next_record(), next);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn readers_take_any_bytes_in_every_layout(
        bytes in prop_oneof![puzzleish_bytes(), prop::collection::vec(any::<u8>(), 0..300)],
        format in prop::sample::select(vec![Format::Auto, Format::Lines, Format::Csv]),
        no_header in any::<bool>(),
        skip_solutions in any::<bool>(),
        column in prop::option::of(prop::sample::select(vec!["1", "2", "quizzes", "0"])),
    ) {
        let opts = LayoutOptions {
            format,
            puzzle_column: column.map(String::from),
            solution_column: None,
            skip_solutions,
            no_header,
            delimiter: None,
            member: None,
        };
        read_everything(&bytes, &opts);
    }
}
