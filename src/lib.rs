//! sudoku-batch: solve, verify and benchmark Sudoku puzzle datasets.
//!
//! # The core, for programs
//! The names at the crate root are the library's public core (issue 31): [`Grid`] (`[u8;
//! 81]`, row-major, 0 = empty) and its [`ParseError`]; [`solve`] and [`count`] of one
//! puzzle; [`Status`] and its stable integer [`Status::code`]; [`canonical`]/[`minlex`];
//! [`Isomorph`] (with [`Isomorph::inverse`]) and [`augment_pair`]; [`rate`]; [`Dataset`]
//! to read any input the command line reads, from a path, a reader or bytes; and
//! [`batch`], which runs many puzzles at once on a rayon pool (solutions, statuses,
//! counts, guesses, nanoseconds as columns; canonical forms, ratings, dedupe and overlap
//! over in-memory sets), with a per-call [`batch::Cancel`] token and no process-wide state.
//!
//! ```
//! use sudoku_batch::batch::{solve_cells, Options};
//! use sudoku_batch::{Grid, Status};
//! let p = Grid::parse(b"..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9").unwrap();
//! let mut cells = p.0.to_vec();
//! cells.extend([0u8; 81]);
//! let out = solve_cells(&cells, &Options::default()).unwrap();
//! assert_eq!(out.status, [Status::Solved, Status::Multiple]);
//! assert!(out.solution(0).unwrap().keeps_givens(&p));
//! ```
//!
//! The documented modules are the library: [`batch`], [`grid`], [`solver`], [`canon`],
//! [`isomorph`] and [`input`] (the reader behind [`Dataset`]).
//!
//! # What is public, and why
//! The binary is a crate of its own, so whatever it calls must be `pub`. The command
//! line's plumbing is therefore `pub` but `#[doc(hidden)]`: `cmd` (the commands, their
//! configs, [`Command`]/`run`), `engine` (the ordered parallel pipeline over inputs),
//! `output` and `export` (writers), `report` (the JSON report; only [`Status`] of it is
//! core), `dataset` (the `augment` and `rate` commands; only [`rate`], [`Rating`] and
//! [`augment_pair`] are core), `bench`, `cluster` (shard from a scheduler's environment)
//! and `failure` (exit-code helpers). They serve the binary, the integration tests and the
//! benches; they are not part of the library's interface and may change in any release.
//! What only the crate itself uses (`summary`, `record`, `verify`, the cancel token's
//! module) is `pub(crate)`. A library user needs none of the hidden modules: every task
//! they serve has a core entry point above (or will get one).
//!
//! # The command line's pipeline
//! `input` opens a file (memory-mapped when asked) and works out its layout (lines, CSV,
//! JSON Lines, Parquet), then cuts it into records (or the records of one `--shard K/N`);
//! the engine runs them in chunks claimed by every worker of a rayon pool and hands the
//! results to a command's consumer in input order. The commands are thin files in `cmd`
//! over it: `solve` (the stack-allocated bitmask [`solver`]), `verify`, `bench`, `report
//! merge`, `augment`, `rate`, `canon`, `dedup`, `overlap`. The flags (clap), the Ctrl-C
//! handler and the progress bar belong to the binary (cargo feature `cli`, on by default;
//! `default-features = false` leaves them out).
//!
//! ```
//! use sudoku_batch::{grid::parse_cells, solver::solve};
//! let line = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
//! let puzzle = parse_cells(line.as_bytes()).unwrap();
//! let found = solve(&puzzle, 2);
//! assert_eq!(found.count, 1);
//! let solution = found.grid.unwrap();
//! assert!(solution.is_complete_valid() && solution.keeps_givens(&puzzle));
//! ```

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, clippy::undocumented_unsafe_blocks)]

pub mod batch;
#[doc(hidden)]
pub mod bench;
mod cancel;
pub mod canon;
#[doc(hidden)]
pub mod cluster;
#[doc(hidden)]
pub mod cmd;
#[doc(hidden)]
pub mod dataset;
#[doc(hidden)]
pub mod engine;
#[doc(hidden)]
pub mod export;
#[doc(hidden)]
pub mod failure;
pub mod generate;
pub mod grid;
pub mod input;
pub mod isomorph;
#[doc(hidden)]
pub mod output;
pub(crate) mod record;
#[doc(hidden)]
pub mod report;
pub mod solver;
pub(crate) mod summary;
pub mod trace;
pub(crate) mod verify;

#[doc(hidden)]
pub use cmd::{run, Command};

pub use canon::{canonical, minlex, Canonical};
pub use dataset::augment::augment_pair;
pub use dataset::rate::{rate, Rating};
pub use grid::{Grid, ParseError};
pub use input::{Dataset, InputError, ReadOptions};
pub use isomorph::Isomorph;
pub use report::Status;
pub use solver::{count, solve, Solution};
