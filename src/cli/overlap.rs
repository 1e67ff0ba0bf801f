//! Flags of `overlap`.

use clap::Args;

use sudoku_batch::cmd::overlap::OverlapConfig;

use super::input::{one_stdin, EngineArgs, InputArgs, LayoutArgs};
use super::output::output_is_input;

/// Flags of `overlap`.
#[derive(Debug, Args)]
pub struct OverlapArgs {
    /// Train inputs (lines or CSV).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub train: Vec<String>,
    /// Test inputs (lines or CSV).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub test: Vec<String>,
    /// Write the overlapping test rows as CSV here (`-`: standard output):
    /// test_input,test_line,train_input,train_line,relation.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// Also list test rows whose solution grid is an isomorph of a train row's (the stored
    /// solution, or the puzzle's only solution): relation same-solution-class.
    #[arg(long)]
    pub by_solution: bool,
    /// How to read the inputs' layout.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// CSV solution column for --by-solution: header name (case-insensitive) or 1-based
    /// index [default: a column named solutions, solution, answer or answers].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,
    /// Threads, quiet, memory mapping.
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl OverlapArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<OverlapConfig, String> {
        let all: Vec<String> = self.train.iter().chain(&self.test).cloned().collect();
        one_stdin(all.clone())?;
        let outputs = [("-o", Some(&self.output))];
        output_is_input(&all, &outputs)?;
        let input = InputArgs {
            inputs: self.train,
            layout: self.layout,
            engine: self.engine,
            shard: None,
            shard_count: None,
        };
        let mut train = input.read_config(input.inputs.clone())?;
        train.layout.solution_column = self.solution_column;
        train.layout.skip_solutions = !self.by_solution;
        Ok(OverlapConfig {
            train,
            test: self.test,
            output: self.output,
            by_solution: self.by_solution,
        })
    }
}
