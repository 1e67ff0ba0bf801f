//! Live inputs: a pipe whose producer writes some records and then
//! pauses has those records worked on before it writes more, and a stop (Ctrl-C) ends the
//! wait for more without the producer closing the pipe.
//!
//! The pipes are made here and opened by their `/proc/self/fd` path (Linux), as a FIFO or
//! standard input would be. No test asserts a time: a producer waits for the test's word
//! before it writes on, and only gives up (closing the pipe, so that a reader that waits for
//! the end is not stuck for ever) after [`BREAKER`], a failure the assertions then report.

#![cfg(target_os = "linux")]

use crate::common;

use std::io::Write;
use std::os::fd::AsRawFd;
use std::sync::mpsc;
use std::time::Duration;

use common::{P, S};

use sudoku_batch::engine::{Inputs, ReadConfig};
use sudoku_batch::grid::ParseError;
use sudoku_batch::input::{Cancel, Dataset, LayoutOptions, RawRecord, ReadOptions};

/// How long a producer waits for the test's word before it gives up and closes its pipe:
/// not a limit on the reader's speed (the word comes at once when the reader works), only
/// what turns a reader that waits for the end of the input into a failed assertion rather
/// than a test that never ends.
const BREAKER: Duration = Duration::from_secs(60);

/// A pipe: the path its read end is opened by, its read end (kept open until the reader
/// has opened the path) and its write end.
fn pipe() -> (String, std::io::PipeReader, std::io::PipeWriter) {
    let (r, w) = std::io::pipe().unwrap();
    (format!("/proc/self/fd/{}", r.as_raw_fd()), r, w)
}

/// Writes `first`, then waits for the word on `go` and writes `rest`, then closes the pipe.
/// Returns whether the word came (`false`: the producer gave up after [`BREAKER`]).
fn produce(
    mut w: std::io::PipeWriter,
    first: String,
    rest: String,
    go: mpsc::Receiver<()>,
) -> std::thread::JoinHandle<bool> {
    std::thread::spawn(move || {
        w.write_all(first.as_bytes()).unwrap();
        let word = go.recv_timeout(BREAKER).is_ok();
        w.write_all(rest.as_bytes()).unwrap();
        word
    })
}

fn read_config(path: &str) -> ReadConfig {
    ReadConfig {
        inputs: vec![path.to_string()],
        layout: LayoutOptions::default(),
        threads: 2,
        quiet: true,
        mmap: true,
        shard: None,
        cancel: Default::default(),
    }
}

/// The records a paused producer has written are worked on and
/// consumed before it writes more, in lines and in CSV, and the run then reads on to the
/// end with the records numbered on.
#[test]
fn a_paused_pipe_has_its_records_worked_on_before_it_writes_more() {
    for (header, row) in [
        ("", P.to_string()),
        ("puzzle,solution\n", format!("{P},{S}")),
    ] {
        let (path, r, w) = pipe();
        let first = format!("{header}{}", format!("{row}\n").repeat(30));
        let rest = format!("{row}\n").repeat(10);
        let (go, word) = mpsc::channel();
        let producer = produce(w, first, rest, word);
        let inputs = Inputs::open(&read_config(&path), false).unwrap();
        drop(r);
        let mut seen = Vec::new();
        let mut told = false;
        let run = inputs
            .run(
                |rec: &RawRecord| -> Result<u64, ParseError> {
                    rec.puzzle.as_ref().map(|_| rec.line).map_err(Clone::clone)
                },
                |_, _, recs, results| {
                    for (rec, res) in recs.iter().zip(results) {
                        seen.push((rec.record, res.clone().unwrap()));
                    }
                    if seen.len() >= 30 && !told {
                        // The first 30 are consumed: let the producer write on.
                        told = true;
                        let _ = go.send(());
                    }
                    Ok(())
                },
            )
            .unwrap();
        assert!(
            producer.join().unwrap(),
            "the records before the pause were not consumed before the producer wrote more \
             ({header:?})"
        );
        assert!(!run.interrupted);
        assert_eq!(run.inputs[0].records, 40);
        // Every record a puzzle, numbered from 0, on its line (after the header).
        let skip = header.lines().count() as u64;
        let want: Vec<(u64, u64)> = (0..40).map(|i| (i, i + 1 + skip)).collect();
        assert_eq!(seen, want, "{header:?}");
    }
}

/// A stop ends the wait for a live input that stays open: the records that came are read,
/// a line cut short by the stop is no record, and the input is not hashed (it was not read
/// to its end).
#[test]
fn a_stop_ends_the_wait_for_a_pipe_that_stays_open_and_drops_a_line_cut_short() {
    let stop = Cancel::new();
    let (path, r, mut w) = pipe();
    let lines = format!("{P}\n").repeat(25);
    w.write_all(lines.as_bytes()).unwrap();
    w.write_all(&P.as_bytes()[..40]).unwrap();
    let opts = ReadOptions {
        stop: stop.clone(),
        hash: true,
        ..ReadOptions::default()
    };
    let mut data = Dataset::open(&path, &opts).unwrap();
    drop(r);
    let mut recs = Vec::new();
    data.fill(&mut recs, 1024).unwrap();
    let got: Vec<(u64, u64)> = recs.iter().map(|r| (r.record, r.line)).collect();
    let want: Vec<(u64, u64)> = (0..25).map(|i| (i, i + 1)).collect();
    assert_eq!(got, want, "the whole lines that came, before any stop");
    stop.cancel();
    data.fill(&mut recs, 1024).unwrap();
    assert_eq!(recs.len(), 0, "stopped: no more records, not the cut line");
    let done = data.finish().unwrap();
    assert_eq!(done.next_record, 25);
    assert_eq!(done.sha256, None, "not read to its end");
    drop(w);
}
