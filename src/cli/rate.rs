//! Flags of `rate`.

use clap::Args;

use sudoku_batch::dataset::rate::{RateConfig, SampleMode};

use super::input::InputArgs;
use super::output::TableOutputArgs;

/// Flags of `rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Isomorphs of the canonical form solved per puzzle, 1 to 100,000; the rating is the
    /// mean of log2(1 + guesses) over them.
    #[arg(long, value_name = "K", default_value = "10", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub samples: u32,
    /// Seed of the isomorph draws (a rating is comparable only under one seed and K).
    #[arg(long, value_name = "S", default_value = "0", value_parser = super::parse_seed)]
    pub seed: u64,
    /// Prove uniqueness once, then solve each sample to its first solution: about 1.4x
    /// faster, but noisier ratings, comparable only with other --first ratings.
    #[arg(long)]
    pub first: bool,
    /// Where the ratings go.
    #[command(flatten)]
    pub output: TableOutputArgs,
}

impl RateArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<RateConfig, String> {
        let inputs = self.input.inputs()?;
        let output = self.output.into_output(&inputs)?;
        Ok(RateConfig {
            read: self.input.read_config(inputs)?,
            samples: self.samples,
            seed: self.seed,
            mode: if self.first {
                SampleMode::First
            } else {
                SampleMode::Unique
            },
            output,
        })
    }
}
