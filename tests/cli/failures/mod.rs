//! What a run does when something fails: during the run (outputs, readers, signals) or
//! before it (fatal errors: one line, exit 2).

mod during_run;
mod fatal;
