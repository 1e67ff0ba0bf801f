//! Flags of `trace`.

use clap::Args;

use sudoku_batch::cmd::trace::TraceConfig;
use sudoku_batch::dataset::TableOutput;

use super::input::InputArgs;
use super::output::{output_is_input, ParquetArgs, TableFormatArg};

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
    /// Write the traces here (`-`: standard output); the extension picks the format
    /// (.jsonl, .csv, .txt, .npz, .parquet; anything else: CSV).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// The output format, whatever the extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Parquet page compression.
    #[command(flatten)]
    pub parquet: ParquetArgs,
}

impl TraceArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when a value does not fit.
    pub fn into_config(self) -> Result<TraceConfig, String> {
        let inputs = self.input.inputs()?;
        let output_format = self.output_format.map(Into::into);
        let parquet_compression = self.parquet.for_output(&self.output, output_format)?;
        output_is_input(&inputs, &[("-o", Some(&self.output))])?;
        Ok(TraceConfig {
            read: self.input.read_config(inputs)?,
            placements_only: self.placements_only,
            output: TableOutput {
                parquet_compression,
                ..TableOutput::new(self.output, output_format)
            },
        })
    }
}
