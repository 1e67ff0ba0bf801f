//! `generate` end to end (issue 34): every puzzle checked unique (and minimal with
//! `--minimal`) by a brute-force count written here, not our solver; the same rows at any
//! thread count and across shards; `--exclude` against isomorphs of a generated set; bins
//! filled with ratings that `rate` gives too; the stop at the budget; bad options refused.

use crate::common;

use std::path::Path;

use common::bin;
use rand::SeedableRng;
use sudoku_batch::canon::minlex;
use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::isomorph::Isomorph;

/// Counts the solutions of `cells` (0 = blank) up to `limit` by plain backtracking on the
/// cell with the fewest candidates, candidates recomputed from the grid at every step.
fn brute_count(cells: &mut [u8; 81], limit: u32) -> u32 {
    let mut best: Option<(usize, u16)> = None;
    for i in 0..81 {
        if cells[i] != 0 {
            continue;
        }
        let (r, c) = (i / 9, i % 9);
        let mut used = 0u16;
        for k in 0..9 {
            let peers = [
                r * 9 + k,
                k * 9 + c,
                (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3,
            ];
            for p in peers {
                used |= 1 << cells[p];
            }
        }
        let free = !used & 0x3fe;
        if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
            best = Some((i, free));
        }
    }
    let Some((i, free)) = best else { return 1 };
    let mut n = 0;
    for d in 1..=9u8 {
        if free & (1 << d) != 0 {
            cells[i] = d;
            n += brute_count(cells, limit - n);
            cells[i] = 0;
            if n >= limit {
                break;
            }
        }
    }
    n
}

fn grid(text: &str) -> Grid {
    parse_cells(text.as_bytes()).unwrap()
}

/// The CSV rows of a `generate` output: header checked.
fn table(text: &str) -> Vec<csv::StringRecord> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["index", "puzzle", "solution", "clues", "rating", "bin", "seed", "source"]
    );
    rdr.records().map(Result::unwrap).collect()
}

fn generate(args: &[&str]) -> (String, String, Option<i32>) {
    let o = bin().arg("generate").args(args).output().unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code(),
    )
}

/// Asserts every row is a unique puzzle whose solution column is its solution, with the
/// right clue count, and (when `minimal`) no removable given, all by [`brute_count`].
fn assert_valid(rows: &[csv::StringRecord], minimal: bool) {
    for row in rows {
        let (p, s) = (grid(&row[1]), grid(&row[2]));
        assert!(s.is_complete_valid() && s.keeps_givens(&p), "{row:?}");
        assert_eq!(row[3].parse::<u32>().unwrap(), p.clues());
        let mut cells = p.0;
        assert_eq!(brute_count(&mut cells, 2), 1, "not unique: {row:?}");
        if minimal {
            for c in (0..81).filter(|&c| p.0[c] != 0) {
                let mut less = p.0;
                less[c] = 0;
                assert_eq!(brute_count(&mut less, 2), 2, "given {c} removable: {row:?}");
            }
        }
    }
}

#[test]
fn puzzles_are_unique_and_minimal_by_an_independent_count() {
    let (out, err, code) = generate(&["-n", "20", "--minimal", "--seed", "5", "-q"]);
    assert_eq!(code, Some(0), "{err}");
    let rows = table(&out);
    assert_eq!(rows.len(), 20);
    assert_valid(&rows, true);
    let index: Vec<String> = rows.iter().map(|r| r[0].to_string()).collect();
    assert_eq!(index, (0..20).map(|i| i.to_string()).collect::<Vec<_>>());
    // Without --minimal a clue floor stops removal: every puzzle in range, still unique.
    let (out, err, code) = generate(&["-n", "30", "--clues", "30..36", "--seed", "6", "-q"]);
    assert_eq!(code, Some(0), "{err}");
    let rows = table(&out);
    assert!(rows
        .iter()
        .all(|r| (30..=36).contains(&r[3].parse::<u32>().unwrap())));
    assert_valid(&rows, false);
}

#[test]
fn symmetric_puzzles_keep_their_pattern() {
    for (sym, map) in [
        (
            "180",
            (|r, c| (8 - r, 8 - c)) as fn(usize, usize) -> (usize, usize),
        ),
        ("diagonal", |r, c| (c, r)),
        ("90", |r, c| (c, 8 - r)),
    ] {
        let (out, err, code) = generate(&["-n", "12", "--symmetry", sym, "--seed", "2", "-q"]);
        assert_eq!(code, Some(0), "{err}");
        let rows = table(&out);
        assert_eq!(rows.len(), 12);
        assert_valid(&rows, false);
        for row in &rows {
            let p = grid(&row[1]);
            for i in 0..81 {
                let (r, c) = map(i / 9, i % 9);
                assert_eq!(p.0[i] != 0, p.0[r * 9 + c] != 0, "{sym}: {row:?}");
            }
        }
    }
    // --minimal with a symmetry keeps only puzzles minimal given by given.
    let (out, err, code) = generate(&["-n", "6", "--symmetry", "180", "--minimal", "-q"]);
    assert_eq!(code, Some(0), "{err}");
    assert_valid(&table(&out), true);
}

