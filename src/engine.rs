//! The batch engine: every command that reads records (`solve`, `verify`, `bench`'s loading,
//! and later `canon`, `dedup`, ...) runs its inputs through here, in the manner of
//! ripgrep's searcher and sink. A command says three things and nothing else:
//!
//! - the per-record **work** ([`Work::work`]), run on the workers of a rayon pool;
//! - what a record whose work **panicked** becomes ([`Work::panicked`]): a result like any
//!   other, so one bug costs one record, never the batch;
//! - the **in-order consumer** ([`Sink::consume`]), which sees every record and its result
//!   in input order, on one thread at a time, and writes, counts, reports.
//!
//! [`run`] does the per-input sequence once for every command: number the records across
//! inputs, show the progress bar, run the [`pipeline`], stop on Ctrl-C
//! ([`crate::interrupt`]) after consuming the finished prefix, check that a memory-mapped
//! input did not change while it was read ([`Dataset::finish`]), note an input without
//! records. A command adds no copy of it.
//!
//! # The pipeline
//!
//! Every worker claims the next chunk of records ([`chunk_len`]), works on it, and hands
//! it over. Whichever worker completes the oldest unconsumed chunk consumes it, and any
//! later chunks already done, while the others go on working; so reading, working and
//! writing overlap on every thread, with no barrier between chunks. At most [`AHEAD`]
//! chunks per worker may be claimed beyond the oldest unconsumed one, so memory stays
//! bounded whatever the input size, and [`chunk_len`] keeps it bounded whatever the
//! thread count. The output is the same for any thread count.
//!
//! # Lock order
//!
//! Four mutexes: `read` (the input cursor), `write` (the sink), `pending` (finished chunks
//! waiting for their turn) and `free` (buffers for reuse). `read` is taken before
//! `pending` (a claim checks the flow control while it holds the cursor), `write` before
//! `pending` and `free` (the consumer takes the next chunk and returns its buffers);
//! `pending` and `free` are leaves, under which no other lock is taken, and `read` and
//! `write` are never held together. A worker waiting for room waits on `pending` after
//! letting go of `read`. So no cycle, and no deadlock.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

use crate::input::{Dataset, Finished, Layout, LayoutOptions, RawRecord, ReadOptions, Shard};
use crate::interrupt;
use crate::summary::count;

/// A command's per-record work, shared by the workers.
pub trait Work: Sync {
    /// The result of one record.
    type Output: Send;

    /// Works on one record (on a worker thread).
    fn work(&self, record: &RawRecord) -> Self::Output;

    /// The result of a record whose [`Work::work`] panicked (`message`: the panic's text).
    /// The panic hook has already printed it on stderr.
    fn panicked(&self, record: &RawRecord, message: String) -> Self::Output;
}

/// A command's in-order consumer of results.
pub trait Sink: Send {
    /// The work on each record of an input.
    type Work: Work;

    /// Called before input `index` (0-based) of the run is read: the work for its records.
    ///
    /// # Errors
    /// A fatal problem with the input (it ends the run, exit 2).
    fn start_input(&mut self, index: usize, data: &Dataset) -> Result<Self::Work>;

    /// Consumes the next `records` and their `results` (as long as `records`), in input
    /// order.
    ///
    /// # Errors
    /// A fatal problem, say an output that cannot be written: the workers stop claiming
    /// records and the run ends with this error.
    fn consume(&mut self, records: &[RawRecord], results: &[Output<Self>]) -> Result<()>;
}

/// The result type of a sink's work.
pub type Output<S> = <<S as Sink>::Work as Work>::Output;

/// What every command that reads records needs to know about its inputs.
#[derive(Clone, Debug)]
pub struct ReadConfig {
    /// Input paths; `-` is standard input.
    pub inputs: Vec<String>,
    /// Layout options shared by all inputs (`verify` adds the solution column).
    pub layout: LayoutOptions,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// No progress bar and no summary.
    pub quiet: bool,
    /// Memory-map regular files (else read them into memory).
    pub mmap: bool,
    /// Read only this shard of each input (`--shard K/N`); `None` reads everything.
    pub shard: Option<Shard>,
}

