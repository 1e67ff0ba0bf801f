//! `solve` written as a table (issue 13): `.jsonl` and `.npz` by extension, and
//! `--output-format`, give `record,line,puzzle,solution,status` rows that agree with the
//! default outputs.

mod common;

use common::{assert_solves, bin, cells, P, S};

fn solve(args: &[&str]) -> (Option<i32>, Vec<u8>) {
    let o = bin().arg("solve").arg("-q").args(args).output().unwrap();
    (o.status.code(), o.stdout)
}

#[test]
fn solve_tables_hold_every_record_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let empty = ".".repeat(81);
    std::fs::write(&input, format!("{P}\nnot a puzzle\n{empty}\n")).unwrap();
    let input = input.to_str().unwrap();
    // JSON Lines, chosen by the extension.
    let jsonl = dir.path().join("s.jsonl");
    let (code, _) = solve(&[input, "-o", jsonl.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    let status: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["solved", "invalid", "multiple"]);
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 2, 3]);
    assert_eq!(rows[0]["solution"].as_str().unwrap(), S);
    assert_solves(P, rows[0]["solution"].as_str().unwrap(), "record 0");
    assert!(rows[1]["puzzle"].is_null() && rows[1]["solution"].is_null());
    // CSV forced on a lines input: the same rows.
    let (_, out) = solve(&[input, "-o", "-", "--output-format", "csv"]);
    let mut rdr = csv::Reader::from_reader(&out[..]);
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["record", "line", "puzzle", "solution", "status"]
    );
    let csv_rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    for (c, j) in csv_rows.iter().zip(&rows) {
        assert_eq!(&c[4], j["status"].as_str().unwrap());
        assert_eq!(&c[3], j["solution"].as_str().unwrap_or(""));
        assert_eq!(&c[2], j["puzzle"].as_str().unwrap_or(""));
    }
    // txt is the default lines output.
    let (_, txt) = solve(&[input, "-o", "-", "--output-format", "txt"]);
    let (_, default) = solve(&[input, "-o", "-"]);
    assert_eq!(txt, default);
    // .npz: N×81 grids.
    let npz = dir.path().join("s.npz");
    solve(&[input, "-o", npz.to_str().unwrap()]);
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&npz).unwrap()).unwrap();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name("solutions.npy").unwrap(), &mut bytes).unwrap();
    let a = npyz::NpyFile::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(a.shape(), [3, 81]);
    let grids: Vec<u8> = a.into_vec().unwrap();
    assert_eq!(grids[..81], cells(S)[..]);
    assert!(
        grids[81..162].iter().all(|&d| d == 0),
        "invalid: no solution"
    );
}
