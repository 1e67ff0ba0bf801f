//! `.parquet` output and input (cargo feature `parquet`, issue 13): the rows `augment` and
//! `rate` write as Parquet, read back with arrow-rs, are the CSV's rows; the tool reads its
//! own Parquet back with every row, and Parquet from elsewhere (grids as lists of numbers).

#![cfg(feature = "parquet")]

use crate::common;

use arrow_array::{Array, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray};
use common::{
    assert_one_column_refused, assert_round_trip, assert_solved_again, assert_solves, bin, cells,
    shared, P, S,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn batches(path: &std::path::Path) -> Vec<RecordBatch> {
    let file = std::fs::File::open(path).unwrap();
    ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Column `name` of every batch as text, as the CSV writes it (empty for null).
fn column(batches: &[RecordBatch], name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for b in batches {
        let a = b.column_by_name(name).unwrap();
        for i in 0..a.len() {
            out.push(if a.is_null(i) {
                String::new()
            } else if let Some(s) = a.as_any().downcast_ref::<StringArray>() {
                s.value(i).to_string()
            } else if let Some(n) = a.as_any().downcast_ref::<Int64Array>() {
                n.value(i).to_string()
            } else if let Some(x) = a.as_any().downcast_ref::<Float64Array>() {
                format!("{:.4}", x.value(i))
            } else if let Some(f) = a.as_any().downcast_ref::<BooleanArray>() {
                f.value(i).to_string()
            } else {
                panic!("{name}: unexpected type {:?}", a.data_type())
            });
        }
    }
    out
}

#[test]
fn parquet_holds_the_csv_rows() {
    let Some(data) = shared("data") else { return };
    let input = data.join("hard20.txt");
    let input = input.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["augment", input, "-n", "3", "--include-original"],
        vec!["rate", input, "--samples", "3"],
    ] {
        let csv_out = dir.path().join("t.csv");
        let pq = dir.path().join("t.parquet");
        for out in [&csv_out, &pq] {
            let o = bin()
                .args(&args)
                .arg("-q")
                .arg("-o")
                .arg(out)
                .output()
                .unwrap();
            common::assert_exit_ok(&o);
        }
        let mut rdr = csv::Reader::from_path(&csv_out).unwrap();
        let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
        let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
        let b = batches(&pq);
        for (k, name) in header.iter().enumerate() {
            let got = column(&b, name);
            let want: Vec<&str> = rows.iter().map(|r| r.get(k).unwrap()).collect();
            assert_eq!(got, want, "{}: column {name}", args[0]);
        }
    }
}

/// Runs `sudoku-batch ARGS -q`; returns the exit code, standard output and standard error.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = bin().args(args).arg("-q").output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (o.status.code(), text(o.stdout), text(o.stderr))
}

#[test]
fn csv_to_parquet_to_csv_keeps_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let table = assert_round_trip(dir.path(), "parquet");
    let s = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // `solve` reads its own Parquet: every row, in order, the same outcome; `line` is the
    // 1-based row of the file.
    let (_, _, err) = run(&[
        "solve",
        &table,
        "-o",
        &s("again.csv"),
        "--stats",
        &s("st.csv"),
    ]);
    assert!(
        err.contains("t.parquet:3: "),
        "a bad row is named by its row: {err}"
    );
    let rows = assert_solved_again(&dir.path().join("again.csv"), "Parquet");
    assert_solves(P, &rows[0][6], "record 0 read from Parquet");
    let stats = std::fs::read_to_string(s("st.csv")).unwrap();
    let lines: Vec<&str> = stats
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_eq!(lines, ["1", "2", "3", "4", "5"]);
    // Shards of a Parquet file, joined, are the whole run.
    let (_, whole, _) = run(&["solve", &table, "-o", "-"]);
    let mut joined = String::new();
    for k in 1..=3 {
        let (_, out, _) = run(&["solve", &table, "-o", "-", "--shard", &format!("{k}/3")]);
        let skip = if k == 1 {
            0
        } else {
            out.find('\n').unwrap() + 1
        };
        joined.push_str(&out[skip..]);
    }
    assert_eq!(joined, whole);
    // Parquet needs a file: on standard input it is refused in one line.
    let o = bin()
        .args(["solve", "-", "-o", "-"])
        .pipe_stdin(&table)
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("give the path"));
}

