//! Flags of `dedup`.

use clap::Args;

use sudoku_batch::cmd::dedup::DedupConfig;
use sudoku_batch::output::table::TableFormat;

use super::input::InputArgs;
use super::output::{output_is_input, same_file_outputs};

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
        for (flag, path) in outputs {
            path.map_or(Ok(()), |p| refuse_table_name(flag, p))?;
        }
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

/// Refuses a `dedup` output named as a table format that is neither CSV nor text (`.jsonl`,
/// `.npz`, `.parquet`: [`TableFormat::of_output`]): dedup writes the kept records as read,
/// CSV rows or lines, which such a name would hide (trial 4, problem 1; also in a build
/// without the `parquet` feature).
fn refuse_table_name(flag: &str, path: &str) -> Result<(), String> {
    match TableFormat::of_output(path, None) {
        Some(f @ (TableFormat::Jsonl | TableFormat::Npz | TableFormat::Parquet)) => Err(format!(
            "{flag} {path}: dedup writes the records as read (CSV rows or lines), not {}: name \
             the output .csv (or .txt for a lines input) and convert that file, e.g. with pandas",
            f.name()
        )),
        _ => Ok(()),
    }
}