impl ReadConfig {
    /// How to open each input ([`Dataset::open`]).
    pub fn options(&self) -> ReadOptions {
        ReadOptions {
            layout: self.layout.clone(),
            mmap: self.mmap,
            shard: self.shard,
            ..ReadOptions::default()
        }
    }
}

/// Opens every input before any work, so a missing input or one whose layout cannot be
/// worked out fails at once, not after the inputs before it were processed.
///
/// # Errors
/// The first input that cannot be opened.
pub fn open_inputs(paths: &[String], options: &ReadOptions) -> Result<Vec<Dataset>> {
    Ok(paths
        .iter()
        .map(|p| Dataset::open(p, options))
        .collect::<Result<_, _>>()?)
}

/// One input of a finished [`run`].
#[derive(Clone, Debug)]
pub struct InputRun {
    /// The path as given.
    pub path: String,
    /// What its reader says about it (size, layout, content hash if asked for).
    pub done: Finished,
    /// Records consumed: all of them (of the shard), or fewer when interrupted.
    pub records: u64,
}

/// What [`run`] did.
pub struct Run {
    /// The inputs read, in order (those after an interruption are left out).
    pub inputs: Vec<InputRun>,
    /// A Ctrl-C (or SIGTERM) stopped the run; the records consumed are a prefix.
    pub interrupted: bool,
    /// The inputs themselves, still mapped: dropping them can be put beside other work
    /// (see [`crate::output::commit_outputs`]).
    pub datasets: Vec<Dataset>,
}

/// Runs `datasets` in order through `pool` into `sink`: the per-input sequence of every
/// command (module doc). Records are numbered on across inputs (0-based); a shard keeps
/// the numbers of the whole file.
///
/// # Errors
/// The first error of the sink, a CSV read error naming the input and line, or an input
/// that changed while it was mapped. Bad records are never errors: they are results.
pub fn run<S: Sink>(
    datasets: Vec<Dataset>,
    pool: &rayon::ThreadPool,
    sink: &mut S,
    quiet: bool,
) -> Result<Run> {
    let mut done = Run {
        inputs: Vec::new(),
        interrupted: false,
        datasets: Vec::new(),
    };
    let mut next_record = 0;
    for (index, mut data) in datasets.into_iter().enumerate() {
        let work = sink.start_input(index, &data)?;
        data.number_from(next_record);
        let pb = progress_bar(data.len(), quiet);
        let (interrupted, records) =
            pool.install(|| pipeline(&mut data, &work, |r, o| sink.consume(r, o), &pb))?;
        pb.finish_and_clear();
        let finished = data.finish()?;
        next_record = finished.next_record;
        let path = data.path().to_string();
        if records == 0 && !quiet {
            eprintln!("sudoku-batch: note: {path}: no puzzles found (0 records)");
        }
        done.inputs.push(InputRun {
            path,
            done: finished,
            records,
        });
        done.datasets.push(data);
        if interrupted {
            done.interrupted = true;
            break;
        }
    }
    Ok(done)
}

/// The [`Work`] of [`run_fn`]: a closure, borrowed.
pub struct FnWork<'w, W>(&'w W);

impl<R: Send, W: Fn(&RawRecord) -> R + Sync> Work for FnWork<'_, W> {
    type Output = R;

    fn work(&self, record: &RawRecord) -> R {
        (self.0)(record)
    }

    /// A closure gives no result for a record it panicked on, so the panic goes on, with
    /// the record named: it ends the run, as a panic did before the engine.
    fn panicked(&self, record: &RawRecord, message: String) -> R {
        panic!(
            "internal error on record {} (line {}): {message}",
            record.record, record.line
        )
    }
}

/// The [`Sink`] of [`run_fn`].
struct FnSink<'w, W, C> {
    work: &'w W,
    consume: C,
    index: usize,
    path: String,
}