/// Writes `batch` as the Parquet file `path`, with arrow-rs's default settings (as other
/// tools' files come).
fn write_parquet(path: &std::path::Path, batch: &RecordBatch) {
    let file = std::fs::File::create(path).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

#[test]
fn parquet_grids_as_lists_of_numbers_and_columns_by_name() {
    use arrow_array::builder::{ListBuilder, StringBuilder, UInt8Builder};
    use arrow_array::{ArrayRef, Int64Array};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hf.parquet");
    let mut grids = ListBuilder::new(UInt8Builder::new());
    let mut answers = StringBuilder::new();
    for (i, p) in [P, P, &P[..80]].iter().enumerate() {
        grids.values().append_slice(&cells(p));
        grids.append(true);
        if i == 0 {
            answers.append_value(S);
        } else {
            answers.append_null();
        }
    }
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from(vec![10, 11, 12])) as ArrayRef,
        ),
        ("grid", Arc::new(grids.finish()) as ArrayRef),
        ("answer", Arc::new(answers.finish()) as ArrayRef),
    ])
    .unwrap();
    write_parquet(&path, &batch);
    let path = path.to_str().unwrap();
    // `grid` is no known puzzle name: the option chooses it; `answer` is a known name.
    let (code, _, err) = run(&["solve", path, "-o", "-"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--puzzle-column"), "{err}");
    let (code, out, _) = run(&["solve", path, "--puzzle-column", "grid", "-o", "-"]);
    assert_eq!(code, Some(1), "the short grid is invalid");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["id", "grid", "answer", "solution", "status"]);
    assert_eq!(rows[1][0], "10");
    assert_eq!(
        rows[1][1],
        P.replace('.', "0"),
        "a list of numbers is a grid"
    );
    assert_eq!(rows[1][3], S);
    assert_eq!(rows[2][2], "", "a null solution: none stored");
    assert_eq!(rows[3][4], "invalid");
    // One column cannot be both the puzzle and the solution column, as in CSV and JSON Lines:
    // a fatal error, one line naming the file and the flag.
    for solution in ["grid", "2"] {
        assert_one_column_refused(path, "grid", solution);
    }
}

/// The codec of every column chunk of the Parquet file at `path`.
fn codecs(path: &str) -> Vec<parquet::basic::Compression> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let meta = reader.metadata();
    assert!(meta.num_row_groups() > 0, "{path}: no row group");
    meta.row_groups()
        .iter()
        .flat_map(|g| g.columns().iter().map(|c| c.compression()))
        .collect()
}

/// `--parquet-compression none|snappy|zstd` compresses every page with that codec, and our
/// Parquet input reads each file back: `dedup` gives `solve`'s CSV of the input byte for
/// byte, and `solve` the same outcomes. `canon`, `rate` and `augment` take the flag too.
#[test]
fn each_parquet_compression_is_written_and_read_back() {
    use parquet::basic::Compression;
    let dir = tempfile::tempdir().unwrap();
    let input = common::mixed_input(dir.path());
    let s = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (code, direct, _) = run(&["solve", &input, "--output-format", "csv", "-o", "-"]);
    assert_eq!(code, Some(1), "invalid records");
    let is = |codec: &str, c: &Compression| match codec {
        "none" => *c == Compression::UNCOMPRESSED,
        "snappy" => *c == Compression::SNAPPY,
        _ => matches!(c, Compression::ZSTD(_)),
    };
    for codec in ["none", "snappy", "zstd"] {
        let table = s(&format!("t_{codec}.parquet"));
        let flag = ["--parquet-compression", codec];
        let (code, _, err) = run(&[&["solve", &input, "-o", &table][..], &flag].concat());
        assert_eq!(code, Some(1), "{codec}: {err}");
        let found = codecs(&table);
        assert!(found.iter().all(|c| is(codec, c)), "{codec}: {found:?}");
        let (_, back, err) = run(&["dedup", &table, "-o", "-"]);
        assert_eq!(back, direct, "{codec}: read back by dedup: {err}");
        let again = s(&format!("again_{codec}.csv"));
        run(&["solve", &table, "-o", &again]);
        assert_solved_again(std::path::Path::new(&again), codec);
        for cmd in ["canon", "rate", "augment"] {
            // The flag asked of an output that is not Parquet is refused (it would do
            // nothing), also in this build.
            let csv = s(&format!("{cmd}_{codec}.csv"));
            let (code, out, err) = run(&[&[cmd, &input, "-o", &csv][..], &flag].concat());
            assert_eq!((code, out.as_str()), (Some(2), ""), "{cmd} {codec}");
            let want = format!("-o {csv} is written as csv: drop the flag");
            assert!(err.contains(&want), "{cmd} {codec}: {err}");
            assert!(!std::path::Path::new(&csv).exists(), "{cmd} {codec}");
            let out = s(&format!("{cmd}_{codec}.parquet"));
            let (code, _, err) = run(&[&[cmd, &input, "-o", &out][..], &flag].concat());
            assert!(matches!(code, Some(0 | 1)), "{cmd} {codec}: {err}");
            let found = codecs(&out);
            assert!(
                found.iter().all(|c| is(codec, c)),
                "{cmd} {codec}: {found:?}"
            );
        }
    }
}

