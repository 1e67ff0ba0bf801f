//! [`Cancel`]: a stop flag for one call or one run, set from another thread (a Ctrl-C
//! handler, a Python signal check) and looked at by the work between records or chunks.
//! A leaf module, so the engine, the input readers and [`crate::batch`] can all take one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cancel flag shared between a batch call and whoever may stop it. Clones share the
/// flag; once cancelled it stays cancelled (make a new one for the next call).
///
/// ```
/// use sudoku_batch::batch::Cancel;
/// let token = Cancel::new();
/// let handle = token.clone();
/// assert!(!token.is_cancelled());
/// handle.cancel();
/// assert!(token.is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not cancelled yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every call holding this token (or a clone) to stop before its next chunk.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called on this token or a clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for code that takes an `AtomicBool` (the input readers' stop flag).
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}
