//! `augment` end to end (issue 13): every pair is a puzzle with its unique solution, the
//! transform code rebuilds the pair from the source row (read here by the documented rule,
//! not by the library), the bytes do not depend on `-j` or sharding, skipped rows are
//! counted, and the JSON Lines and `.npz` outputs hold the same rows as the CSV.

use crate::common;

use std::path::{Path, PathBuf};

use common::{assert_solves, bin, cells, shared, P, S};
use sudoku_batch::grid::parse_cells;
use sudoku_batch::solver::solve;

/// One output row.
#[derive(Debug, PartialEq)]
struct Row {
    source_record: u64,
    puzzle: String,
    solution: String,
    transform: String,
}

fn csv_rows(text: &str) -> Vec<Row> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["source_record", "puzzle", "solution", "transform"]
    );
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            Row {
                source_record: r[0].parse().unwrap(),
                puzzle: r[1].to_string(),
                solution: r[2].to_string(),
                transform: r[3].to_string(),
            }
        })
        .collect()
}

/// Applies a transform code to an 81-character grid by the rule the README gives:
/// `out = (g.T if T else g)[R][:, C]`, then digits relabelled by `D`.
fn apply_code(code: &str, grid: &str) -> String {
    let parts: Vec<&str> = code.split('-').collect();
    assert_eq!(parts.len(), 4, "{code}");
    let digits = |p: &str| -> Vec<usize> { p.bytes().map(|b| usize::from(b - b'0')).collect() };
    let (t, rows, cols, relabel) = (
        parts[0] == "1",
        digits(parts[1]),
        digits(parts[2]),
        digits(parts[3]),
    );
    let g = cells(grid);
    let mut out = String::new();
    for &sr in &rows {
        for &sc in &cols {
            let d = if t { g[sc * 9 + sr] } else { g[sr * 9 + sc] };
            let d = if d == 0 {
                0
            } else {
                relabel[usize::from(d) - 1]
            };
            out.push(char::from(b'0' + d as u8));
        }
    }
    out
}

fn run(args: &[&str], out: &Path) -> std::process::Output {
    bin()
        .arg("augment")
        .args(args)
        .arg("-o")
        .arg(out)
        .arg("-q")
        .output()
        .unwrap()
}

fn hard20() -> Option<PathBuf> {
    Some(shared("data")?.join("hard20.txt"))
}

