//! Commands built on the batch engine, one file each: [`canon`], [`dedup`] and [`overlap`]
//! (issue 12). Each is a thin layer: [`scan`] reads the inputs through
//! [`batch::pipeline`](crate::batch::pipeline) and the command keeps or writes what it needs.

pub mod canon;
pub mod dedup;
pub mod overlap;
mod rows;
pub mod scan;
