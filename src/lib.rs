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
//! # The command line's modules
//! The pipeline: [`input`] opens a file (memory-mapped) and works out its layout (one
//! puzzle per line, or a CSV dataset), then cuts it into records (or the records of one
//! `--shard K/N`, see [`input::range`]); the [`engine`] runs them in chunks claimed by
//! every worker of a rayon pool and hands the results to a command's consumer in input
//! order. The commands are thin files in [`cmd`]: `solve` (the stack-allocated bitmask
//! [`solver`], results written through [`output`]), `verify` (the row checks of
//! [`verify`]), `bench` (times the solver alone on parsed, optionally
//! [`isomorph`]-shuffled puzzles, see [`bench`](mod@bench) and [`export`]) and `report
//! merge`; [`dataset`] and [`canon`] hold the dataset builders and the canonical form.
//! [`report`] is the JSON report `solve` and `verify` write and `report merge` adds up. The
//! command line (clap) lives in the binary, which turns flags into a [`Command`] and calls
//! [`run`].
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
pub mod bench;
mod cancel;
pub mod canon;
pub mod cluster;
pub mod cmd;
pub mod dataset;
pub mod engine;
pub mod export;
pub mod failure;
pub mod grid;
pub mod input;
pub mod isomorph;
pub mod output;
pub mod record;
pub mod report;
pub mod solver;
pub mod summary;
pub mod verify;

pub use cmd::{run, Command};

pub use canon::{canonical, minlex, Canonical};
pub use dataset::augment::augment_pair;
pub use dataset::rate::{rate, Rating};
pub use grid::{Grid, ParseError};
pub use input::{Dataset, InputError, ReadOptions};
pub use isomorph::Isomorph;
pub use report::Status;
pub use solver::{count, solve, Solution};