impl<'w, R, W, C> Sink for FnSink<'w, W, C>
where
    R: Send,
    W: Fn(&RawRecord) -> R + Sync,
    C: FnMut(usize, &str, &[RawRecord], &[R]) -> Result<()> + Send,
{
    type Work = FnWork<'w, W>;

    fn start_input(&mut self, index: usize, data: &Dataset) -> Result<FnWork<'w, W>> {
        self.index = index;
        self.path = data.path().to_string();
        Ok(FnWork(self.work))
    }

    fn consume(&mut self, raws: &[RawRecord], results: &[R]) -> Result<()> {
        (self.consume)(self.index, &self.path, raws, results)
    }
}

/// [`run`] for a command written as two closures: `work` on each record (on the workers),
/// `consume(input index, input path, records, results)` in input order. A panic in `work`
/// ends the run (see [`FnWork`]); implement [`Work`] to turn it into a result instead.
///
/// # Errors
/// As [`run`].
pub fn run_fn<R, W, C>(
    datasets: Vec<Dataset>,
    pool: &rayon::ThreadPool,
    quiet: bool,
    work: &W,
    consume: C,
) -> Result<Run>
where
    R: Send,
    W: Fn(&RawRecord) -> R + Sync,
    C: FnMut(usize, &str, &[RawRecord], &[R]) -> Result<()> + Send,
{
    let mut sink = FnSink {
        work,
        consume,
        index: 0,
        path: String::new(),
    };
    run(datasets, pool, &mut sink, quiet)
}

/// Checks that every input has the first one's layout: all lines, or CSVs with the same
/// header, for a command that writes them into one output.
///
/// # Errors
/// The first input whose layout differs, named.
pub fn same_layout(datasets: &[Dataset]) -> Result<()> {
    let Some(first) = datasets.first() else {
        return Ok(());
    };
    for data in &datasets[1..] {
        let same = match (first.layout(), data.layout()) {
            (Layout::Lines { .. }, Layout::Lines { .. }) => true,
            (Layout::Csv { header: a, .. }, Layout::Csv { header: b, .. }) => a == b,
            _ => false,
        };
        anyhow::ensure!(
            same,
            "{}: its layout ({}) or header differs from the first input's; \
             give inputs of different layouts in separate runs",
            data.path(),
            data.layout().name()
        );
    }
    Ok(())
}

/// A rayon pool of `threads` workers, for one run of a command (or one thread count of
/// `bench`).
///
/// # Errors
/// When the OS refuses the threads.
pub fn worker_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")
}

/// A progress bar over `total` input bytes on stderr; hidden with `quiet` or when stderr is
/// not a terminal. It advances once per chunk, shows the records done, puzzles/s and the
/// time left, fits any terminal width (the bar takes what the text leaves: about 20
/// columns of 80), and is cleared however the run ends (issue 11).
pub fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        .with_finish(ProgressFinish::AndClear);
    if quiet || !io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {percent:>3}% {msg}, {eta} left",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    pb
}

/// The text of a panic's payload (`panic!("...")` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// Runs `work` on `record`, turning a panic into [`Work::panicked`].
fn guarded<W: Work>(work: &W, record: &RawRecord) -> W::Output {
    catch_unwind(AssertUnwindSafe(|| work.work(record)))
        .unwrap_or_else(|p| work.panicked(record, panic_message(p.as_ref())))
}

