//! `.parquet` output (cargo feature `parquet`, issue 13): the rows `augment` and `rate`
//! write as Parquet, read back with arrow-rs, are the CSV's rows.

#![cfg(feature = "parquet")]

mod common;

use arrow_array::{Array, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray};
use common::{bin, shared};
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
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
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
