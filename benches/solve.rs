//! Criterion benchmark of `solve`, single thread, one group per data set.
//!
//! Reads the shared data sets from `../shared/data` when that directory exists (skipping,
//! with a note, any file that is missing) and always runs the small committed fallback set
//! `data/sample.txt` (made by this project with `scripts/gen-sample-data.sh`).
//! Puzzles are parsed outside the timed loop; throughput is in puzzles.
use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::solver::solve;

/// Data sets: file name under `../shared/data` and how many puzzles to take from it.
const SHARED: [(&str, usize); 6] = [
    ("17_clue.txt", 5000),
    ("top1465.txt", 1465),
    ("forum_hardest_1905_11plus.txt", 500),
    ("serg_benchmark.txt", 10000),
    ("sudoku_top5k.txt", 5000),
    ("kaggle_1m_sample.csv", 10000),
];

/// Puzzles of a lines file or of a CSV's first column; `#` lines and short fields skipped.
fn load(path: &Path, take: usize) -> Option<Vec<Grid>> {
    let text = std::fs::read(path).ok()?;
    Some(
        text.split(|&b| b == b'\n')
            .filter(|l| !l.starts_with(b"#"))
            .filter_map(|l| {
                let field = l.split(|&b| b == b',').next().unwrap_or(l);
                (field.len() >= 81).then(|| parse_cells(&field[..81]).expect("puzzle"))
            })
            .take(take)
            .collect(),
    )
}

fn bench_set(c: &mut Criterion, name: &str, puzzles: &[Grid]) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.sample_size(10);
    for limit in [1, 2] {
        group.bench_function(format!("limit{limit}"), |b| {
            b.iter(|| {
                for p in puzzles {
                    black_box(solve(black_box(p), limit));
                }
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data");
    if shared.is_dir() {
        for (file, take) in SHARED {
            match load(&shared.join(file), take) {
                Some(p) => bench_set(c, file, &p),
                None => println!("note: {file} not found in {}, skipped", shared.display()),
            }
        }
    } else {
        println!(
            "note: {} absent, only the committed fallback set runs",
            shared.display()
        );
    }
    let fallback =
        load(&root.join("data/sample.txt"), usize::MAX).expect("data/sample.txt is committed");
    bench_set(c, "sample", &fallback);
}

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
