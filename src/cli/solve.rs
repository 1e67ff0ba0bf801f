//! Flags of `solve`.

use clap::Args;

use sudoku_batch::cmd::solve::SolveConfig;

use super::input::InputArgs;
use super::output::{
    csv_only, not_a_table, output_is_input, same_file_outputs, ParquetArgs, TableFormatArg,
};

/// Flags of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write solutions here (`-`: standard output); the extension can pick the format (see
    /// --output-format).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// txt: a solution (or status word) per line; csv: a CSV input's columns plus
    /// solution,status, for a lines input the table record,input,line,puzzle,solution,status;
    /// jsonl, npz, parquet: that table [default: by the extension of -o (.csv on a lines
    /// input gives the table, .txt on a CSV input the lines), else by the inputs' layout].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Parquet page compression.
    #[command(flatten)]
    pub parquet: ParquetArgs,
    /// Write per-record stats CSV: record,input,line,status,solutions,clues,guesses,solve_ns,error.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,
    /// Write a JSON report (counts, throughput, latency percentiles, guesses).
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// Stop at the first solution (fastest; does not prove uniqueness).
    #[arg(long, conflicts_with = "limit")]
    pub first: bool,
    /// Count solutions up to N, 2 to 1,000,000 (2 tells unique from non-unique; --first for
    /// one solution).
    #[arg(long, value_name = "N", default_value = "2", value_parser = parse_limit)]
    pub limit: u32,
}

/// Parses `--limit`: 2 to 1,000,000. A limit of 1 would report a puzzle with several
/// solutions as `solved` with one of them; `--first` is the flag that says so.
fn parse_limit(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(1) => {
            Err("1 cannot tell one solution from several; use --first for one solution".into())
        }
        Ok(n @ 2..=1_000_000) => Ok(n),
        _ => Err("expected a whole number from 2 to 1,000,000 (--first for one solution)".into()),
    }
}

impl SolveArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<SolveConfig, String> {
        let inputs = self.input.inputs()?;
        let output_format = self.output_format.map(Into::into);
        let parquet_compression = self.parquet.for_output(&self.output, output_format)?;
        for (flag, path) in [("--stats", &self.stats), ("--report", &self.report)] {
            if path.as_deref() == Some("-") && self.output == "-" {
                return Err(format!(
                    "{flag} -: standard output already carries the solutions; give {flag} a file or use -o FILE"
                ));
            }
        }
        let outputs = [
            ("-o", Some(&self.output)),
            ("--stats", self.stats.as_ref()),
            ("--report", self.report.as_ref()),
        ];
        csv_only("--stats", outputs[1].1, "--stats is written as CSV")?;
        not_a_table("--report", outputs[2].1, "one JSON document", "json")?;
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        Ok(SolveConfig {
            read: self.input.read_config(inputs)?,
            limit: if self.first { 1 } else { self.limit },
            output: self.output,
            output_format,
            parquet_compression,
            stats: self.stats,
            report: self.report,
        })
    }
}
