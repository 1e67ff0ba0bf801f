//! Flags of `augment`.

use clap::Args;

use sudoku_batch::dataset::augment::{AugmentConfig, AugmentOptions};

use super::input::InputArgs;
use super::output::TableOutputArgs;

/// Flags of `augment`.
#[derive(Debug, Args)]
pub struct AugmentArgs {
    /// Inputs and how to read them (a CSV solution column is used when present).
    #[command(flatten)]
    pub input: InputArgs,
    /// Isomorphs written per puzzle (0 only with --include-original: the puzzles with their
    /// solutions, no isomorph).
    #[arg(short = 'n', long = "copies", value_name = "K", default_value = "8", value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub copies: u32,
    /// Seed of the counter-based generator: the same seed gives the same bytes at any -j
    /// and across shards.
    #[arg(long, value_name = "S", default_value = "0", value_parser = super::parse_seed)]
    pub seed: u64,
    /// Also write each puzzle as it is (transform 0-012345678-012345678-123456789) before
    /// its isomorphs.
    #[arg(long)]
    pub include_original: bool,
    /// Write the isomorphs of puzzles that are not uniquely solvable, with an empty
    /// solution, instead of skipping them.
    #[arg(long)]
    pub keep_unsolved: bool,
    /// Solution column of a CSV, JSON Lines or Parquet input: header name or key
    /// (case-insensitive) or 1-based index [default: a column named solutions, solution,
    /// answer or answers, else found by content: one where most of the first rows hold grids,
    /// one of them complete].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,
    /// Where the pairs go.
    #[command(flatten)]
    pub output: TableOutputArgs,
}

impl AugmentArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<AugmentConfig, String> {
        if self.copies == 0 && !self.include_original {
            return Err(
                "-n 0 writes nothing: give -n 1 or more, or add --include-original to \
                 write each puzzle with its solution and no isomorph"
                    .into(),
            );
        }
        let inputs = self.input.inputs()?;
        let output = self.output.into_output(&inputs)?;
        let mut read = self.input.read_config(inputs)?;
        read.layout.solution_column = self.solution_column;
        read.layout.skip_solutions = false;
        Ok(AugmentConfig {
            read,
            options: AugmentOptions {
                copies: self.copies,
                seed: self.seed,
                include_original: self.include_original,
                keep_unsolved: self.keep_unsolved,
            },
            output,
        })
    }
}
