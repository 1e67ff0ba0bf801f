//! Running a batch call from Python: without the GIL, on the pool the caller chose, and
//! stoppable by Ctrl-C.
//!
//! A long call runs on a worker thread while the calling thread (which holds the Python
//! thread state) wakes every [`POLL`] to run the interpreter's signal handlers
//! (`py.check_signals()`): when one raises (`KeyboardInterrupt` for Ctrl-C) the call's
//! [`Cancel`] token is set, the worker stops before its next chunk of rows, and the
//! exception propagates. A short call runs on the calling thread with the GIL released.
//!
//! Fork safety follows HF tokenizers: rayon's global pool does not survive `fork()` (the
//! child has its memory but none of its threads, so a call on it would wait forever). The
//! package registers [`after_fork_child`] with `os.register_at_fork`; in a child forked
//! after the global pool was used, every call with `threads=None` builds a pool of its own
//! instead.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use sudoku_batch::batch::{BatchError, Cancel, Options};

/// How often a long call looks for signals: short enough that Ctrl-C feels immediate.
const POLL: Duration = Duration::from_millis(50);

/// Rows at or under which a call runs on the calling thread, never polled: it takes a few
/// milliseconds at most, and skipping the worker thread keeps a small call's overhead low.
const INLINE_ROWS: usize = 2048;

/// Whether this process has run work on rayon's global pool.
static GLOBAL_POOL_USED: AtomicBool = AtomicBool::new(false);

/// Whether this process is a fork of one whose global pool had threads: that pool is then
/// unusable here.
static FORKED: AtomicBool = AtomicBool::new(false);

/// Called in the child after `os.fork()` (registered by `sudoku_batch/__init__.py`): marks
/// the inherited global pool unusable when the parent had started it.
#[pyfunction]
pub(crate) fn after_fork_child() {
    if GLOBAL_POOL_USED.load(Ordering::Relaxed) {
        FORKED.store(true, Ordering::Relaxed);
    }
}

/// Whether calls with `threads=None` build their own pool because this process was forked
/// after its global pool had started.
#[pyfunction]
pub(crate) fn fork_fallback() -> bool {
    FORKED.load(Ordering::Relaxed)
}

/// The batch options for a call: `limit` solutions counted, `threads` workers (`None`: the
/// global pool, which honours `RAYON_NUM_THREADS`).
///
/// # Errors
/// `ValueError` for `threads=0`.
pub(crate) fn options(limit: u32, threads: Option<usize>) -> PyResult<Options> {
    let threads = match threads {
        None => None,
        Some(n) => Some(
            NonZeroUsize::new(n)
                .ok_or_else(|| PyValueError::new_err("threads must be at least 1 (or None)"))?,
        ),
    };
    Ok(Options {
        limit,
        threads,
        cancel: None,
    })
}

/// Threads of a pool standing in for the global one: `RAYON_NUM_THREADS` when it is a
/// positive number (as rayon reads it), else one per CPU.
fn global_threads() -> NonZeroUsize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<NonZeroUsize>().ok())
        .or_else(|| std::thread::available_parallelism().ok())
        .unwrap_or(NonZeroUsize::MIN)
}

/// Runs `work` over `rows` rows with `opts` (a fresh cancel token added), the GIL released.
///
/// # Errors
/// The exception a signal handler raised during the call (`KeyboardInterrupt` for Ctrl-C),
/// or the batch error as `ValueError` (shape), `KeyboardInterrupt` (cancelled) or
/// `RuntimeError` (threads).
pub(crate) fn run<T, F>(py: Python<'_>, rows: usize, mut opts: Options, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Options) -> Result<T, BatchError> + Send,
{
    if opts.threads.is_none() {
        if FORKED.load(Ordering::Relaxed) {
            opts.threads = Some(global_threads());
        } else {
            GLOBAL_POOL_USED.store(true, Ordering::Relaxed);
        }
    }
    let cancel = Cancel::new();
    opts.cancel = Some(cancel.clone());
    if rows <= INLINE_ROWS {
        return py.detach(|| work(&opts)).map_err(batch_error);
    }
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        let opts = &opts;
        scope.spawn(move || {
            // The receiver is gone only if the calling thread unwound; nothing to tell then.
            let _ = tx.send(work(opts));
        });
        loop {
            // The receiver is moved in and back out: it is `Send` but not `Sync`.
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(done) => return done.map_err(batch_error),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(raised) = py.check_signals() {
                        cancel.cancel();
                        // Let the worker finish its chunk and return before unwinding.
                        let _ = py.detach(move || rx.recv());
                        return Err(raised);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the worker thread stopped early"))
                }
            }
        }
    })
}

/// A batch error as the Python exception that fits it.
pub(crate) fn batch_error(e: BatchError) -> PyErr {
    match e {
        BatchError::Shape { .. } => PyValueError::new_err(e.to_string()),
        BatchError::Cancelled(_) => PyKeyboardInterrupt::new_err(e.to_string()),
        BatchError::Threads(_) => PyRuntimeError::new_err(e.to_string()),
    }
}
