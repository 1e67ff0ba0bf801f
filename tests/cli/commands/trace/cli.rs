//! `sudoku-batch trace` end to end: JSON Lines and npz outputs, a bad row kept as an
//! `invalid` row in its place.

use std::io::Read;

use assert_cmd::Command;
use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::solver;
use sudoku_batch::trace::shah;

/// Three sample puzzles with a line that is no puzzle second.
fn input(dir: &std::path::Path) -> (std::path::PathBuf, Vec<Option<Grid>>) {
    let sample =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt")).unwrap();
    let mut lines: Vec<&str> = sample.lines().take(3).collect();
    lines.insert(1, "12345");
    let path = dir.join("in.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let grids = lines
        .iter()
        .map(|l| parse_cells(l.as_bytes()).ok())
        .collect();
    (path, grids)
}

fn run(args: &[&std::ffi::OsStr]) {
    let out = Command::cargo_bin("sudoku-batch")
        .unwrap()
        .arg("trace")
        .args(args)
        .output()
        .unwrap();
    // A row that is no puzzle makes the exit 1, never 2.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn jsonl_rows_hold_the_steps_and_a_bad_row_is_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let (path, grids) = input(dir.path());
    for placements_only in [false, true] {
        let out = dir.path().join("out.jsonl");
        let mut args = vec![
            path.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
            "-q".as_ref(),
        ];
        if placements_only {
            args.push("--placements-only".as_ref());
        }
        run(&args);
        let text = std::fs::read_to_string(&out).unwrap();
        let rows: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), grids.len());
        for (i, (row, g)) in rows.iter().zip(&grids).enumerate() {
            assert_eq!(row["record"], i as u64);
            let Some(g) = g else {
                assert_eq!(row["status"], "invalid");
                assert!(row["trace"].is_null() && row["solution"].is_null());
                continue;
            };
            assert_eq!(row["status"], "solved");
            let solution = solver::solve(g, 1).grid.unwrap();
            assert_eq!(
                row["solution"],
                solution
                    .0
                    .iter()
                    .map(|d| char::from(b'0' + d))
                    .collect::<String>()
            );
            let steps = row["trace"].as_array().unwrap();
            if placements_only {
                // Exactly the empty cells, each with its solution digit.
                assert_eq!(steps.len(), 81 - g.clues() as usize);
                for s in steps {
                    let c = s["cell"].as_u64().unwrap() as usize;
                    assert_eq!(s["digit"].as_u64().unwrap(), u64::from(solution.0[c]));
                    assert_eq!(g.0[c], 0);
                }
            } else {
                assert_eq!(steps.len() as u64, row["steps"].as_u64().unwrap());
            }
        }
    }
}

#[test]
fn npz_holds_shah_rows_that_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let (path, grids) = input(dir.path());
    let out = dir.path().join("out.npz");
    run(&[
        path.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "-q".as_ref(),
    ]);
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&out).unwrap()).unwrap();
    let mut bytes = Vec::new();
    zip.by_name("shah.npy")
        .unwrap()
        .read_to_end(&mut bytes)
        .unwrap();
    let npy = npyz::NpyFile::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(npy.shape(), [grids.len() as u64, shah::WIDTH as u64]);
    let cells: Vec<u8> = npy.into_vec().unwrap();
    for (row, g) in cells.chunks_exact(shah::WIDTH).zip(&grids) {
        let row: &[u8; shah::WIDTH] = row.try_into().unwrap();
        let Some(g) = g else {
            assert!(row.iter().all(|&x| x == 0), "an invalid row is all padding");
            continue;
        };
        let d = shah::decode(row).unwrap();
        assert_eq!(d.puzzle, *g);
        assert_eq!(Some(d.grid), solver::solve(g, 1).grid);
        assert_eq!(d.entries.len(), 81);
    }
}
