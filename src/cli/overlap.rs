//! Flags of `overlap`.

use clap::Args;

use sudoku_batch::cmd::overlap::OverlapConfig;
use sudoku_batch::engine::ReadConfig;

use super::input::{one_stdin, EngineArgs, InputArgs, LayoutArgs};
use super::output::{csv_only, output_is_input};

/// Flags of `overlap`.
#[derive(Debug, Args)]
pub struct OverlapArgs {
    /// Train inputs (lines, CSV, JSON Lines or Parquet).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub train: Vec<String>,
    /// Test inputs (lines, CSV, JSON Lines or Parquet). The layout flags below without a side (--format,
    /// --puzzle-column, --no-header, --delimiter, --solution-column) apply to train and test
    /// alike; a --train-... or --test-... flag applies to one side and overrides them there.
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
    /// How to read the inputs' layout: --puzzle-column, --no-header and --delimiter apply
    /// to train and test alike, unless a --train-... or --test-... flag below overrides
    /// them for one side.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Solution column of a CSV, JSON Lines or Parquet input, train and test alike (a
    /// --train-solution-column or --test-solution-column overrides it for one side): header
    /// name or key (case-insensitive) or 1-based index, never the puzzle column. Its stored
    /// solutions are read only with --by-solution (a row's solution class is that of its
    /// stored solution); without it the column must still exist [default: a column named
    /// solutions, solution, answer or answers, else found by content: one where most of the
    /// first rows hold grids, one of them complete].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,
    /// Puzzle column of the train inputs (overrides --puzzle-column for them).
    #[arg(long, value_name = "NAME")]
    pub train_puzzle_column: Option<String>,
    /// Puzzle column of the test inputs (overrides --puzzle-column for them).
    #[arg(long, value_name = "NAME")]
    pub test_puzzle_column: Option<String>,
    /// Solution column of the train inputs for --by-solution (overrides --solution-column
    /// for them).
    #[arg(long, value_name = "NAME")]
    pub train_solution_column: Option<String>,
    /// Solution column of the test inputs for --by-solution (overrides --solution-column
    /// for them).
    #[arg(long, value_name = "NAME")]
    pub test_solution_column: Option<String>,
    /// The train CSVs have no header row (--no-header: both sides).
    #[arg(long)]
    pub train_no_header: bool,
    /// The test CSVs have no header row (--no-header: both sides).
    #[arg(long)]
    pub test_no_header: bool,
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
        csv_only("-o", outputs[0].1, "overlap's rows are written as CSV")?;
        output_is_input(&all, &outputs)?;
        let by_solution = self.by_solution;
        let side = |puzzle: Option<String>, solution: Option<String>, no_header: bool| {
            let mut layout = self.layout.layout();
            layout.puzzle_column = puzzle.or(layout.puzzle_column);
            layout.solution_column = solution.or(self.solution_column.clone());
            layout.no_header |= no_header;
            layout.skip_solutions = !by_solution;
            layout
        };
        let train_layout = side(
            self.train_puzzle_column,
            self.train_solution_column,
            self.train_no_header,
        );
        let test_layout = side(
            self.test_puzzle_column,
            self.test_solution_column,
            self.test_no_header,
        );
        let input = InputArgs {
            inputs: self.train,
            layout: self.layout,
            engine: self.engine,
            shard: None,
            shard_count: None,
        };
        let mut train = input.read_config(input.inputs.clone())?;
        train.layout = train_layout;
        let test = ReadConfig {
            inputs: self.test,
            layout: test_layout,
            ..train.clone()
        };
        Ok(OverlapConfig {
            train,
            test,
            output: self.output,
            by_solution: self.by_solution,
        })
    }
}
