//! Flags of `trace`.

use clap::Args;

use sudoku_batch::cmd::trace::TraceConfig;

use super::input::InputArgs;
use super::output::TableOutputArgs;

/// Flags of `trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Keep only the placements (and guesses) that stand in the solution, in solving order,
    /// as the Shah et al. layout does; without it every step is written (eliminations,
    /// failed guesses and their backtracks too). An .npz output always holds the Shah rows.
    #[arg(long)]
    pub placements_only: bool,
    /// Where the traces go.
    #[command(flatten)]
    pub output: TableOutputArgs,
}

impl TraceArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<TraceConfig, String> {
        let inputs = self.input.inputs()?;
        let output = self.output.into_output(&inputs)?;
        Ok(TraceConfig {
            read: self.input.read_config(inputs)?,
            placements_only: self.placements_only,
            output,
        })
    }
}
