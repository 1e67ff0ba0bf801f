//! A panic in the per-record work of a command written as closures (`canon`, `dedup`,
//! `overlap`, `augment`, `rate`) costs that record only: it becomes one bad row, and every
//! other row is what a run without the panic gives, in the same order, on 1 and 2 threads
//! (issue 11).

use std::path::PathBuf;

use crate::dataset::augment::{augment_record, augment_with, AugmentConfig, AugmentOptions};
use crate::dataset::rate::{rate_record, rate_with, RateConfig, SampleMode};
use crate::dataset::TableOutput;
use crate::engine::ReadConfig;
use crate::input::{LayoutOptions, RawRecord};
use crate::isomorph::Isomorph;
use crate::output::table::TableFormat;

use super::canon::{canon_record, canon_with, CanonConfig};
use super::dedup::{dedup_with, DedupConfig};
use super::overlap::{keys, overlap_with, OverlapConfig};

/// Records are 2,500: more than two chunks of the engine, so 2 threads interleave.
const RECORDS: u64 = 2500;

/// The records whose work panics.
fn panics(record: u64) -> bool {
    record % 1000 == 777
}

/// `work`, except that it panics on the records [`panics`] names.
fn panicking<R>(work: impl Fn(&RawRecord) -> R + Sync) -> impl Fn(&RawRecord) -> R + Sync {
    move |r| {
        assert!(!panics(r.record), "injected panic on record {}", r.record);
        work(r)
    }
}

/// A scratch folder for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    /// A fresh folder holding `puzzles.txt`: [`RECORDS`] isomorphs of one puzzle.
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("sb-panics-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = crate::grid::parse_cells(
            b"5.2..4.......7..3.......29...4..3..8...8..673.1..2......7.........48.....8..9.5.1",
        )
        .unwrap();
        let text: String = (0..RECORDS)
            .map(|k| format!("{}\n", Isomorph::keyed(7, 0, k).apply(&p)))
            .collect();
        std::fs::write(dir.join("puzzles.txt"), text).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }

    fn lines(&self, name: &str) -> Vec<String> {
        let text = std::fs::read_to_string(self.0.join(name)).unwrap();
        text.lines().map(str::to_string).collect()
    }

    fn read(&self, threads: usize) -> ReadConfig {
        ReadConfig {
            inputs: vec![self.path("puzzles.txt")],
            layout: LayoutOptions::default(),
            threads,
            quiet: true,
            mmap: true,
            shard: None,
            cancel: Default::default(),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asserts that `got` is `want` with the rows of the records that panicked replaced by
/// `bad(record)`; `first_row` is the row of record 0 (1 after a header).
fn replaced(got: &[String], want: &[String], first_row: usize, bad: impl Fn(u64) -> String) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        match i.checked_sub(first_row).map(|r| r as u64) {
            Some(r) if panics(r) => assert_eq!(*g, bad(r), "row of record {r}"),
            _ => assert_eq!(g, w, "row {i}"),
        }
    }
}

#[test]
fn canon_writes_invalid_for_a_record_whose_work_panicked() {
    let dir = Scratch::new("canon");
    for threads in [1, 2] {
        let cfg = |out: &str| CanonConfig {
            read: dir.read(threads),
            output: dir.path(out),
            output_format: None,
            parquet_compression: Default::default(),
            stats: None,
        };
        let whole = canon_with(&cfg("whole.txt"), canon_record).unwrap();
        let hurt = canon_with(&cfg("hurt.txt"), panicking(canon_record)).unwrap();
        assert_eq!((whole.records, whole.invalid), (RECORDS, 0));
        assert_eq!(
            (hurt.records, hurt.invalid),
            (RECORDS, 2),
            "{threads} threads"
        );
        let want = dir.lines("whole.txt");
        replaced(&dir.lines("hurt.txt"), &want, 0, |_| "invalid".into());
    }
}

#[test]
fn dedup_keeps_a_record_whose_work_panicked_as_invalid() {
    let dir = Scratch::new("dedup");
    let puzzles = dir.lines("puzzles.txt");
    for threads in [1, 2] {
        let cfg = DedupConfig {
            read: dir.read(threads),
            output: dir.path("kept.txt"),
            iso: true,
            groups: None,
        };
        let work = |raw: &RawRecord| {
            let p = raw.checked_puzzle()?;
            let form = super::dedup::key_of(&crate::canon::minlex(p));
            Ok((super::dedup::key_of(p), form))
        };
        let sum = dedup_with(&cfg, panicking(work)).unwrap();
        // Every record is an isomorph of record 0: only it and the two that panicked stay.
        assert_eq!((sum.kept, sum.dropped, sum.invalid), (3, RECORDS - 3, 2));
        let kept = dir.lines("kept.txt");
        let want = [&puzzles[0], &puzzles[777], &puzzles[1777]];
        assert_eq!(kept.iter().collect::<Vec<_>>(), want, "{threads} threads");
    }
}

