//! End-to-end batch pipeline (`solve` as the CLI runs it: map, parse, solve across all
//! cores, write in order), one criterion group per dataset with `Throughput::Elements`
//! (puzzles), so criterion reports puzzles/s; beside it in each group, the library's
//! in-memory `batch::solve_many` on the same puzzles already parsed (what an embedding
//! program, the Python package, calls). Reads `../shared/data` when present, else the
//! committed `data/sample.txt`. The solver alone is benchmarked in `benches/solve.rs`.
//!
//! The `record_total` group times what the progress bar's record total costs: one
//! `memchr` pass over a million records in memory, as lines and as CSV (issue 11).
//!
//! `cargo bench --bench batch` (`cargo bench --bench batch -- record_total` for that group)

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_batch::batch::{solve_many, Options};
use sudoku_batch::cmd::solve::{run_solve, SolveConfig};
use sudoku_batch::engine::ReadConfig;
use sudoku_batch::input::{Dataset, LayoutOptions, ReadOptions};
use sudoku_batch::Grid;

/// The puzzles of `path` that parse, read by the library's reader.
fn puzzles(path: &Path) -> Vec<Grid> {
    let path = path.to_str().expect("a UTF-8 path");
    let mut data = Dataset::open(path, &ReadOptions::default()).expect("the dataset opens");
    let (mut out, mut records) = (Vec::new(), Vec::new());
    loop {
        data.fill(&mut records, 4096).expect("the dataset reads");
        if records.is_empty() {
            return out;
        }
        out.extend(
            records
                .iter()
                .filter_map(|r| r.puzzle.as_ref().ok().copied()),
        );
    }
}

/// (group name, file) pairs to benchmark.
fn datasets() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data");
    let named = [
        ("clue17", "17_clue.txt"),
        ("top1465", "top1465.txt"),
        ("hardest_1905", "forum_hardest_1905_11plus.txt"),
        ("kaggle_1m_sample", "kaggle_1m_sample.csv"),
    ];
    let found: Vec<(String, PathBuf)> = named
        .iter()
        .map(|(n, f)| (n.to_string(), shared.join(f)))
        .filter(|(_, p)| p.is_file())
        .collect();
    if found.is_empty() {
        eprintln!("note: ../shared/data is not present; benchmarking data/sample.txt only");
        vec![("sample".into(), root.join("data/sample.txt"))]
    } else {
        found
    }
}

fn config(path: &Path) -> SolveConfig {
    SolveConfig {
        read: ReadConfig {
            inputs: vec![path.display().to_string()],
            layout: LayoutOptions::default(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            quiet: true,
            mmap: true,
            shard: None,
            cancel: Default::default(),
        },
        limit: 2,
        output: "/dev/null".into(),
        output_format: None,
        parquet_compression: Default::default(),
        stats: None,
        report: None,
    }
}

fn batch(c: &mut Criterion) {
    for (name, path) in datasets() {
        let cfg = config(&path);
        // One run outside the measurement: counts the puzzles and checks the input reads.
        let records = run_solve(&cfg).expect("the dataset solves").counts.records;
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(records));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(10));
        group.bench_function("solve_end_to_end", |b| {
            b.iter(|| run_solve(&cfg).expect("the dataset solves"))
        });
        let grids = puzzles(&path);
        group.throughput(Throughput::Elements(grids.len() as u64));
        group.bench_function("solve_many_in_memory", |b| {
            b.iter(|| solve_many(&grids, &Options::default()).expect("not cancelled"))
        });
        group.finish();
    }
}

/// A million records: `data/sample.txt`'s 2,000 puzzles 500 times, as lines and as a CSV
/// of `id,puzzle`.
fn million() -> [(&'static str, Vec<u8>); 2] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = std::fs::read_to_string(root.join("data/sample.txt")).expect("data/sample.txt");
    let puzzles: Vec<&str> = sample.lines().filter(|l| l.len() == 81).collect();
    let (mut lines, mut csv) = (String::new(), String::from("id,puzzle\n"));
    for i in 0..1_000_000 {
        let p = puzzles[i % puzzles.len()];
        lines.push_str(p);
        lines.push('\n');
        csv.push_str(&format!("{i},{p}\n"));
    }
    [
        ("lines_1m", lines.into_bytes()),
        ("csv_1m", csv.into_bytes()),
    ]
}

fn record_total(c: &mut Criterion) {
    let mut group = c.benchmark_group("record_total");
    group.sample_size(20);
    for (name, bytes) in million() {
        let data = Dataset::from_bytes(name, bytes, &ReadOptions::default()).expect("reads");
        assert_eq!(data.record_total(), Some(1_000_000));
        group.throughput(Throughput::Elements(1_000_000));
        group.bench_function(name, |b| b.iter(|| data.record_total()));
    }
    group.finish();
}

criterion_group!(benches, batch, record_total);
criterion_main!(benches);
