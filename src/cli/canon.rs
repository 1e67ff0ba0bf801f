//! Flags of `canon`.

use clap::Args;

use sudoku_batch::cmd::canon::CanonConfig;

use super::input::InputArgs;
use super::output::TableFormatArg;
use super::output::{csv_only, output_is_input, same_file_outputs, ParquetArgs};

/// Flags of `canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the forms here (`-`: standard output): a line each, `invalid` for a record that
    /// is not a puzzle; a CSV input gives its columns plus `minlex`; a .jsonl, .npz or
    /// .parquet name (.csv on a lines input) writes the table
    /// record,input,line,puzzle,minlex,automorphisms,status; .txt always gives the lines.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// txt: a form per line; csv: a CSV input's columns plus minlex, for a lines input the
    /// table record,input,line,puzzle,minlex,automorphisms,status; jsonl, npz, parquet: that
    /// table [default: by the extension of -o (.csv on a lines input gives the table, .txt on
    /// a CSV input the lines), else by the inputs' layout].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Parquet page compression.
    #[command(flatten)]
    pub parquet: ParquetArgs,
    /// Write per-record stats CSV: record,input,line,status,clues,automorphisms,error.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,
}

impl CanonArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<CanonConfig, String> {
        let inputs = self.input.inputs()?;
        let output_format = self.output_format.map(Into::into);
        let parquet_compression = self.parquet.for_output(&self.output, output_format)?;
        if self.stats.as_deref() == Some("-") && self.output == "-" {
            return Err("--stats -: standard output already carries the forms; give --stats a file or use -o FILE".into());
        }
        let outputs = [("-o", Some(&self.output)), ("--stats", self.stats.as_ref())];
        csv_only("--stats", outputs[1].1, "--stats is written as CSV")?;
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        Ok(CanonConfig {
            read: self.input.read_config(inputs)?,
            output: self.output,
            output_format,
            parquet_compression,
            stats: self.stats,
        })
    }
}
