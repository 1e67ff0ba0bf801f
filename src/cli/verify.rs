//! Flags of `verify`.

use clap::Args;

use sudoku_batch::cmd::verify::VerifyConfig;

use super::input::InputArgs;
use super::output::{csv_only, not_a_table, output_is_input, same_file_outputs};

/// Flags of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Solution column of a CSV, JSON Lines or Parquet input: header name or key
    /// (case-insensitive) or 1-based index [default: a column named solutions, solution,
    /// answer or answers, else found by content: one where most of the first rows hold grids,
    /// one of them complete].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,
    /// Write every row whose verdict is not ok as CSV: record,input,line,verdict,detail,puzzle,solution.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<String>,
    /// Write a JSON report (rows per verdict, examples, clue and guess histograms).
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// Count solutions up to N, 2 to 1,000,000 (2: unique or not; more to say how many).
    #[arg(long, value_name = "N", default_value = "2", value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub limit: u32,
    /// Not a flag of `verify`, which writes no solutions: taken only to point to
    /// `--rejects` and `--report`, where clap would only say how to
    /// pass `-o` as a value.
    #[arg(short = 'o', long = "output", value_name = "FILE", hide = true)]
    pub output: Option<String>,
}

impl VerifyArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<VerifyConfig, String> {
        if self.output.is_some() {
            return Err(
                "-o/--output: verify writes no solutions; use --rejects FILE for the \
                        rows that are not ok (CSV) or --report FILE for the JSON report"
                    .into(),
            );
        }
        let inputs = self.input.inputs()?;
        if self.rejects.as_deref() == Some("-") && self.report.as_deref() == Some("-") {
            return Err(
                "--rejects - and --report -: only one of them can go to standard output".into(),
            );
        }
        let outputs = [
            ("--rejects", self.rejects.as_ref()),
            ("--report", self.report.as_ref()),
        ];
        csv_only("--rejects", outputs[0].1, "--rejects is written as CSV")?;
        not_a_table("--report", outputs[1].1, "one JSON document", "json")?;
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        let mut read = self.input.read_config(inputs)?;
        read.layout.solution_column = self.solution_column;
        read.layout.skip_solutions = false;
        Ok(VerifyConfig {
            read,
            limit: self.limit,
            rejects: self.rejects,
            report: self.report,
        })
    }
}
