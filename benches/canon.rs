//! Criterion benchmark of the canonical form (`canon::minlex`), single thread, one group
//! per data set (issue 12): random minimal puzzles, the forum's hardest, 17-clue puzzles,
//! and complete grids (the solutions of the Kaggle sample).
//!
//! Reads `../shared/data` when present (skipping, with a note, any file that is missing)
//! and always runs the committed fallback set `data/sample.txt` and the grids of
//! `data/sample_kaggle.csv`. Puzzles are parsed outside the timed loop; throughput is in
//! puzzles. The side-by-side comparison with patminlex is `scripts/bench-canon.py`.
use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_batch::canon::minlex;
use sudoku_batch::grid::{parse_cells, Grid};

/// Data sets: file under `../shared/data`, the CSV column to read (0 = puzzle, 1 = the
/// solution: complete grids), and how many to take.
const SHARED: [(&str, usize, usize); 4] = [
    ("random_minimal_20k.txt", 0, 5000),
    ("forum_hardest_1905_11plus.txt", 0, 5000),
    ("17_clue.txt", 0, 5000),
    ("kaggle_1m_sample.csv", 1, 5000),
];

/// Field `column` of each line of a lines file or CSV; `#` lines and short fields skipped.
fn load(path: &Path, column: usize, take: usize) -> Option<Vec<Grid>> {
    let text = std::fs::read(path).ok()?;
    Some(
        text.split(|&b| b == b'\n')
            .filter(|l| !l.starts_with(b"#"))
            .filter_map(|l| {
                let field = l.split(|&b| b == b',').nth(column).unwrap_or(b"");
                (field.len() >= 81).then(|| parse_cells(&field[..81]).expect("puzzle"))
            })
            .take(take)
            .collect(),
    )
}

fn bench_set(c: &mut Criterion, name: &str, puzzles: &[Grid]) {
    let mut group = c.benchmark_group(format!("canon/{name}"));
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.sample_size(10);
    group.bench_function("minlex", |b| {
        b.iter(|| {
            for p in puzzles {
                black_box(minlex(black_box(p)));
            }
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data");
    for (file, column, take) in SHARED {
        match load(&shared.join(file), column, take) {
            Some(p) => bench_set(c, file, &p),
            None => println!("note: {file} not found in {}, skipped", shared.display()),
        }
    }
    let sample = load(&root.join("data/sample.txt"), 0, usize::MAX).expect("committed");
    bench_set(c, "sample", &sample);
    let grids = load(&root.join("data/sample_kaggle.csv"), 1, 200).expect("committed");
    bench_set(c, "sample_kaggle grids", &grids);
}

criterion_group!(canon_benches, benches);
criterion_main!(canon_benches);
