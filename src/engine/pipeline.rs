//! The ordered, bounded, parallel pipeline itself (see the [module doc](super) for how it
//! works and the lock order).

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use anyhow::Result;

use super::{panic_message, Progress, Work};
use crate::input::{Cancel, Dataset, RawChunk, RawRecord};

/// Runs `work` on `record`, turning a panic into [`Work::panicked`].
pub(super) fn guarded<W: Work>(work: &W, record: &RawRecord) -> W::Output {
    catch_unwind(AssertUnwindSafe(|| work.work(record)))
        .unwrap_or_else(|p| work.panicked(record, panic_message(p.as_ref())))
}

/// The ordered, parallel pipeline (module doc) over the records of `data`: each worker of
/// the current rayon pool claims chunks and applies `work` (panics guarded), and `consume`
/// gets the chunks in input order. Call it inside `pool.install` to choose the pool.
///
/// Once the input's stop token is set (Ctrl-C in the binary, [`Dataset::stop`]) workers stop taking records; the records finished before the first unfinished
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
    progress: &Progress,
) -> Result<(bool, u64)>
where
    W: Work,
    C: FnMut(&[RawRecord], &[W::Output]) -> Result<()> + Send,
{
    let threads = rayon::current_num_threads().max(1);
    let cancel = data.stop().clone();
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
        progress,
        cancel,
    };
    rayon::broadcast(|_| engine.worker(work));
    // Every worker has returned; consume whatever a race left behind (normally nothing).
    engine.drain();
    let Engine {
        read,
        write,
        cancel,
        ..
    } = engine;
    let write = into_inner(write);
    if let Some(e) = write.error {
        return Err(e);
    }
    if let Some(e) = into_inner(read).error {
        return Err(e.into());
    }
    Ok((cancel.is_cancelled(), write.records))
}

/// The most records a worker claims at a time in [`pipeline`]: about 2 ms of work on
/// 17-clue puzzles, so locking costs nothing beside it and the last chunk of a run keeps
/// the other workers waiting only briefly.
pub const CHUNK: usize = 1024;

/// Records that [`pipeline`] keeps alive at most, whatever the thread count: each worker
/// holds one chunk and may claim [`AHEAD`] more (about 360 bytes a record on a lines
/// input, so about 15 MB, and the chunk's buffer for the lines' text between the take and
/// the parse, about 82 bytes a record).
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
    free: Mutex<Vec<(RawChunk, Vec<R>)>>,
    /// Chunks claimed so far: the sequence number of the next one (changed only under the
    /// `read` lock).
    claimed: AtomicU64,
    /// Set on the first error or on Ctrl-C: claim no more chunks.
    stop: AtomicBool,
    /// Chunks that may be claimed beyond the oldest unconsumed one.
    ahead: usize,
    /// Records per chunk.
    chunk: usize,
    progress: &'p Progress,
    /// The input's stop token ([`Dataset::stop`]; Ctrl-C in the binary): workers take no
    /// new record once it is set.
    cancel: Cancel,
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
    /// Taken under the `read` lock, parsed by the worker that claimed it after letting go.
    raws: RawChunk,
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
            // Outside the read lock, so parsing runs on every worker at once.
            chunk.raws.parse();
            for r in chunk.raws.records() {
                if self.cancel.is_cancelled() {
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
            if read.done || self.stop.load(Ordering::Relaxed) || self.cancel.is_cancelled() {
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
                    && !self.cancel.is_cancelled()
            });
            drop(waited.unwrap_or_else(PoisonError::into_inner));
            read = lock(&self.read);
        }
        match read.data.take(&mut raws, self.chunk) {
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
        if let Err(e) = (write.consume)(&chunk.raws.records()[..n], &chunk.results) {
            write.error = Some(e);
            self.halt();
            return;
        }
        write.records += n as u64;
        if n < chunk.raws.records().len() {
            // Ctrl-C cut this chunk short: later chunks would leave a hole.
            write.stopped = true;
        }
        self.progress.update(write.records, chunk.consumed);
    }

    /// Claims no more chunks, and wakes the workers waiting to claim so they see it.
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _p = lock(&self.pending);
        self.room.notify_all();
    }
}
