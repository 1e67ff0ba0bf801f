//! Direct tests of the engine: any thread count gives a sequential loop's output, with
//! stalls and panics.

use super::pipeline::guarded;
use super::*;
use std::time::Duration;

#[test]
fn chunks_shrink_with_many_threads_and_stay_within_bounds() {
    for threads in [1, 2, 8] {
        assert_eq!(chunk_len(threads), CHUNK);
    }
    assert_eq!(chunk_len(16), 512);
    assert_eq!(chunk_len(1024), 64);
    for threads in 1..=1024 {
        let n = chunk_len(threads);
        assert!((64..=CHUNK).contains(&n));
        // Every worker's chunk and those claimed ahead fit the budget, down to the floor.
        assert!(
            n == 64 || threads * (1 + AHEAD) * n <= IN_FLIGHT,
            "{threads}: {n}"
        );
    }
}

/// Records whose work or consumption stalls (a few milliseconds), so that chunks finish
/// out of order and the flow control has to hold workers back.
fn stalls(record: u64) -> bool {
    record % 997 == 3 || (2000..2010).contains(&record)
}

/// The work of the tests: the record's number and line, and the puzzle's givens; it
/// panics on every record whose number ends in 77.
struct Probe;

impl Work for Probe {
    type Output = (u64, u64, Result<u32, String>);

    fn work(&self, r: &RawRecord) -> Self::Output {
        if stalls(r.record) {
            std::thread::sleep(Duration::from_millis(3));
        }
        assert_ne!(r.record % 100, 77, "probe panics on record {}", r.record);
        let clues = r.puzzle.as_ref().map(crate::grid::Grid::clues);
        (r.record, r.line, clues.map_err(|e| e.to_string()))
    }

    fn panicked(&self, r: &RawRecord, message: String) -> Self::Output {
        (r.record, r.line, Err(message))
    }
}

/// Collects every result, stalling on chosen records.
#[derive(Default)]
struct Collect(Vec<(u64, u64, Result<u32, String>)>);

impl Sink for Collect {
    type Work = Probe;

    fn start_input(&mut self, _: usize, _: &Dataset) -> Result<Probe> {
        Ok(Probe)
    }

    fn consume(&mut self, raws: &[RawRecord], results: &[Output<Self>]) -> Result<()> {
        assert_eq!(raws.len(), results.len());
        for (raw, res) in raws.iter().zip(results) {
            assert_eq!(
                raw.record, res.0,
                "results are handed over beside their records"
            );
            if stalls(raw.record + 1) {
                std::thread::sleep(Duration::from_millis(2));
            }
            self.0.push(res.clone());
        }
        Ok(())
    }
}

/// 5,000 records: puzzles, blank lines and comments (not records), and bad lines.
fn input() -> Vec<u8> {
    let p = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    let mut text = String::new();
    for i in 0..5000 {
        match i % 13 {
            0 => text.push_str("# comment\n\n"),
            5 => text.push_str("not a puzzle\n"),
            _ => {}
        }
        if i % 13 == 5 {
            continue;
        }
        text.push_str(p);
        text.push('\n');
    }
    text.into_bytes()
}

fn dataset() -> Dataset {
    Dataset::from_bytes("test.txt", input(), &ReadOptions::default()).unwrap()
}

/// What a plain loop over the records gives.
fn sequential() -> Vec<(u64, u64, Result<u32, String>)> {
    let mut data = dataset();
    let mut out = Vec::new();
    let mut raws = Vec::new();
    loop {
        data.fill(&mut raws, 100).unwrap();
        if raws.is_empty() {
            return out;
        }
        out.extend(raws.iter().map(|r| guarded(&Probe, r)));
    }
}

#[test]
fn any_thread_count_gives_the_sequential_output_with_stalls_and_panics() {
    let want = sequential();
    assert_eq!(want.len(), 5000);
    let panicked: Vec<u64> = want
        .iter()
        .filter(|r| r.2.as_ref().is_err_and(|e| e.contains("probe panics")))
        .map(|r| r.0)
        .collect();
    assert_eq!(panicked, (0..50).map(|k| k * 100 + 77).collect::<Vec<_>>());
    for threads in 1..=8 {
        let pool = worker_pool(threads).unwrap();
        let mut sink = Collect::default();
        let ran = run(vec![dataset()], &pool, &mut sink, true).unwrap();
        assert!(!ran.interrupted);
        assert_eq!(ran.inputs[0].records, 5000, "{threads} threads");
        assert_eq!(sink.0, want, "{threads} threads");
    }
}

#[test]
fn records_are_numbered_on_across_inputs() {
    let pool = worker_pool(3).unwrap();
    let mut sink = Collect::default();
    let ran = run(vec![dataset(), dataset()], &pool, &mut sink, true).unwrap();
    assert_eq!(ran.inputs.len(), 2);
    assert_eq!(sink.0.len(), 10_000);
    assert!(sink.0.iter().enumerate().all(|(i, r)| r.0 == i as u64));
    assert_eq!(sink.0[5000].1, sink.0[0].1, "lines restart with each input");
}

/// A sink that fails on its second chunk: the run ends with that error.
#[test]
fn a_sink_error_ends_the_run() {
    struct Fails(u32);
    impl Sink for Fails {
        type Work = Probe;
        fn start_input(&mut self, _: usize, _: &Dataset) -> Result<Probe> {
            Ok(Probe)
        }
        fn consume(&mut self, _: &[RawRecord], _: &[Output<Self>]) -> Result<()> {
            self.0 += 1;
            anyhow::ensure!(self.0 < 2, "disk full");
            Ok(())
        }
    }
    let pool = worker_pool(2).unwrap();
    let e = run(vec![dataset()], &pool, &mut Fails(0), true)
        .err()
        .unwrap();
    assert_eq!(e.to_string(), "disk full");
}
