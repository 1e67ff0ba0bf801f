//! `trace -o OUT.parquet` (cargo feature `parquet`, issue 35's "Parquet (list columns)"):
//! the `trace` column is a `List<Struct>` of steps, and every row read back with arrow-rs
//! equals the JSON Lines row of the same input, step by step and field by field.

#![cfg(feature = "parquet")]

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, UInt16Type, UInt32Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Field, Fields};
use assert_cmd::Command;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{json, Map, Value};

/// Lines of `data/sample.txt` whose traces hold every technique but the hidden quad:
/// guesses, backtracks and the steps they undo, eliminations with `cells`, `digits`, `base`
/// and `cover`; and a line that is no puzzle (a null `trace`).
const LINES: [usize; 17] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 23, 55, 85, 287];

fn input(dir: &std::path::Path) -> std::path::PathBuf {
    let sample =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt")).unwrap();
    let all: Vec<&str> = sample.lines().collect();
    let mut lines: Vec<&str> = LINES.iter().map(|&i| all[i]).collect();
    lines.insert(2, "12345");
    let path = dir.join("in.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn trace(input: &std::path::Path, out: &std::path::Path, placements_only: bool) {
    let mut cmd = Command::cargo_bin("sudoku-batch").unwrap();
    cmd.arg("trace").arg(input).arg("-o").arg(out).arg("-q");
    if placements_only {
        cmd.arg("--placements-only");
    }
    let o = cmd.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "the line that is no puzzle makes the exit 1: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The Arrow type of the `trace` column, as docs/trace.md states it.
fn steps_type() -> DataType {
    let item = |t| Arc::new(Field::new("item", t, false));
    let u8s = || DataType::List(item(DataType::UInt8));
    let pair = Fields::from(vec![
        Field::new("cell", DataType::UInt8, false),
        Field::new("digit", DataType::UInt8, false),
    ]);
    let step = Fields::from(vec![
        Field::new("n", DataType::UInt32, false),
        Field::new("kind", DataType::Utf8, false),
        Field::new("technique", DataType::Utf8, false),
        Field::new("cell", DataType::UInt8, true),
        Field::new("digit", DataType::UInt8, true),
        Field::new("cells", u8s(), true),
        Field::new("digits", u8s(), true),
        Field::new("base", u8s(), true),
        Field::new("cover", u8s(), true),
        Field::new(
            "removed",
            DataType::List(item(DataType::Struct(pair))),
            true,
        ),
        Field::new("depth", DataType::UInt16, false),
        Field::new("undone", DataType::Boolean, false),
    ]);
    DataType::List(item(DataType::Struct(step)))
}

/// Value `i` of `a` as JSON, as `trace`'s JSON Lines writes it: a `removed` pair
/// `{cell, digit}` is `[cell, digit]`; any other struct is an object without its null fields
/// and without `undone: false` (the JSON step omits those keys).
fn to_json(a: &dyn Array, i: usize) -> Value {
    if a.is_null(i) {
        return Value::Null;
    }
    match a.data_type() {
        DataType::Int64 => json!(a.as_primitive::<Int64Type>().value(i)),
        DataType::UInt32 => json!(a.as_primitive::<UInt32Type>().value(i)),
        DataType::UInt16 => json!(a.as_primitive::<UInt16Type>().value(i)),
        DataType::UInt8 => json!(a.as_primitive::<UInt8Type>().value(i)),
        DataType::Utf8 => json!(a.as_string::<i32>().value(i)),
        DataType::Boolean => json!(a.as_boolean().value(i)),
        DataType::List(_) => {
            let items = a.as_list::<i32>().value(i);
            Value::Array((0..items.len()).map(|k| to_json(&items, k)).collect())
        }
        DataType::Struct(fields) if fields.len() == 2 => {
            let s = a.as_struct();
            assert_eq!(s.column_names(), ["cell", "digit"]);
            json!([to_json(s.column(0), i), to_json(s.column(1), i)])
        }
        DataType::Struct(fields) => {
            let s = a.as_struct();
            let mut object = Map::new();
            for (f, column) in fields.iter().zip(s.columns()) {
                let v = to_json(column, i);
                let omitted = v.is_null() || (f.name() == "undone" && v == json!(false));
                if !omitted {
                    object.insert(f.name().clone(), v);
                }
            }
            Value::Object(object)
        }
        t => panic!("unexpected type {t:?}"),
    }
}

/// Every row of the Parquet file at `path` as a JSON object of all its columns.
fn parquet_rows(path: &std::path::Path) -> Vec<Value> {
    let file = std::fs::File::open(path).unwrap();
    let batches: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut rows = Vec::new();
    for b in &batches {
        assert_eq!(
            b.schema().field_with_name("trace").unwrap().data_type(),
            &steps_type()
        );
        for i in 0..b.num_rows() {
            let mut row = Map::new();
            for (f, column) in b.schema().fields().iter().zip(b.columns()) {
                row.insert(f.name().clone(), to_json(column, i));
            }
            rows.push(Value::Object(row));
        }
    }
    rows
}

fn jsonl_rows(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The steps of every row, flattened.
fn all_steps(rows: &[Value]) -> Vec<&Value> {
    rows.iter()
        .filter_map(|r| r["trace"].as_array())
        .flatten()
        .collect()
}

/// The test input traced to Parquet and to JSON Lines with the same options: the rows of
/// each, read back (Parquet first).
fn traced_both_ways(placements_only: bool) -> (Vec<Value>, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let input = input(dir.path());
    let (jsonl, pq) = (dir.path().join("t.jsonl"), dir.path().join("t.parquet"));
    trace(&input, &jsonl, placements_only);
    trace(&input, &pq, placements_only);
    (parquet_rows(&pq), jsonl_rows(&jsonl))
}

#[test]
fn parquet_steps_are_the_jsonl_steps() {
    let (got, want) = traced_both_ways(false);
    assert_eq!(got.len(), LINES.len() + 1);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "row {k}");
    }
    // The rows hold what the test is about: a null trace, guesses, backtracks and undone
    // steps, eliminations with their pairs, patterns with units.
    assert!(got[2]["trace"].is_null() && got[2]["status"] == "invalid");
    let steps = all_steps(&got);
    let has = |key: &str, v: Value| steps.iter().any(|s| s[key] == v);
    assert!(has("kind", json!("guess")) && has("kind", json!("backtrack")));
    assert!(has("undone", json!(true)));
    assert!(steps.iter().any(|s| s["depth"].as_u64() > Some(1)));
    for technique in ["x_wing", "swordfish", "xy_wing", "xyz_wing", "naked_quad"] {
        assert!(has("technique", json!(technique)), "{technique}");
    }
    assert!(steps
        .iter()
        .all(|s| s["kind"] == "elimination" || s["removed"].is_null()));
    let eliminations = steps.iter().filter(|s| s["kind"] == "elimination");
    assert!(eliminations.clone().count() > 50);
    assert!(eliminations.clone().all(|s| s["removed"].is_array()));
    assert!(eliminations.clone().any(|s| s["cover"].is_array()));
}

#[test]
fn parquet_placements_only_keeps_the_jsonl_selection() {
    let (got, want) = traced_both_ways(true);
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "row {k}");
        let Some(steps) = g["trace"].as_array() else {
            continue;
        };
        // The empty cells, each once: placements and guesses that stood, none undone.
        assert_eq!(
            steps.len() as u64,
            81 - g["clues"].as_u64().unwrap(),
            "row {k}"
        );
        assert!(steps.iter().all(
            |s| matches!(s["kind"].as_str(), Some("placement" | "guess")) && s["undone"].is_null()
        ));
    }
    // `n` is the step's index in the full trace: rising, with gaps where eliminations and
    // failed guesses were left out.
    for r in &got {
        let ns: Vec<u64> = r["trace"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| s["n"].as_u64().unwrap())
            .collect();
        assert!(ns.windows(2).all(|w| w[0] < w[1]));
    }
    let steps = all_steps(&got);
    assert!(steps.iter().any(|s| s["kind"] == "guess"));
    let last = |r: &Value| r["trace"].as_array().and_then(|s| s.last()).cloned();
    assert!(got
        .iter()
        .any(|r| last(r).is_some_and(|s| s["n"].as_u64() >= Some(81))));
}
