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
//! A command written as two closures runs through [`Inputs::run`], its result type saying
//! what a panic becomes ([`FromPanic`]).
//!
//! [`run`] does the per-input sequence once for every command: number the records across
//! inputs, show the progress bar, run the [`pipeline`](pipeline()), stop once the inputs'
//! stop token is set ([`Dataset::stop`]; the binary sets it on Ctrl-C) after consuming the
//! finished prefix, check that a memory-mapped input did not change while it was read
//! ([`Dataset::finish`]), note an input without records. A command adds no copy of it.
//!
//! # The pipeline
//!
//! Every worker claims the next chunk of records ([`chunk_len`]), parses it once it has let
//! go of the input ([`crate::input::RawChunk`]: under the read lock a lines input is only
//! cut into lines and a CSV input into rows, so parsing runs on every worker at once),
//! works on it, and hands it over. Whichever worker completes the oldest unconsumed chunk
//! consumes it, and any later chunks already done, while the others go on working; so
//! reading, working and writing overlap on every thread, with no barrier between chunks.
//! At most [`AHEAD`] chunks per worker may be claimed beyond the oldest unconsumed one, so
//! memory stays bounded whatever the input size, and [`chunk_len`] keeps it bounded
//! whatever the thread count. The output is the same for any thread count.
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

use anyhow::{Context, Result};

use crate::input::{
    Cancel, Dataset, Finished, Layout, LayoutOptions, RawRecord, ReadOptions, Shard,
};

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
    /// Stops the run once set: workers take no new record, the finished prefix is kept
    /// (the binary sets it on Ctrl-C). Clones share it.
    pub cancel: Cancel,
}

impl ReadConfig {
    /// How to open each input ([`Dataset::open`]).
    pub fn options(&self) -> ReadOptions {
        ReadOptions {
            layout: self.layout.clone(),
            mmap: self.mmap,
            shard: self.shard,
            stop: self.cancel.clone(),
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
    /// How it was read: its puzzle and solution columns or fields.
    pub layout: Layout,
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
        let progress = Progress::new(&data, quiet);
        let count = progress.record_count(&data);
        let (interrupted, records) = std::thread::scope(|s| {
            // The bar's total is counted beside the work, not before it (trial 7).
            if let Some(count) = count {
                let progress = &progress;
                s.spawn(move || count.count().map(|n| progress.set_total(n)));
            }
            pool.install(|| pipeline(&mut data, &work, |r, o| sink.consume(r, o), &progress))
        })?;
        progress.finish();
        let finished = data.finish()?;
        next_record = finished.next_record;
        let path = data.path().to_string();
        if records == 0 && !quiet {
            let note = empty_note(data.shard(), interrupted);
            eprintln!("sudoku-batch: note: {path}: {note}");
        }
        done.inputs.push(InputRun {
            path,
            done: finished,
            layout: data.layout().clone(),
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

/// What the note on an input without records says: a shard of a file with fewer lines
/// than shards is empty although the file is not, so it is named (trial 3); a run stopped
/// by Ctrl-C before its first record was finished may have read many (a pipe, a terminal),
/// so it never says none were found (trial 10, finding 4).
fn empty_note(shard: Option<Shard>, interrupted: bool) -> String {
    match (interrupted, shard) {
        (true, _) => "interrupted before any record was finished (0 records)".to_string(),
        (false, Some(s)) => format!("shard {s} holds no records"),
        (false, None) => "no puzzles found (0 records)".to_string(),
    }
}

/// Checks that every input has the first one's layout: all lines, or CSVs with the same
/// header, for a command that writes them into one output.
///
/// # Errors
/// The first input whose layout differs, named, with both layouts or both headers.
pub fn same_layout(datasets: &[Dataset]) -> Result<()> {
    let Some(first) = datasets.first() else {
        return Ok(());
    };
    for data in &datasets[1..] {
        if let Some(why) = layout_difference(first, data) {
            anyhow::bail!(
                "{}: {why}; give inputs of different layouts in separate runs",
                data.path()
            );
        }
    }
    Ok(())
}

/// How `data`'s layout differs from `first`'s, naming both layouts (`lines`, `csv`,
/// `jsonl`, `parquet`) or both headers; `None` when one output can hold both. JSON Lines
/// and Parquet count as one layout (records with named columns), told apart by header.
fn layout_difference(first: &Dataset, data: &Dataset) -> Option<String> {
    let (a, b) = (first.layout(), data.layout());
    if std::mem::discriminant(a) != std::mem::discriminant(b) {
        return Some(format!(
            "its layout is {}, the first input's ({}) is {}",
            b.name(),
            first.path(),
            a.name()
        ));
    }
    let shown =
        |h: Option<&[String]>| h.map_or("none".to_string(), |h| format!("\"{}\"", h.join(",")));
    (a.header() != b.header()).then(|| {
        format!(
            "its header is {}, the first input's ({}) is {}",
            shown(b.header()),
            first.path(),
            shown(a.header())
        )
    })
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

/// The text of a panic's payload (`panic!("...")` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

mod closures;
mod pipeline;
#[cfg(feature = "cli")]
mod progress;
// Without the command line (no `cli` feature) there is no bar to draw.
#[cfg(not(feature = "cli"))]
#[path = "progress_hidden.rs"]
mod progress;
#[cfg(test)]
mod tests;

pub use closures::{FromPanic, Inputs};
pub use pipeline::{chunk_len, pipeline, AHEAD, CHUNK, IN_FLIGHT};
pub use progress::Progress;