/// The ordered, parallel pipeline (module doc) over the records of `data`: each worker of
/// the current rayon pool claims chunks and applies `work` (panics guarded), and `consume`
/// gets the chunks in input order. Call it inside `pool.install` to choose the pool.
///
/// On Ctrl-C workers stop taking records; the records finished before the first unfinished
/// one are consumed, nothing after it, so the output has no holes. Returns whether the run
/// was interrupted, and the records consumed.
///
/// # Errors
/// The first error of `consume`, or a CSV read error naming the input and line. Workers
/// stop claiming chunks after the first error.
pub fn pipeline<W, C>(
    data: &mut Dataset,
    work: &W,
    consume: C,
    pb: &ProgressBar,
) -> Result<(bool, u64)>
where
    W: Work,
    C: FnMut(&[RawRecord], &[W::Output]) -> Result<()> + Send,
{
    let threads = rayon::current_num_threads().max(1);
    let engine = Engine {
        read: Mutex::new(ReadSide {
            data,
            done: false,
            error: None,
        }),
        write: Mutex::new(WriteSide {
            consume,
            error: None,
            stopped: false,
            records: 0,
        }),
        pending: Mutex::new(Pending {
            chunks: BTreeMap::new(),
            written: 0,
        }),
        room: Condvar::new(),
        free: Mutex::new(Vec::new()),
        claimed: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        ahead: AHEAD * threads,
        chunk: chunk_len(threads),
        pb,
    };
    rayon::broadcast(|_| engine.worker(work));
    // Every worker has returned; consume whatever a race left behind (normally nothing).
    engine.drain();
    let Engine { read, write, .. } = engine;
    let write = into_inner(write);
    if let Some(e) = write.error {
        return Err(e);
    }
    if let Some(e) = into_inner(read).error {
        return Err(e.into());
    }
    Ok((interrupt::requested(), write.records))
}

/// The most records a worker claims at a time in [`pipeline`]: about 2 ms of work on
/// 17-clue puzzles, so locking costs nothing beside it and the last chunk of a run keeps
/// the other workers waiting only briefly.
pub const CHUNK: usize = 1024;

/// Records that [`pipeline`] keeps alive at most, whatever the thread count: each worker
/// holds one chunk and may claim [`AHEAD`] more (about 360 bytes a record on a lines
/// input, so about 15 MB).
pub const IN_FLIGHT: usize = 40 * 1024;

/// Records per chunk for `threads` workers: [`CHUNK`] up to 8 workers, then smaller so that
/// all chunks alive stay within [`IN_FLIGHT`] records, and never below 64.
pub fn chunk_len(threads: usize) -> usize {
    (IN_FLIGHT / (threads.max(1) * (1 + AHEAD))).clamp(64, CHUNK)
}

/// How many chunks per worker [`pipeline`] lets the workers claim beyond the oldest one not
/// yet consumed.
pub const AHEAD: usize = 4;

/// The state [`pipeline`]'s workers share (locks: see the module doc for their order).
struct Engine<'d, 'p, R, C> {
    read: Mutex<ReadSide<'d>>,
    write: Mutex<WriteSide<C>>,
    pending: Mutex<Pending<R>>,
    /// Signalled when chunks are consumed, for workers waiting to claim (flow control).
    room: Condvar,
    /// Buffers of consumed chunks, for reuse.
    free: Mutex<Vec<(Vec<RawRecord>, Vec<R>)>>,
    /// Chunks claimed so far: the sequence number of the next one (changed only under the
    /// `read` lock).
    claimed: AtomicU64,
    /// Set on the first error or on Ctrl-C: claim no more chunks.
    stop: AtomicBool,
    /// Chunks that may be claimed beyond the oldest unconsumed one.
    ahead: usize,
    /// Records per chunk.
    chunk: usize,
    pb: &'p ProgressBar,
}

struct ReadSide<'d> {
    data: &'d mut Dataset,
    /// The input is exhausted (or unreadable).
    done: bool,
    error: Option<crate::input::InputError>,
}

struct WriteSide<C> {
    consume: C,
    error: Option<anyhow::Error>,
    /// A chunk was cut short by Ctrl-C: nothing after it is consumed.
    stopped: bool,
    /// Records consumed so far.
    records: u64,
}

/// Chunks worked on but not yet consumed, by sequence number.
struct Pending<R> {
    chunks: BTreeMap<u64, Chunk<R>>,
    /// Chunks consumed so far: the sequence number of the next one to consume.
    written: u64,
}

/// A claimed chunk: its records, the results of its finished prefix (shorter than
/// `raws` only when Ctrl-C cut it short), and the input bytes read up to its end.
struct Chunk<R> {
    raws: Vec<RawRecord>,
    results: Vec<R>,
    consumed: u64,
}

/// Locks `m`, also after a panic elsewhere (the data stays consistent: every critical
/// section either completes or leaves an error behind).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(PoisonError::into_inner)
}

