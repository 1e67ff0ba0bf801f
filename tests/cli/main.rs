//! The integration tests, one binary (linked once, with the release profile's LTO) whose
//! modules are grouped by what they test, as ripgrep's `tests/` are:
//!
//! - [`input`]: reading files as people publish them (layouts, delimiters, quoting,
//!   codecs and archives, streams, bad bytes, truncation, the shared `cases/`);
//! - [`commands`]: each command end to end (`solve`, `verify`, `bench`, `canon`/`dedup`/
//!   `overlap`, `augment`, `rate`, `generate`, `trace`, `report`, the table formats);
//! - [`failures`]: what a run does when something fails, during the run or before it;
//! - [`library`]: the library's public core, the canonical form and property tests;
//! - [`project`]: the repository itself (help text in the guide, the module graph).
//!
//! Run one group with `cargo test --release --test cli -- input::`. The tests that need
//! `../shared` say so on stderr and pass when it is absent. `classset_memory` stays a binary
//! of its own: it counts every allocation of its process.

mod common;

mod commands;
mod failures;
mod input;
mod library;
mod project;