/// Columns as pandas writes them: a category (a dictionary of strings, also for the
/// puzzle), reals and dates are copied as their values, not as empty fields (categories
/// were once emptied); and `--format lines` on a Parquet file is refused
/// rather than reading its bytes as lines.
#[test]
fn parquet_categories_reals_and_dates_are_copied() {
    use arrow_array::types::Int32Type;
    use arrow_array::{ArrayRef, Date32Array, DictionaryArray};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pandas.parquet");
    let unsolvable = format!("11{}", &P[2..]);
    let puzzles: DictionaryArray<Int32Type> = [P, unsolvable.as_str(), P].into_iter().collect();
    let level: DictionaryArray<Int32Type> =
        vec![Some("hard"), None, Some("easy")].into_iter().collect();
    let batch = RecordBatch::try_from_iter([
        ("puzzle", Arc::new(puzzles) as ArrayRef),
        ("difficulty", Arc::new(level) as ArrayRef),
        (
            "score",
            Arc::new(Float64Array::from(vec![1.0, 2.5, -0.125])) as ArrayRef,
        ),
        // Days since 1970-01-01: 2026-11-30 is day 20,787.
        (
            "added",
            Arc::new(Date32Array::from(vec![20_787, 0, 1])) as ArrayRef,
        ),
    ])
    .unwrap();
    write_parquet(&path, &batch);
    let path = path.to_str().unwrap();
    let (code, out, err) = run(&["solve", path, "-o", "-"]);
    assert_eq!(code, Some(1), "the clashing puzzle is invalid: {err}");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "puzzle",
            "difficulty",
            "score",
            "added",
            "solution",
            "status"
        ]
    );
    assert_eq!(rows[1][..4], [P, "hard", "1.0", "2026-11-30"]);
    assert_eq!(rows[1][4], S);
    assert_eq!(rows[1][5], "solved");
    assert_eq!(rows[2][..4], [unsolvable.as_str(), "", "2.5", "1970-01-01"]);
    assert_eq!(rows[2][5], "invalid");
    assert_eq!(rows[3][..4], [P, "easy", "-0.125", "1970-01-02"]);
    for format in ["lines", "csv", "jsonl"] {
        let (code, _, err) = run(&["solve", path, "--format", format, "-o", "-"]);
        assert_eq!(code, Some(2), "--format {format}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("--format {format}, but the file is Parquet")),
            "{err}"
        );
        assert!(!err.contains("  "), "a run of spaces: {err}");
    }
    let (code, _, _) = run(&["solve", path, "--format", "parquet", "-o", "/dev/null"]);
    assert_eq!(code, Some(1));
}

/// An int64 puzzle column (the digits lost: no whole number holds 81) gave
/// `1 character, expected 81` on every row; it is one fatal error naming the column and
/// its type.
#[test]
fn a_puzzle_column_of_whole_numbers_is_refused_once_naming_its_type() {
    use arrow_array::ArrayRef;
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.parquet");
    let numbers = Int64Array::from(vec![1, 2, 3]);
    let batch = RecordBatch::try_from_iter([("puzzle", Arc::new(numbers) as ArrayRef)]).unwrap();
    write_parquet(&path, &batch);
    let path = path.to_str().unwrap();
    for args in [&["solve", path, "-o", "-"][..], &["verify", path]] {
        let cmd = args[0];
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{cmd}: {err}");
        assert_eq!(out, "", "{cmd}");
        assert_eq!(err.lines().count(), 1, "{cmd}: one line: {err}");
        assert!(
            err.contains("bad.parquet: column \"puzzle\" is of type Int64, which holds no grid"),
            "{cmd}: {err}"
        );
    }
}