impl<R, C> Engine<'_, '_, R, C>
where
    R: Send,
    C: FnMut(&[RawRecord], &[R]) -> Result<()> + Send,
{
    /// One worker: claim, work, hand over, until the input is done or the run stops.
    fn worker<W: Work<Output = R>>(&self, work: &W) {
        loop {
            let Some((seq, mut chunk)) = self.claim() else {
                return;
            };
            for r in &chunk.raws {
                if interrupt::requested() {
                    self.halt();
                    break;
                }
                chunk.results.push(guarded(work, r));
            }
            lock(&self.pending).chunks.insert(seq, chunk);
            self.drain();
        }
    }

    /// Reads the next chunk, waiting first while too many chunks are ahead of the consumer.
    /// `None` when there is nothing more to do.
    fn claim(&self) -> Option<(u64, Chunk<R>)> {
        let (mut raws, mut results) = lock(&self.free).pop().unwrap_or_default();
        raws.clear();
        results.clear();
        let mut read = lock(&self.read);
        loop {
            if read.done || self.stop.load(Ordering::Relaxed) || interrupt::requested() {
                return None;
            }
            let pending = lock(&self.pending);
            if self.claimed.load(Ordering::Relaxed) < pending.written + self.ahead as u64 {
                break;
            }
            // Too far ahead: wait for the consumer without holding the reader.
            drop(read);
            let waited = self.room.wait_while(pending, |p| {
                self.claimed.load(Ordering::Relaxed) >= p.written + self.ahead as u64
                    && !self.stop.load(Ordering::Relaxed)
                    && !interrupt::requested()
            });
            drop(waited.unwrap_or_else(PoisonError::into_inner));
            read = lock(&self.read);
        }
        match read.data.fill(&mut raws, self.chunk) {
            Err(e) => {
                read.error = Some(e);
                read.done = true;
                self.halt();
                None
            }
            Ok(()) if raws.is_empty() => {
                read.done = true;
                None
            }
            Ok(()) => {
                let seq = self.claimed.fetch_add(1, Ordering::Relaxed);
                let consumed = read.data.consumed();
                Some((
                    seq,
                    Chunk {
                        raws,
                        results,
                        consumed,
                    },
                ))
            }
        }
    }

    /// Consumes the pending chunks that are next in input order, unless another worker is
    /// consuming (it will pick them up: each consumer looks again after letting go).
    fn drain(&self) {
        loop {
            let Ok(mut write) = self.write.try_lock() else {
                return;
            };
            loop {
                let next = {
                    let mut p = lock(&self.pending);
                    let written = p.written;
                    p.chunks.remove(&written)
                };
                let Some(chunk) = next else {
                    break;
                };
                self.consume(&mut write, &chunk);
                lock(&self.pending).written += 1;
                self.room.notify_all();
                lock(&self.free).push((chunk.raws, chunk.results));
            }
            drop(write);
            // A chunk handed over while this worker held the consumer found it busy: look
            // again now that it is free.
            let p = lock(&self.pending);
            if !p.chunks.contains_key(&p.written) {
                return;
            }
        }
    }

    fn consume(&self, write: &mut WriteSide<C>, chunk: &Chunk<R>) {
        if write.stopped || write.error.is_some() {
            return;
        }
        let n = chunk.results.len();
        if let Err(e) = (write.consume)(&chunk.raws[..n], &chunk.results) {
            write.error = Some(e);
            self.halt();
            return;
        }
        write.records += n as u64;
        if n < chunk.raws.len() {
            // Ctrl-C cut this chunk short: later chunks would leave a hole.
            write.stopped = true;
        }
        self.pb.set_position(chunk.consumed);
        let rate = crate::report::ratio(write.records as f64, self.pb.elapsed().as_secs_f64());
        self.pb.set_message(format!(
            "{}, {rate:.0} puzzles/s",
            count(write.records, "record", "records")
        ));
    }

    /// Claims no more chunks, and wakes the workers waiting to claim so they see it.
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _p = lock(&self.pending);
        self.room.notify_all();
    }
}

#[cfg(test)]
mod tests {
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
}
