//! Flags of `dedup`.

use clap::Args;

use sudoku_batch::cmd::dedup::DedupConfig;

use super::input::InputArgs;
use super::output::{csv_only, output_is_input, same_file_outputs};

/// Flags of `dedup`. `--shard` and `--shard-count` are hidden from its help: they are
/// refused (copies in other shards would be kept), with a message saying so.
#[derive(Debug, Args)]
#[command(mut_arg("shard", |a| a.hide(true)), mut_arg("shard_count", |a| a.hide(true)))]
pub struct DedupArgs {
    /// Inputs and how to read them.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the kept records here, in the input's layout (`-`: standard output).
    #[arg(short, long, value_name = "FILE", required = true)]
    pub output: String,
    /// Count isomorphs (same minlex form) as copies, not only equal puzzles.
    #[arg(long)]
    pub iso: bool,
    /// Write every dropped record as CSV:
    /// record,input,line,first_record,first_input,first_line,relation (exact or isomorph).
    #[arg(long, value_name = "FILE")]
    pub groups: Option<String>,
}

impl DedupArgs {
    /// Checks the flags together and builds the library config.
    ///
    /// # Errors
    /// A message naming the flag when two flags do not fit together.
    pub fn into_config(self) -> Result<DedupConfig, String> {
        let inputs = self.input.inputs()?;
        if self.input.shard.is_some() || self.input.shard_count.is_some() {
            return Err(
                "--shard does not apply to dedup: copies in other shards would be kept".into(),
            );
        }
        if self.groups.as_deref() == Some("-") && self.output == "-" {
            return Err("--groups -: standard output already carries the kept records; give --groups a file".into());
        }
        let outputs = [
            ("-o", Some(&self.output)),
            ("--groups", self.groups.as_ref()),
        ];
        csv_only(
            "-o",
            outputs[0].1,
            "dedup writes the records as read (CSV rows or lines)",
        )?;
        csv_only("--groups", outputs[1].1, "--groups is written as CSV")?;
        same_file_outputs(&outputs)?;
        output_is_input(&inputs, &outputs)?;
        Ok(DedupConfig {
            read: self.input.read_config(inputs)?,
            output: self.output,
            iso: self.iso,
            groups: self.groups,
        })
    }
}
