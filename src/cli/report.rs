//! Flags of `report` and its subcommand `merge`.

use clap::Subcommand;

use sudoku_batch::cmd::merge::MergeConfig;
use sudoku_batch::cmd::plot::PlotConfig;
use sudoku_batch::cmd::Command as Run;

use super::output::{empty_path, input_written, not_a_table};

/// Subcommands of `report`.
#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// Merge the JSON `--report`s of shards (or of any runs) into one report.
    Merge {
        /// The merged report to write (`-`: standard output).
        #[arg(value_name = "OUT.json")]
        output: String,
        /// The reports to merge: shards of one run (`--shard K/N`, all N of them) or whole
        /// runs of different inputs, all of `solve` or all of `verify`.
        #[arg(value_name = "IN.json", required = true)]
        inputs: Vec<String>,
        /// Merge a set of shards that lacks some, or holds one whose run was interrupted;
        /// the merged report says `"partial": true` and lists `missing_shards` and
        /// `interrupted_shards`.
        #[arg(long)]
        partial: bool,
    },
    /// Draw SVG charts of reports and tables into a folder: a solve report's latency
    /// histogram, a verify report's guesses histogram, a bench --export-json export's
    /// puzzles/s by thread count, a generate report's rows per rating bin, a rate CSV
    /// output's ratings, a bench-peers table's speed over tdoku's (STEM-latency.svg,
    /// STEM-guesses.svg, STEM-threads.svg, STEM-rating.svg, STEM-peers.svg).
    Plot {
        /// The documents to draw: JSON reports and exports, CSV tables.
        #[arg(value_name = "FILE", required = true)]
        inputs: Vec<String>,
        /// The folder the charts go to (it must exist).
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        out_dir: String,
    },
}

impl ReportCommand {
    /// Checks the flags and builds what the library runs.
    ///
    /// # Errors
    /// A message naming the clash when flags do not fit together.
    pub fn into_command(self) -> Result<Run, String> {
        match self {
            ReportCommand::Merge {
                output,
                inputs,
                partial,
            } => {
                check_merge_paths(&output, &inputs)?;
                Ok(Run::MergeReports(MergeConfig {
                    output,
                    inputs,
                    partial,
                }))
            }
            ReportCommand::Plot { inputs, out_dir } => {
                Ok(Run::PlotReports(PlotConfig { inputs, out_dir }))
            }
        }
    }
}

/// Checks `report merge OUT IN...` before anything is read: `OUT` must not be one of the
/// reports it merges (it would replace a shard's report with the merged one).
///
/// # Errors
/// The clash, as one line.
fn check_merge_paths(output: &str, inputs: &[String]) -> Result<(), String> {
    let output = output.to_string();
    empty_path(inputs, &[("OUT.json", Some(&output))])?;
    // Named as --report and --export-json are (`report merge mm.csv` was taken).
    not_a_table("report merge", Some(&output), "one JSON document", "json")?;
    match input_written(inputs, &[("OUT.json", Some(&output))]) {
        Some(_) => Err(format!(
            "{output}: the output is one of the reports being merged; write the merged report \
             elsewhere"
        )),
        None => Ok(()),
    }
}
