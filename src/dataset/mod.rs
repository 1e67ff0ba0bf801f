//! Dataset-builder commands (issue 13): [`augment`] writes random isomorphs of every puzzle
//! with their solutions; `rate` (to come) gives every puzzle a difficulty that all its isomorphs
//! share. Both read their inputs through the batch engine ([`crate::batch::pipeline`]) and
//! write a table through [`crate::output::table`] in the format the output path names.
//!
//! Unlike `solve`, their output columns do not depend on the input's layout, so inputs of
//! different layouts (lines and CSV) may be mixed in one run.

pub mod augment;

use anyhow::Result;

use crate::batch::{pipeline, progress_bar, worker_pool, ReadConfig};
use crate::input::{Dataset, RawRecord};
use crate::output::table::TableFormat;

/// Where a table goes and in which format.
#[derive(Clone, Debug)]
pub struct TableOutput {
    /// Output path; `-` is standard output.
    pub path: String,
    /// The format: `--output-format`, else the path's extension, else CSV.
    pub format: TableFormat,
}

impl TableOutput {
    /// The output `path` in `format` when given, else in the format its extension names,
    /// else CSV (standard output, `/dev/null`, an unknown extension).
    pub fn new(path: String, format: Option<TableFormat>) -> TableOutput {
        let format = format
            .or_else(|| TableFormat::from_path(&path))
            .unwrap_or(TableFormat::Csv);
        TableOutput { path, format }
    }
}

/// Reads every input of `read` in turn and runs the engine over its records: `work` on the
/// workers, `consume(path, records, results)` in input order. Record numbers run on across
/// inputs (and, with `--shard`, are those of the whole file). Returns the records read and
/// whether the run was interrupted.
///
/// # Errors
/// An input that cannot be opened or whose layout cannot be worked out (before any work),
/// a read error, the first error of `consume`, or a memory-mapped input that changed during
/// the run.
pub(crate) fn each_input<R, W, C>(read: &ReadConfig, work: W, mut consume: C) -> Result<(u64, bool)>
where
    R: Send + Sync,
    W: Fn(&RawRecord) -> R + Sync + Send,
    C: FnMut(&str, &[RawRecord], &[R]) -> Result<()> + Send,
{
    let pool = worker_pool(read.threads)?;
    let options = read.options();
    let opened = read
        .inputs
        .iter()
        .map(|path| Dataset::open(path, &options))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut next_record, mut records) = (0, 0);
    for (mut data, path) in opened.into_iter().zip(&read.inputs) {
        data.number_from(next_record);
        let pb = progress_bar(data.len(), read.quiet);
        let mut seen = 0;
        let interrupted = pool.install(|| {
            pipeline(
                &mut data,
                &work,
                |raws, res| {
                    seen += raws.len() as u64;
                    consume(path, raws, res)
                },
                &pb,
            )
        })?;
        pb.finish_and_clear();
        next_record = data.finish()?.next_record;
        records += seen;
        if seen == 0 && !read.quiet {
            eprintln!("sudoku-batch: note: {path}: no puzzles found (0 records)");
        }
        if interrupted {
            return Ok((records, true));
        }
    }
    Ok((records, false))
}
