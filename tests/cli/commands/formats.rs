//! `solve` written as a table (issue 13): `.jsonl` and `.npz` by extension, and
//! `--output-format`, give `record,input,line,puzzle,solution,status` rows that agree with the
//! default outputs.

use crate::common;

use common::{assert_solves, bin, cells, data_lines, P, S};

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
    assert!(rows.iter().all(|r| r["input"] == input), "input: {rows:?}");
    assert_eq!(rows[0]["solution"].as_str().unwrap(), S);
    assert_solves(P, rows[0]["solution"].as_str().unwrap(), "record 0");
    assert!(rows[1]["puzzle"].is_null() && rows[1]["solution"].is_null());
    // CSV forced on a lines input: the same rows.
    let (_, out) = solve(&[input, "-o", "-", "--output-format", "csv"]);
    let mut rdr = csv::Reader::from_reader(&out[..]);
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["record", "input", "line", "puzzle", "solution", "status"]
    );
    let csv_rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    for (c, j) in csv_rows.iter().zip(&rows) {
        assert_eq!(&c[5], j["status"].as_str().unwrap());
        assert_eq!(&c[4], j["solution"].as_str().unwrap_or(""));
        assert_eq!(&c[3], j["puzzle"].as_str().unwrap_or(""));
        assert_eq!(&c[1], input);
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
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name("input.npy").unwrap(), &mut bytes).unwrap();
    let a = npyz::NpyFile::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(a.shape(), [3]);
    let inputs: Vec<Vec<u8>> = a.into_vec().unwrap();
    assert!(inputs.iter().all(|i| i == input.as_bytes()), "{inputs:?}");
    assert!(
        grids[81..162].iter().all(|&d| d == 0),
        "invalid: no solution"
    );
}

/// A run over two inputs numbers its records on across them: each row of a table names the
/// input it came from and its line there (`record,input,line`, as `rate` and `--stats`), in
/// CSV and JSON Lines alike, for `solve` and `canon`.
#[test]
fn tables_name_the_input_and_line_of_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let sample =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt")).unwrap();
    let puzzles: Vec<String> = data_lines(&sample)
        .into_iter()
        .take(3)
        .map(|(_, p)| p)
        .collect();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (a, b) = (path("a.txt"), path("b.txt"));
    // A comment and a blank line in the first input, a bad record in the second: the lines
    // of the records differ from their record numbers in both.
    let (p0, p1, p2) = (&puzzles[0], &puzzles[1], &puzzles[2]);
    std::fs::write(&a, format!("# first\n{p0}\n\n{p1}\n")).unwrap();
    std::fs::write(&b, format!("not a puzzle\n{p2}\n")).unwrap();
    // (input, line, puzzle) of every record, in run order.
    let expected = [
        (&a, 2, Some(p0)),
        (&a, 4, Some(p1)),
        (&b, 1, None),
        (&b, 2, Some(p2)),
    ];
    let check = |rows: &[[String; 5]], what: &str| {
        assert_eq!(rows.len(), expected.len(), "{what}");
        for (i, (row, (input, line, p))) in rows.iter().zip(&expected).enumerate() {
            let [record, got_input, got_line, puzzle, status] = row;
            assert_eq!(record, &i.to_string(), "{what} row {i}");
            assert_eq!(got_input, *input, "{what} row {i}");
            assert_eq!(got_line, &line.to_string(), "{what} row {i}");
            match p {
                Some(p) => {
                    assert_eq!(cells(puzzle), cells(p), "{what} row {i}");
                    assert!(matches!(status.as_str(), "solved" | "ok"), "{what} row {i}");
                }
                None => assert_eq!(status, "invalid", "{what} row {i}"),
            }
        }
    };
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        v => v.to_string(),
    };
    let jsonl_rows = |file: &str| -> Vec<[String; 5]> {
        std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| {
                let r: serde_json::Value = serde_json::from_str(l).unwrap();
                ["record", "input", "line", "puzzle", "status"].map(|k| text(&r[k]))
            })
            .collect()
    };
    let csv_rows = |file: &str, header: &[&str]| -> Vec<csv::StringRecord> {
        let mut rdr = csv::Reader::from_path(file).unwrap();
        assert_eq!(rdr.headers().unwrap(), header, "{file}");
        rdr.records().map(Result::unwrap).collect()
    };

    // solve: CSV by the extension (lines inputs), then JSON Lines; the solutions keep the
    // givens and follow the rules.
    let (code, _) = solve(&[&a, &b, "-o", &path("s.csv")]);
    assert_eq!(code, Some(1), "one invalid record");
    let header = ["record", "input", "line", "puzzle", "solution", "status"];
    let rows = csv_rows(&path("s.csv"), &header);
    for (r, (_, line, p)) in rows.iter().zip(&expected) {
        if let Some(p) = p {
            assert_solves(p, &r[4], &format!("{}:{line}", &r[1]));
        }
    }
    let keyed: Vec<[String; 5]> = rows
        .iter()
        .map(|r| [0, 1, 2, 3, 5].map(|k| r[k].to_string()))
        .collect();
    check(&keyed, "solve CSV");
    let (code, _) = solve(&[&a, &b, "-o", &path("s.jsonl")]);
    assert_eq!(code, Some(1));
    check(&jsonl_rows(&path("s.jsonl")), "solve JSON Lines");

    // canon: the table as JSON Lines, and --stats.
    let o = bin()
        .args(["canon", "-q", &a, &b, "-o", &path("c.jsonl")])
        .args(["--stats", &path("c_stats.csv")])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "one invalid record");
    check(&jsonl_rows(&path("c.jsonl")), "canon JSON Lines");
    let header = [
        "record",
        "input",
        "line",
        "status",
        "clues",
        "automorphisms",
        "error",
    ];
    let stats = csv_rows(&path("c_stats.csv"), &header);
    assert_eq!(stats.len(), expected.len());
    for (i, (r, (input, line, _))) in stats.iter().zip(&expected).enumerate() {
        let key = [i.to_string(), input.to_string(), line.to_string()];
        assert_eq!(
            r.iter().take(3).collect::<Vec<_>>(),
            key,
            "canon --stats row {i}"
        );
    }
}
