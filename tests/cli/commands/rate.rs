//! `rate` end to end (issue 13): every isomorph of a puzzle gets exactly the same rating,
//! statuses and `singles_only` are right, and the `.npz` output holds the CSV's values.

use crate::common;

use common::{bin, shared, P, S};
use rand::{Rng, SeedableRng};
use sudoku_batch::grid::parse_cells;
use sudoku_batch::isomorph::{Isomorph, GROUP_ORDER};

fn csv_rows(text: &str) -> Vec<csv::StringRecord> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        rdr.headers().unwrap(),
        vec![
            "record",
            "input",
            "line",
            "clues",
            "status",
            "singles_only",
            "rating",
            "guesses_min",
            "guesses_median",
            "guesses_max"
        ]
    );
    rdr.records().map(Result::unwrap).collect()
}

#[test]
fn every_isomorph_of_a_hard_puzzle_gets_the_same_rating() {
    let Some(data) = shared("data") else { return };
    let text = std::fs::read_to_string(data.join("forum_hardest_1905_11plus.txt")).unwrap();
    let puzzles: Vec<String> = common::data_lines(&text)
        .into_iter()
        .take(50)
        .map(|(_, l)| l[..81].to_string())
        .collect();
    assert_eq!(puzzles.len(), 50);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    let mut lines = String::new();
    for p in &puzzles {
        let g = parse_cells(p.as_bytes()).unwrap();
        lines.push_str(p);
        lines.push('\n');
        for _ in 1..100 {
            let iso = Isomorph::from_index(rng.random_range(0..GROUP_ORDER));
            lines.push_str(&iso.apply(&g).to_string());
            lines.push('\n');
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("isomorphs.txt");
    std::fs::write(&input, lines).unwrap();
    let out = dir.path().join("rated.csv");
    let o = bin()
        .args([
            "rate",
            input.to_str().unwrap(),
            "--samples",
            "3",
            "--seed",
            "4",
            "-q",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    common::assert_exit_ok(&o);
    let rows = csv_rows(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(rows.len(), 5000);
    let mut ratings = Vec::new();
    for (i, group) in rows.chunks(100).enumerate() {
        let first = &group[0];
        assert_eq!(&first[4], "solved");
        assert_eq!(
            &first[5], "false",
            "puzzle {i}: an 11+ puzzle needs more than singles"
        );
        for r in group {
            // rating, guesses_min, guesses_median, guesses_max, clues.
            for col in [3, 6, 7, 8, 9] {
                assert_eq!(&r[col], &first[col], "puzzle {i}, record {}", &r[0]);
            }
        }
        ratings.push(first[6].to_string());
    }
    ratings.sort();
    ratings.dedup();
    assert!(
        ratings.len() > 10,
        "the ratings tell puzzles apart: {ratings:?}"
    );
}

#[test]
fn statuses_singles_and_npz_columns() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.txt");
    let hard = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
    let empty = ".".repeat(81);
    std::fs::write(&input, format!("{P}\n{hard}\n{empty}\nbad\n")).unwrap();
    let csv_out = dir.path().join("r.csv");
    let o = bin()
        .args(["rate", input.to_str().unwrap(), "--samples", "4", "-o"])
        .arg(&csv_out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("4 records: 2 rated"), "{err}");
    assert!(err.contains("1 multiple, 0 unsolvable, 1 invalid"), "{err}");
    let rows = csv_rows(&std::fs::read_to_string(&csv_out).unwrap());
    let col = |c: usize| -> Vec<&str> { rows.iter().map(|r| r.get(c).unwrap()).collect() };
    assert_eq!(col(4), ["solved", "solved", "multiple", "invalid"]);
    assert_eq!(col(5), ["true", "true", "false", ""]);
    let p_clues = P.bytes().filter(|&b| b != b'.').count().to_string();
    assert_eq!(col(3), [p_clues.as_str(), "17", "0", ""]);
    // A puzzle that singles solve has no guesses in any sample.
    assert_eq!(&rows[0][6], "0.0000");
    assert_eq!(col(6)[2..], ["", ""]);
    // The same rows as .npz.
    let npz = dir.path().join("r.npz");
    let o = bin()
        .args([
            "rate",
            input.to_str().unwrap(),
            "--samples",
            "4",
            "-q",
            "-o",
        ])
        .arg(&npz)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&npz).unwrap()).unwrap();
    let mut array = |name: &str| {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut zip.by_name(name).unwrap(), &mut bytes).unwrap();
        npyz::NpyFile::new(std::io::Cursor::new(bytes)).unwrap()
    };
    let status: Vec<Vec<u8>> = array("status.npy").into_vec().unwrap();
    assert_eq!(status, [&b"solved"[..], b"solved", b"multiple", b"invalid"]);
    let singles: Vec<bool> = array("singles_only.npy").into_vec().unwrap();
    assert_eq!(singles, [true, true, false, false]);
    let clues: Vec<i64> = array("clues.npy").into_vec().unwrap();
    let p_clues = P.bytes().filter(|&b| b != b'.').count() as i64;
    assert_eq!(clues, [p_clues, 17, 0, -1]);
    let rating: Vec<f64> = array("rating.npy").into_vec().unwrap();
    assert_eq!(rating[0], 0.0);
    assert!(rating[2].is_nan() && rating[3].is_nan());
    let line: Vec<i64> = array("line.npy").into_vec().unwrap();
    assert_eq!(line, [1, 2, 3, 4]);
}

/// `rate --puzzle-column` pointed at a solution column rated complete grids (all
/// 0) without a word; `verify` then said "ok" with exit 0. When every puzzle read
/// from a chosen column is a complete grid, `rate`, `augment`, `solve`, `verify`, `canon`
/// and `dedup` warn, naming the column and the flag, even with `-q`; the puzzle column, or
/// a lines file of complete grids (no column chosen), gives no warning.
#[test]
fn a_puzzle_column_of_complete_grids_is_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("k.csv");
    let p = P.replace('.', "0");
    std::fs::write(&csv, format!("quizzes,solutions\n{p},{S}\n{p},{S}\n")).unwrap();
    let lines = dir.path().join("grids.txt");
    std::fs::write(&lines, format!("{S}\n{S}\n")).unwrap();
    let run = |args: &[&str]| {
        let mut cmd = bin();
        cmd.args(args).arg("-q");
        if args[0] != "verify" {
            cmd.args(["-o", "/dev/null"]);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        String::from_utf8(o.stderr).unwrap()
    };
    let csv = csv.to_str().unwrap();
    for cmd in ["rate", "augment", "solve", "verify", "canon", "dedup"] {
        let err = run(&[cmd, csv, "--puzzle-column", "solutions"]);
        assert_eq!(
            err.trim_end(),
            "sudoku-batch: warning: every puzzle (read from solutions) is a complete grid \
             (81 givens), as in a solution column; if that is a mistake, choose the puzzle \
             column with --puzzle-column",
            "{cmd}"
        );
        assert_eq!(run(&[cmd, csv]), "", "{cmd}: the quizzes column");
        assert_eq!(run(&[cmd, lines.to_str().unwrap()]), "", "{cmd}: lines");
    }
}
