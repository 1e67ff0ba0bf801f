//! The library's public core, used as another program would use it: only the crate-root
//! names and `batch`, against the shared datasets and the CLI's own output.

use crate::common;

use sudoku_batch::batch::{canonical_many, dedupe, overlap, solve_many, solve_texts, Options};
use sudoku_batch::{minlex, Dataset, Grid, Isomorph, ReadOptions, Status};

/// Every puzzle of `path`, read by the library's own reader.
fn read_puzzles(path: &str) -> Vec<Grid> {
    let mut data = Dataset::open(path, &ReadOptions::default()).expect("the input opens");
    let (mut out, mut records) = (Vec::new(), Vec::new());
    loop {
        data.fill(&mut records, 1000).expect("the input reads");
        if records.is_empty() {
            break;
        }
        out.extend(records.iter().map(|r| r.puzzle.clone().expect("a puzzle")));
    }
    out
}

#[test]
fn solve_many_agrees_with_the_rules_and_with_the_cli() {
    let Some(data) = common::shared("data") else {
        return;
    };
    let path = data.join("hard20.txt");
    let path = path.to_str().unwrap();
    let puzzles = read_puzzles(path);
    assert_eq!(puzzles.len(), 20);
    let out = solve_many(&puzzles, &Options::default()).unwrap();
    for (i, p) in puzzles.iter().enumerate() {
        assert_eq!((out.status[i], out.counts[i]), (Status::Solved, 1), "{p}");
        let s = out.solution(i).unwrap();
        assert!(s.is_complete_valid() && s.keeps_givens(p), "{p}");
    }
    let cli = common::bin()
        .args(["solve", path, "-o", "-"])
        .output()
        .unwrap();
    common::assert_exit_ok(&cli);
    let lines: Vec<String> = String::from_utf8(cli.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let ours: Vec<String> = (0..20)
        .map(|i| out.solution(i).unwrap().to_digits())
        .collect();
    assert_eq!(lines, ours);
}

#[test]
fn canonical_forms_match_the_reference() {
    let Some(data) = common::shared("data/canon") else {
        return;
    };
    let text = std::fs::read_to_string(data.join("minlex_reference.csv")).unwrap();
    let (puzzles, forms): (Vec<Grid>, Vec<Grid>) = text
        .lines()
        .skip(1)
        .take(300)
        .map(|l| {
            let (p, f) = l.split_once(',').unwrap();
            (
                Grid::parse(p.as_bytes()).unwrap(),
                Grid::parse(f.as_bytes()).unwrap(),
            )
        })
        .unzip();
    assert_eq!(
        canonical_many(&puzzles, &Options::default()).unwrap(),
        forms
    );
    // An isomorph of each reference puzzle has the same form, and is found by dedupe and
    // overlap.
    let shuffled: Vec<Grid> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| Isomorph::keyed(31, i as u64, 0).apply(p))
        .collect();
    assert_eq!(
        canonical_many(&shuffled, &Options::default()).unwrap(),
        forms
    );
    let leaks = overlap(&puzzles, &shuffled, &Options::default()).unwrap();
    assert!(leaks.iter().enumerate().all(|(i, l)| *l == Some(i)));
    let mut both = puzzles.clone();
    both.extend(&shuffled);
    let dropped = dedupe(&both, &Options::default()).unwrap();
    assert!(dropped[..300].iter().all(Option::is_none));
    assert!(dropped[300..]
        .iter()
        .enumerate()
        .all(|(i, d)| *d == Some(i)));
    assert_eq!(minlex(&shuffled[0]), forms[0]);
}

#[test]
fn strings_in_and_out_round_trip() {
    let texts = [common::P, "", common::S];
    let out = solve_texts(&texts, &Options::default()).unwrap();
    assert_eq!(
        out.status,
        [Status::Solved, Status::Invalid, Status::Solved]
    );
    assert_eq!(out.solution(0).unwrap().to_digits(), common::S);
    assert_eq!(out.errors[1].as_deref(), Some("0 characters, expected 81"));
    assert_eq!(
        [0, 1, 2].map(|i| out.status[i].code()),
        [0, 3, 0],
        "the documented codes"
    );
}

#[test]
fn a_dataset_reads_from_a_reader_as_from_a_file() {
    use std::io::Write;
    let text = format!(
        "quizzes,solutions\n{},{}\n{},\n",
        common::P,
        common::S,
        ".".repeat(80)
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let read = |mut data: Dataset| {
        let mut records = Vec::new();
        data.fill(&mut records, 10).unwrap();
        records
            .iter()
            .map(|r| (r.line, r.puzzle.clone(), r.solution.clone()))
            .collect::<Vec<_>>()
    };
    let opts = ReadOptions::default();
    let plain = read(Dataset::from_bytes("mem", text.clone().into_bytes(), &opts).unwrap());
    let streamed = read(Dataset::from_reader("gz", std::io::Cursor::new(gz), &opts).unwrap());
    assert_eq!(plain, streamed);
    assert_eq!(plain.len(), 2);
    assert_eq!(
        plain[0].1.as_ref().unwrap().to_digits().replace('0', "."),
        common::P
    );
    assert!(plain[1].1.is_err());
    let sharded = ReadOptions {
        shard: Some(sudoku_batch::input::Shard { index: 1, count: 2 }),
        ..ReadOptions::default()
    };
    let e = Dataset::from_reader("gz", std::io::empty(), &sharded)
        .err()
        .unwrap();
    assert!(e.to_string().contains("a shard needs a file"), "{e}");
}