#[test]
fn every_pair_is_a_unique_puzzle_rebuilt_by_its_transform_code() {
    let Some(input) = hard20() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pairs.csv");
    let o = run(
        &[
            input.to_str().unwrap(),
            "-n",
            "6",
            "--seed",
            "11",
            "--include-original",
        ],
        &out,
    );
    common::assert_exit_ok(&o);
    let sources: Vec<String> = common::data_lines(&std::fs::read_to_string(&input).unwrap())
        .into_iter()
        .map(|(_, l)| l[..81].to_string())
        .collect();
    let rows = csv_rows(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(rows.len(), sources.len() * 7);
    for (i, row) in rows.iter().enumerate() {
        let ctx = format!("row {i}");
        assert_eq!(row.source_record, (i / 7) as u64, "{ctx}");
        let source = &sources[row.source_record as usize];
        assert_solves(&row.puzzle, &row.solution, &ctx);
        let found = solve(&parse_cells(row.puzzle.as_bytes()).unwrap(), 2);
        assert_eq!(found.count, 1, "{ctx}: not unique");
        assert_eq!(found.grid.unwrap().to_string(), row.solution, "{ctx}");
        assert_eq!(apply_code(&row.transform, source), row.puzzle, "{ctx}");
        let source_solution = solve(&parse_cells(source.as_bytes()).unwrap(), 1)
            .grid
            .unwrap();
        assert_eq!(
            apply_code(&row.transform, &source_solution.to_string()),
            row.solution,
            "{ctx}"
        );
        if i % 7 == 0 {
            assert_eq!(row.transform, "0-012345678-012345678-123456789");
        }
    }
    // Different seeds give different pairs.
    let other = dir.path().join("other.csv");
    run(
        &[input.to_str().unwrap(), "-n", "6", "--seed", "12"],
        &other,
    );
    assert_ne!(std::fs::read(&other).unwrap(), std::fs::read(&out).unwrap());
}

/// Shards joined in order are the whole run's bytes for one input (README: Sharding);
/// [`shards_of_several_inputs_sorted_by_source_record_are_the_whole_run`] covers several.
#[test]
fn the_same_seed_gives_the_same_bytes_at_any_thread_count_and_across_shards_of_one_input() {
    let Some(data) = shared("data") else { return };
    let input = data.join("kaggle_1m_sample.csv");
    let dir = tempfile::tempdir().unwrap();
    let input = input.to_str().unwrap();
    let whole = |j: &str| {
        let out = dir.path().join(format!("j{j}.csv"));
        let o = run(&[input, "-n", "3", "--seed", "5", "-j", j], &out);
        assert_eq!(o.status.code(), Some(0));
        std::fs::read(out).unwrap()
    };
    let one = whole("1");
    assert_eq!(one, whole("2"));
    let mut joined = Vec::new();
    for k in 1..=3 {
        let out = dir.path().join(format!("s{k}.csv"));
        let shard = format!("{k}/3");
        let o = run(&[input, "-n", "3", "--seed", "5", "--shard", &shard], &out);
        assert_eq!(o.status.code(), Some(0));
        let bytes = std::fs::read(out).unwrap();
        let body = if k == 1 {
            &bytes[..]
        } else {
            let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
            &bytes[nl + 1..]
        };
        joined.extend_from_slice(body);
    }
    assert_eq!(joined, one, "shards joined differ from the whole run");
    // The stored solutions were used, and every pair checks out.
    let rows = csv_rows(std::str::from_utf8(&one).unwrap());
    assert_eq!(rows.len(), 3 * 20_000);
    for r in rows.iter().step_by(997) {
        assert_solves(
            &r.puzzle,
            &r.solution,
            &format!("record {}", r.source_record),
        );
    }
}

/// With two inputs each shard holds its part of both, so shards joined in order
/// are not the whole run (line 14 differed); a stable sort on `source_record`, as README's
/// Sharding section says, gives its rows back in its order.
#[test]
fn shards_of_several_inputs_sorted_by_source_record_are_the_whole_run() {
    let Some(data) = shared("data") else { return };
    let inputs = [data.join("hardest.txt"), data.join("top95.txt")];
    let inputs: Vec<&str> = inputs.iter().map(|p| p.to_str().unwrap()).collect();
    let dir = tempfile::tempdir().unwrap();
    let augment = |shard: Option<&str>| {
        let out = dir.path().join(format!(
            "{}.csv",
            shard.unwrap_or("whole").replace('/', "_")
        ));
        let mut args = inputs.clone();
        args.extend(["-n", "2", "--seed", "3"]);
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        assert_eq!(run(&args, &out).status.code(), Some(0), "{shard:?}");
        csv_rows(&std::fs::read_to_string(out).unwrap())
    };
    let whole = augment(None);
    let mut joined: Vec<Row> = ["1/2", "2/2"]
        .iter()
        .flat_map(|s| augment(Some(s)))
        .collect();
    assert_eq!(joined.len(), whole.len());
    assert_ne!(
        joined, whole,
        "the inputs are interleaved, not in the whole run's order"
    );
    joined.sort_by_key(|r| r.source_record);
    assert_eq!(joined, whole);
}

#[test]
fn rows_that_cannot_be_augmented_are_skipped_and_counted_or_kept_bare() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.txt");
    let empty = ".".repeat(81);
    let clash = format!("11{}", ".".repeat(79));
    // r1c9 can only be 9, which column 9 already holds: no clash, no solution.
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    std::fs::write(
        &input,
        format!("{P}\n{empty}\nnot a puzzle\n{clash}\n{unsolvable}\n{P} {S}\n"),
    )
    .unwrap();
    let out = dir.path().join("pairs.csv");
    let o = bin()
        .args(["augment", input.to_str().unwrap(), "-n", "2", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("6 records: 2 augmented, 0 kept without solutions; 4 pairs written")
            && err.contains(
                "4 skipped: 2 invalid, 1 unsolvable, 1 multiple, 0 wrong stored solutions; \
                 uniqueness not checked: 1 record taken with its stored solution (run verify to check)\n"
            ),
        "{err}"
    );
    assert!(err.contains("mixed.txt:3:"), "{err}");
    let rows = csv_rows(&std::fs::read_to_string(&out).unwrap());
    let sources: Vec<u64> = rows.iter().map(|r| r.source_record).collect();
    assert_eq!(sources, [0, 0, 5, 5]);
    // --keep-unsolved: the empty grid and the unsolvable one are kept without solutions,
    // and counted as kept, not skipped (a summary that read `1 skipped: 1 invalid, 1
    // unsolvable, 1 multiple`, and the kept records named as if skipped).
    let o = bin()
        .args([
            "augment",
            input.to_str().unwrap(),
            "-n",
            "2",
            "--keep-unsolved",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let summary: Vec<&str> = err.lines().rev().take(2).collect();
    assert_eq!(
        summary,
        [
            "sudoku-batch: kept without solutions: 1 unsolvable, 1 multiple; 2 skipped: 2 invalid, 0 wrong stored solutions; uniqueness not checked: 1 record taken with its stored solution (run verify to check)",
            "sudoku-batch: 6 records: 2 augmented, 2 kept without solutions; 8 pairs written",
        ]
    );
    assert!(
        err.contains("mixed.txt:2: multiple: more than one solution: kept without a solution\n")
            && err.contains("mixed.txt:5: unsolvable: no solution: kept without a solution\n")
            && err
                .lines()
                .filter(|l| l.contains("kept without a solution"))
                .count()
                == 2,
        "{err}"
    );
    let rows = csv_rows(&std::fs::read_to_string(&out).unwrap());
    let sources: Vec<u64> = rows.iter().map(|r| r.source_record).collect();
    assert_eq!(sources, [0, 0, 1, 1, 4, 4, 5, 5]);
    for r in &rows[2..6] {
        assert_eq!(r.solution, "");
    }
    assert_eq!(rows[2].puzzle, "0".repeat(81));
}

/// Rows taken with their stored solution are not checked for
/// uniqueness (README), yet the summary said `0 multiple` of a set where `verify` finds
/// puzzles with several solutions. The summary now says that uniqueness was not checked,
/// and gives no `multiple` count when the solver ran on no record.
#[test]
fn stored_solutions_are_summarised_as_not_checked_for_uniqueness() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("stored.csv");
    // The empty grid with S: valid and keeping every given, but not its only solution.
    let empty = "0".repeat(81);
    std::fs::write(&input, format!("puzzle,solution\n{P},{S}\n{empty},{S}\n")).unwrap();
    let out = dir.path().join("pairs.csv");
    let o = bin()
        .args(["augment", input.to_str().unwrap(), "-n", "1", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    let summary: Vec<&str> = err.lines().collect();
    assert_eq!(
        summary,
        [
            "sudoku-batch: 2 records: 2 augmented, 0 kept without solutions; 2 pairs written",
            "sudoku-batch: 0 skipped: 0 invalid, 0 unsolvable, 0 wrong stored solutions; \
             uniqueness not checked: 2 records taken with their stored solution (run verify to check)",
        ]
    );
    let rows = csv_rows(&std::fs::read_to_string(&out).unwrap());
    let sources: Vec<u64> = rows.iter().map(|r| r.source_record).collect();
    assert_eq!(sources, [0, 1], "both kept, as README says");
}

/// Augment named a bad stored-solution cell `column 81` where verify
/// says `r9c9`; both now give the cell, in verify's words.
#[test]
fn a_malformed_stored_solution_is_named_by_its_cell_as_verify_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.csv");
    let (x_last, zero_first) = (format!("{}x", &S[..80]), format!("0{}", &S[1..]));
    std::fs::write(
        &input,
        format!("puzzle,solution\n{P},{x_last}\n{P},{zero_first}\n"),
    )
    .unwrap();
    let o = bin()
        .args(["augment", "-n", "1", "-o", "/dev/null"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let path = input.to_str().unwrap();
    for want in [
        format!("{path}:2: stored solution: r9c9: invalid character 'x' (character 81)\n"),
        format!("{path}:3: stored solution: r1c1: blank '0', expected a digit 1-9\n"),
    ] {
        assert!(err.contains(&want), "{err:?} lacks {want:?}");
    }
    let o = bin().arg("verify").arg(&input).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            ":2: solution-malformed: solution: r9c9: invalid character 'x' (character 81)"
        ),
        "{err}"
    );
}

#[test]
fn jsonl_and_npz_hold_the_csv_rows() {
    let Some(input) = hard20() else { return };
    let dir = tempfile::tempdir().unwrap();
    let input = input.to_str().unwrap();
    let args = [input, "-n", "3", "--seed", "2", "--include-original"];
    let csv_out = dir.path().join("p.csv");
    assert_eq!(run(&args, &csv_out).status.code(), Some(0));
    let rows = csv_rows(&std::fs::read_to_string(&csv_out).unwrap());
    // JSON Lines.
    let jsonl = dir.path().join("p.jsonl");
    assert_eq!(run(&args, &jsonl).status.code(), Some(0));
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let from_json: Vec<Row> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
            assert_eq!(keys.len(), 4);
            Row {
                source_record: v["source_record"].as_u64().unwrap(),
                puzzle: v["puzzle"].as_str().unwrap().to_string(),
                solution: v["solution"].as_str().unwrap().to_string(),
                transform: v["transform"].as_str().unwrap().to_string(),
            }
        })
        .collect();
    assert_eq!(from_json, rows);
    // --output-format wins over the extension.
    let forced = dir.path().join("p.csv.out");
    let mut forced_args = args.to_vec();
    forced_args.extend(["--output-format", "jsonl"]);
    assert_eq!(run(&forced_args, &forced).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&forced).unwrap(), text);
    // numpy .npz, read with a zip reader and npyz.
    let npz = dir.path().join("p.npz");
    assert_eq!(run(&args, &npz).status.code(), Some(0));
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&npz).unwrap()).unwrap();
    let mut names: Vec<String> = zip.file_names().map(|n| n.unwrap().to_string()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "puzzles.npy",
            "solutions.npy",
            "source_record.npy",
            "transform.npy"
        ]
    );
    let mut array = |name: &str| {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut zip.by_name(name).unwrap(), &mut bytes).unwrap();
        npyz::NpyFile::new(std::io::Cursor::new(bytes)).unwrap()
    };
    let n = rows.len() as u64;
    let puzzles = array("puzzles.npy");
    assert_eq!(puzzles.shape(), [n, 81]);
    assert_eq!(puzzles.dtype().descr(), "'|u1'");
    let puzzles: Vec<u8> = puzzles.into_vec().unwrap();
    let solutions = array("solutions.npy");
    assert_eq!(solutions.shape(), [n, 81]);
    let solutions: Vec<u8> = solutions.into_vec().unwrap();
    let records = array("source_record.npy");
    assert_eq!(records.shape(), [n]);
    let records: Vec<i64> = records.into_vec().unwrap();
    let codes = array("transform.npy");
    assert_eq!(codes.dtype().descr(), "'|S31'");
    let codes: Vec<Vec<u8>> = codes.into_vec().unwrap();
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            puzzles[i * 81..(i + 1) * 81],
            cells(&r.puzzle)[..],
            "row {i}"
        );
        assert_eq!(
            solutions[i * 81..(i + 1) * 81],
            cells(&r.solution)[..],
            "row {i}"
        );
        assert_eq!(records[i], r.source_record as i64);
        assert_eq!(codes[i], r.transform.as_bytes());
    }
}

/// `-n 0` alone would write nothing: a flag error (exit 2, one line naming `-n`). With
/// `--include-original` it writes each puzzle as it is, with its solution.
#[test]
fn n_zero_is_refused_unless_the_originals_are_written() {
    const SAMPLE: &str = "data/sample.txt";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.csv");
    let o = run(&[SAMPLE, "-n", "0"], &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("-n 0") && err.contains("--include-original"),
        "{err}"
    );
    assert!(!out.exists());
    let o = run(&[SAMPLE, "-n", "0", "--include-original"], &out);
    common::assert_exit_ok(&o);
    let rows = csv_rows(&std::fs::read_to_string(&out).unwrap());
    let puzzles: Vec<String> = std::fs::read_to_string(SAMPLE)
        .unwrap()
        .lines()
        .map(|l| l.replace('.', "0"))
        .collect();
    assert_eq!(rows.len(), puzzles.len());
    for (i, (r, p)) in rows.iter().zip(&puzzles).enumerate() {
        assert_eq!((r.source_record, &r.puzzle), (i as u64, p));
        assert_eq!(r.transform, "0-012345678-012345678-123456789");
        assert_eq!(apply_code(&r.transform, &r.solution), r.solution);
    }
}
