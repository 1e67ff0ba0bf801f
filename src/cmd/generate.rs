//! `generate` (issue 34): reads `--from-solutions` and `--exclude` through the engine, then
//! runs [`crate::generate::run`]. Excluded puzzles are keyed as `overlap` keys them
//! ([`super::overlap`]): the 96-bit key of the canonical form, and with
//! `--exclude-solutions` of the solution grid's canonical form.

use std::collections::HashSet;
use std::sync::Arc;

use anyhow::Result;

use super::dedup::{key_of, Key};
use super::overlap::keys;
use crate::engine::{Inputs, ReadConfig};
use crate::generate::{run_generate, Exclude, GenerateConfig, GenerateSummary, Options};
use crate::grid::{Grid, ParseError};
use crate::input::RawRecord;
use crate::summary::{count, Notes};
use crate::verify::check::describe_puzzle;

/// The canonical-form keys of `--exclude`'s puzzles (and solution grids).
struct Excluded {
    puzzles: HashSet<Key>,
    solutions: HashSet<Key>,
}

impl Exclude for Excluded {
    fn excludes_puzzle(&self, form: &Grid) -> bool {
        self.puzzles.contains(&key_of(form))
    }

    fn excludes_solution(&self, form: &Grid) -> bool {
        !self.solutions.is_empty() && self.solutions.contains(&key_of(form))
    }
}

/// Runs `generate` as configured, after reading its input files with `read`'s layout and
/// engine settings.
///
/// # Errors
/// An input that cannot be opened or read, `--from-solutions` without a single complete
/// grid, an output that cannot be written.
pub fn run(cfg: &GenerateConfig, read: &ReadConfig) -> Result<GenerateSummary> {
    let mut opts: Options = cfg.options.clone();
    opts.cancel = read.cancel.clone();
    if let Some(path) = &cfg.from_solutions {
        opts.grids = Some(Arc::new(read_grids(path, read)?));
    }
    if !cfg.exclude.is_empty() {
        opts.exclude = Some(Arc::new(read_excluded(cfg, read)?));
    }
    run_generate(cfg, &opts)
}

/// The complete valid grids of `path`: each record's stored solution when it has one, else
/// its puzzle column when that is a complete grid; other records are named and skipped.
fn read_grids(path: &str, read: &ReadConfig) -> Result<Vec<(Grid, u64)>> {
    let mut read = read.clone();
    read.inputs = vec![path.to_string()];
    read.layout.skip_solutions = false;
    read.shard = None;
    let mut grids = Vec::new();
    let mut notes = Notes::default();
    let grid_of = |raw: &RawRecord| -> Result<Grid, ParseError> {
        let g = match &raw.solution {
            Some(s) => s.clone()?,
            None => raw.puzzle.clone()?,
        };
        if g.is_complete_valid() {
            Ok(g)
        } else {
            Err(ParseError::Internal(format!(
                "{g} is not a complete valid grid"
            )))
        }
    };
    let inputs = Inputs::open(&read, false)?;
    let layouts = inputs.layouts();
    inputs.run(grid_of, |input, p, raws, found| {
        for (raw, g) in raws.iter().zip(found) {
            match g {
                Ok(g) => grids.push((*g, raw.record)),
                Err(e) => notes.add(p, raw.line, describe_puzzle(e, &layouts[input])),
            }
        }
        Ok(())
    })?;
    notes.print("records that are not solution grids (skipped)");
    if grids.is_empty() {
        anyhow::bail!("--from-solutions {path}: no complete valid grid to dig puzzles from");
    }
    if !read.quiet {
        eprintln!(
            "sudoku-batch: generate: {} from {path}",
            count(grids.len() as u64, "solution grid", "solution grids")
        );
    }
    Ok(grids)
}

/// The keys of every puzzle of `--exclude`'s files.
fn read_excluded(cfg: &GenerateConfig, read: &ReadConfig) -> Result<Excluded> {
    let mut read = read.clone();
    read.inputs = cfg.exclude.clone();
    read.layout.skip_solutions = !cfg.exclude_solutions;
    read.shard = None;
    let by_solution = cfg.exclude_solutions;
    let mut ex = Excluded {
        puzzles: HashSet::new(),
        solutions: HashSet::new(),
    };
    let mut notes = Notes::default();
    let inputs = Inputs::open(&read, false)?;
    let layouts = inputs.layouts();
    inputs.run(
        |raw| keys(raw, by_solution),
        |input, p, raws, found| {
            for (raw, k) in raws.iter().zip(found) {
                match k {
                    Ok(k) => {
                        ex.puzzles.insert(k.form);
                        ex.solutions.extend(k.solution);
                    }
                    Err(e) => notes.add(p, raw.line, describe_puzzle(e, &layouts[input])),
                }
            }
            Ok(())
        },
    )?;
    notes.print("records of --exclude that are not puzzles (skipped)");
    if !read.quiet {
        eprintln!(
            "sudoku-batch: generate: excluding {}{}",
            count(ex.puzzles.len() as u64, "puzzle class", "puzzle classes"),
            if by_solution {
                format!(
                    " and {}",
                    count(
                        ex.solutions.len() as u64,
                        "solution class",
                        "solution classes"
                    )
                )
            } else {
                String::new()
            }
        );
    }
    Ok(ex)
}
