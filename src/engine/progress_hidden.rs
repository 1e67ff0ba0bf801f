//! [`Progress`] without the `cli` feature: the same calls, nothing drawn (the bar and its
//! terminal code, indicatif and console, belong to the command line).

use crate::input::{Dataset, RecordCount};

/// The progress of one input: never drawn in a build without the `cli` feature.
pub struct Progress;

impl Progress {
    /// A bar that is never drawn.
    pub fn new(_data: &Dataset, _quiet: bool) -> Progress {
        Progress
    }

    /// `None`: a hidden bar needs no total.
    pub fn record_count(&self, _data: &Dataset) -> Option<RecordCount> {
        None
    }

    /// Nothing to set.
    pub fn set_total(&self, _total: u64) {}

    /// Nothing to draw.
    pub(super) fn update(&self, _records: u64, _bytes: u64) {}

    /// Nothing to clear.
    pub fn finish(&self) {}
}
