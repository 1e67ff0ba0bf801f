//! What `verify` (issue 3) knows about a dataset's rows: the per-row checks and their
//! verdicts ([`check`]), the set of puzzles seen ([`dedup`]), and what a run counts
//! ([`report`]). The command itself, a sink over the engine, is [`crate::cmd::verify`].

pub mod check;
pub mod dedup;
pub mod report;

use report::VerifyReport;

impl VerifyReport {
    /// The process exit code for this run: 0 when every row is `ok` or `duplicate`, 1 when
    /// some row has another verdict, 130 when the run was interrupted.
    pub fn exit_code(&self) -> u8 {
        if self.header.interrupted {
            130
        } else if self.counts.rejected > 0 {
            1
        } else {
            0
        }
    }
}