#[test]
fn rows_are_the_same_at_any_thread_count_and_shards_join_to_the_run() {
    let base = [
        "-n",
        "230",
        "--seed",
        "9",
        "-q",
        "--rating",
        "0,0.5,1.5,inf",
    ];
    let whole = generate(&[&base[..], &["-j", "1"]].concat());
    assert_eq!(whole.2, Some(0), "{}", whole.1);
    let two = generate(&[&base[..], &["-j", "2"]].concat());
    assert_eq!(whole.0, two.0);
    let mut joined = String::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (out, err, code) = generate(&[&base[..], &["--shard", &shard, "-j", "2"]].concat());
        assert_eq!(code, Some(0), "{err}");
        let body = out.split_once('\n').unwrap().1;
        assert!(!body.is_empty(), "shard {shard} holds a block");
        joined.push_str(body);
    }
    assert_eq!(whole.0.split_once('\n').unwrap().1, joined);
    let rows = table(&whole.0);
    assert_eq!(rows.len(), 230);
    // Each bin's count within one of its third; every rating inside its bin.
    let edges = [0.0, 0.5, 1.5, f64::INFINITY];
    let mut per_bin = [0; 3];
    for r in &rows {
        let (rating, b): (f64, usize) = (r[4].parse().unwrap(), r[5].parse().unwrap());
        assert!(edges[b] <= rating && rating < edges[b + 1], "{r:?}");
        per_bin[b] += 1;
    }
    assert!(
        per_bin.iter().all(|&n| (76..=77).contains(&n)),
        "{per_bin:?}"
    );
}

