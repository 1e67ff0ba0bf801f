//! Dataset-builder commands (issue 13): [`augment`] writes random isomorphs of every puzzle
//! with their solutions, [`rate`] gives every puzzle a difficulty that all its isomorphs
//! share. Both read their inputs through the batch engine ([`crate::batch::pipeline`]) and
//! write a table through [`crate::output::table`] in the format the output path names.
//!
//! Unlike `solve`, their output columns do not depend on the input's layout, so inputs of
//! different layouts (lines and CSV) may be mixed in one run.

pub mod augment;

use anyhow::{bail, Result};

use crate::batch::{pipeline, progress_bar, worker_pool, ReadConfig};
use crate::input::{self, RawRecord, RecordReader};
use crate::output::table::TableFormat;
use crate::shard;
use crate::stamp::Stamp;

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
/// a CSV read error, the first error of `consume`, or a memory-mapped input that changed
/// during the run.
pub(crate) fn each_input<R, W, C>(read: &ReadConfig, work: W, mut consume: C) -> Result<(u64, bool)>
where
    R: Send + Sync,
    W: Fn(&RawRecord) -> R + Sync + Send,
    C: FnMut(&str, &[RawRecord], &[R]) -> Result<()> + Send,
{
    let pool = worker_pool(read.threads)?;
    let mut opened = Vec::new();
    for path in &read.inputs {
        let stamp = Stamp::of(path);
        let source = input::open(path, read.mmap)?;
        let layout = input::detect(source.bytes(), &read.layout).map_err(|reason| {
            input::InputError::Layout {
                path: path.clone(),
                reason,
            }
        })?;
        opened.push((path, stamp, source, layout));
    }
    let (mut next_record, mut records) = (0, 0);
    for (path, stamp, source, layout) in opened {
        let bytes = source.bytes();
        let mut reader = match read.shard {
            None => RecordReader::new(bytes, &layout, next_record),
            Some(s) => {
                let range = shard::range(bytes, &layout, s);
                RecordReader::new_range(bytes, &layout, &range, next_record)
            }
        };
        let pb = progress_bar(bytes.len() as u64, read.quiet);
        let mut seen = 0;
        let interrupted = pool.install(|| {
            pipeline(
                &mut reader,
                &work,
                |raws, res| {
                    seen += raws.len() as u64;
                    consume(path, raws, res)
                },
                &pb,
                path,
            )
        })?;
        pb.finish_and_clear();
        if let (input::Source::Mapped(_), Some(stamp)) = (&source, stamp) {
            if let Some(why) = stamp.changed(path) {
                bail!(
                    "{path}: {why}: its results may mix old and new bytes, so no output was \
                     committed; use --no-mmap for a file that changes"
                );
            }
        }
        records += seen;
        if seen == 0 && !read.quiet {
            eprintln!("sudoku-batch: note: {path}: no puzzles found (0 records)");
        }
        next_record = match read.shard {
            None => reader.next_record(),
            Some(_) => next_record + shard::total_records(bytes, &layout),
        };
        if interrupted {
            return Ok((records, true));
        }
    }
    Ok((records, false))
}