#[test]
fn overlap_counts_a_record_whose_work_panicked_as_invalid() {
    let dir = Scratch::new("overlap");
    for threads in [1, 2] {
        let cfg = OverlapConfig {
            train: dir.read(threads),
            test: dir.read(threads),
            output: dir.path("overlap.csv"),
            by_solution: false,
        };
        let sum = overlap_with(&cfg, panicking(|r: &RawRecord| keys(r, false))).unwrap();
        // The same file on both sides: every test row is its own train row, but for the
        // two that panicked on each side.
        assert_eq!((sum.train, sum.test), (RECORDS, RECORDS));
        assert_eq!((sum.train_invalid, sum.test_invalid), (2, 2));
        assert_eq!((sum.exact, sum.found()), (RECORDS - 2, RECORDS - 2));
        let rows = dir.lines("overlap.csv");
        let test_lines: Vec<u64> = rows[1..]
            .iter()
            .map(|r| r.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        let want: Vec<u64> = (1..=RECORDS).filter(|l| !panics(l - 1)).collect();
        assert_eq!(test_lines, want, "{threads} threads");
    }
}

#[test]
fn augment_skips_a_record_whose_work_panicked_as_invalid() {
    let dir = Scratch::new("augment");
    let opts = AugmentOptions {
        copies: 1,
        seed: 3,
        include_original: false,
        keep_unsolved: false,
    };
    for threads in [1, 2] {
        let cfg = |out: &str| AugmentConfig {
            read: dir.read(threads),
            options: opts,
            output: TableOutput::new(dir.path(out), Some(TableFormat::Csv)),
        };
        let work = |r: &RawRecord| augment_record(r, &opts);
        let whole = augment_with(&cfg("whole.csv"), work).unwrap();
        let hurt = augment_with(&cfg("hurt.csv"), panicking(work)).unwrap();
        assert_eq!((whole.augmented, whole.skipped()), (RECORDS, 0));
        assert_eq!(
            (hurt.augmented, hurt.invalid, hurt.skipped()),
            (RECORDS - 2, 2, 2)
        );
        // One pair per record: the rows of the others are those of the whole run.
        let mut want = dir.lines("whole.csv");
        want.retain(|row| !row.split(',').next().unwrap().parse().is_ok_and(panics));
        assert_eq!(dir.lines("hurt.csv"), want, "{threads} threads");
    }
}

#[test]
fn rate_rates_a_record_whose_work_panicked_invalid() {
    let dir = Scratch::new("rate");
    for threads in [1, 2] {
        let cfg = |out: &str| RateConfig {
            read: dir.read(threads),
            samples: 1,
            seed: 0,
            mode: SampleMode::Unique,
            output: TableOutput::new(dir.path(out), Some(TableFormat::Csv)),
        };
        let work = |r: &RawRecord| rate_record(r, 1, 0, SampleMode::Unique);
        let whole = rate_with(&cfg("whole.csv"), work).unwrap();
        let hurt = rate_with(&cfg("hurt.csv"), panicking(work)).unwrap();
        assert_eq!(whole.status.solved, RECORDS);
        assert_eq!((hurt.status.solved, hurt.status.invalid), (RECORDS - 2, 2));
        let path = dir.path("puzzles.txt");
        replaced(&dir.lines("hurt.csv"), &dir.lines("whole.csv"), 1, |r| {
            format!("{r},{path},{},23,invalid,,,,,", r + 1)
        });
    }
}

/// The stop token is the run's own (no process-wide flag): a cancelled one stops its run
/// as Ctrl-C does, and a run with a fresh token in the same process reads everything.
#[test]
fn a_cancelled_token_stops_its_own_run_only() {
    let dir = Scratch::new("cancel");
    let cancelled = crate::input::Cancel::new();
    cancelled.cancel();
    for (token, records) in [(cancelled, 0), (crate::input::Cancel::new(), RECORDS)] {
        let cfg = CanonConfig {
            read: ReadConfig {
                cancel: token,
                ..dir.read(2)
            },
            output: dir.path("forms.txt"),
            output_format: None,
            parquet_compression: Default::default(),
            stats: None,
        };
        let sum = canon_with(&cfg, canon_record).unwrap();
        assert_eq!((sum.records, sum.interrupted), (records, records == 0));
    }
}