#[test]
fn ratings_are_those_rate_gives() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.csv");
    let (_, err, code) = generate(&[
        "-n",
        "20",
        "--rating",
        "2",
        "-q",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let rows = table(&std::fs::read_to_string(&out).unwrap());
    let puzzles = dir.path().join("p.txt");
    let lines: String = rows.iter().map(|r| format!("{}\n", &r[1])).collect();
    std::fs::write(&puzzles, lines).unwrap();
    let o = bin()
        .args(["rate", puzzles.to_str().unwrap(), "-q"])
        .output()
        .unwrap();
    let rated = String::from_utf8(o.stdout).unwrap();
    let mut rdr = csv::Reader::from_reader(rated.as_bytes());
    let ratings: Vec<String> = rdr.records().map(|r| r.unwrap()[6].to_string()).collect();
    let ours: Vec<String> = rows.iter().map(|r| r[4].to_string()).collect();
    assert_eq!(ours, ratings);
}

#[test]
fn exclude_keeps_out_every_isomorph_of_the_files_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let (first, err, code) = generate(&["-n", "30", "--seed", "4", "-q"]);
    assert_eq!(code, Some(0), "{err}");
    let first = table(&first);
    // The held-out set: a random isomorph of each generated puzzle.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(34);
    let held: Vec<Grid> = first
        .iter()
        .map(|r| Isomorph::random(&mut rng).apply(&grid(&r[1])))
        .collect();
    let path = dir.path().join("held.txt");
    let lines: String = held.iter().map(|g| format!("{g}\n")).collect();
    std::fs::write(&path, lines).unwrap();
    let (out, err, code) = generate(&[
        "-n",
        "30",
        "--seed",
        "4",
        "-q",
        "--exclude",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let forms: std::collections::HashSet<Grid> = held.iter().map(minlex).collect();
    let again = table(&out);
    assert_eq!(again.len(), 30);
    assert!(again.iter().all(|r| !forms.contains(&minlex(&grid(&r[1])))));
    // The same seed tried the same candidates first: each of them was excluded.
    let seeds: std::collections::HashSet<String> = first.iter().map(|r| r[6].to_string()).collect();
    assert!(again.iter().all(|r| !seeds.contains(&r[6])));
    // --exclude-solutions: no solution grid isomorphic to a held-out row's either.
    let (out, err, code) = generate(&[
        "-n",
        "10",
        "--seed",
        "4",
        "-q",
        "--exclude",
        path.to_str().unwrap(),
        "--exclude-solutions",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let sols: std::collections::HashSet<Grid> =
        first.iter().map(|r| minlex(&grid(&r[2]))).collect();
    assert!(table(&out)
        .iter()
        .all(|r| !sols.contains(&minlex(&grid(&r[2])))));
}

#[test]
fn from_solutions_digs_the_given_grids_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _, code) = generate(&["-n", "5", "--seed", "1", "-q"]);
    assert_eq!(code, Some(0));
    let grids: Vec<String> = table(&out).iter().map(|r| r[2].to_string()).collect();
    let path = dir.path().join("sol.txt");
    std::fs::write(&path, grids.join("\n") + "\n").unwrap();
    let (out, err, code) = generate(&[
        "-n",
        "5",
        "--seed",
        "2",
        "-q",
        "--from-solutions",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let rows = table(&out);
    assert_valid(&rows, false);
    let got: Vec<String> = rows.iter().map(|r| r[2].to_string()).collect();
    assert_eq!(got, grids);
    let sources: Vec<&str> = rows.iter().map(|r| &r[7]).collect();
    assert_eq!(sources, ["0", "1", "2", "3", "4"]);
}

#[test]
fn a_bin_that_cannot_fill_stops_with_the_rows_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.csv");
    let report = dir.path().join("r.json");
    let (_, err, code) = generate(&[
        "-n",
        "10",
        "--rating",
        "0,0.3,inf",
        "--clues",
        "17..40",
        "--budget",
        "30",
        "-q",
        "--samples",
        "4",
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let written = table(&text);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let results = &json["results"];
    assert_eq!(results["rows"].as_u64().unwrap(), written.len() as u64);
    assert_eq!(json["provenance"]["tool"], "sudoku-batch");
    if results["stopped_at_block"].is_null() {
        // 30 candidates may fill both bins of 5; then nothing stopped.
        assert_eq!((code, written.len()), (Some(0), 10), "{err}");
    } else {
        assert_eq!(code, Some(1), "{err}");
        assert!(written.len() < 10);
        assert!(
            err.contains("stopped: block 0") && err.contains("written so far are kept"),
            "{err}"
        );
    }
    // A filter nothing passes stops for certain.
    let (out, err, code) = generate(&[
        "-n",
        "3",
        "--clues",
        "17",
        "--minimal",
        "--budget",
        "20",
        "-q",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(table(&out).len(), 0);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bin 0 [-inf, inf) has 0 of 3"), "{err}");
}

#[test]
fn every_table_format_holds_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (csv_text, _, _) = generate(&["-n", "4", "--seed", "3", "--rating", "1", "-q"]);
    let csv_rows = table(&csv_text);
    let jsonl = dir.path().join("g.jsonl");
    let (_, err, code) = generate(&[
        "-n",
        "4",
        "--seed",
        "3",
        "--rating",
        "1",
        "-q",
        "-o",
        jsonl.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&jsonl).unwrap();
    for (line, row) in text.lines().zip(&csv_rows) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["puzzle"], row[1].to_string());
        assert_eq!(v["seed"].as_u64().unwrap().to_string(), row[6].to_string());
        assert!(v["source"].is_null());
    }
    let npz = dir.path().join("g.npz");
    let (_, err, code) = generate(&["-n", "4", "--seed", "3", "-q", "-o", npz.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let bytes = std::fs::read(&npz).unwrap();
    assert_eq!(&bytes[..2], b"PK");
    assert!(String::from_utf8_lossy(&bytes).contains("puzzles.npy"));
    let parquet = dir.path().join("g.parquet");
    let (_, err, code) = generate(&["-n", "4", "-q", "-o", parquet.to_str().unwrap()]);
    if cfg!(feature = "parquet") {
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(&std::fs::read(&parquet).unwrap()[..4], b"PAR1");
    } else {
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--features parquet"), "{err}");
    }
}

#[test]
fn bad_options_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x.csv");
    let x = x.to_str().unwrap();
    for (args, says) in [
        (vec!["-n", "0"], "0"),
        (vec!["-n", "5", "--clues", "10..20"], "fewer than 17"),
        (vec!["-n", "5", "--clues", "30..20"], "MIN..MAX"),
        (
            vec!["-n", "5", "--symmetry", "45"],
            "expected one of none, 180",
        ),
        (vec!["-n", "5", "--rating", "0"], "--rating"),
        (vec!["-n", "5", "--rating", "1,0.5"], "empty"),
        (vec!["-n", "5", "--samples", "4"], "go with --rating"),
        (
            vec!["-n", "5", "--exclude-solutions"],
            "goes with --exclude",
        ),
        (vec!["-n", "5", "--shard", "4/3"], "--shard"),
        (vec!["-n", "5", "--budget", "0"], "0"),
        (
            vec!["-n", "5", "--exclude", "/nonexistent/held.txt"],
            "held.txt",
        ),
        (
            vec!["-n", "5", "-o", x, "--parquet-compression", "zstd"],
            "Parquet output only",
        ),
    ] {
        let (out, err, code) = generate(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(
            out.is_empty() || !out.contains('\n') || out.lines().count() <= 1,
            "{args:?}"
        );
    }
    assert!(!Path::new(x).exists());
}
