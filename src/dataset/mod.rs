//! Dataset-builder commands (issue 13): [`augment`] writes random isomorphs of every puzzle
//! with their solutions, [`rate`] gives every puzzle a difficulty that all its isomorphs
//! share. Both read their inputs through the batch engine ([`crate::engine::Inputs`]) and
//! write a table through [`crate::output::table`] in the format the output path names.
//!
//! Unlike `solve`, their output columns do not depend on the input's layout, so inputs of
//! different layouts (lines and CSV) may be mixed in one run.

pub mod augment;
pub mod rate;
pub mod singles;

use anyhow::{Context, Result};

use crate::engine::{FromPanic, Inputs, ReadConfig};
use crate::input::{Layout, RawRecord};
use crate::output::table::{table_writer, Column, ParquetCompression, TableFormat, TableWriter};
use crate::output::{cannot_write, commit_outputs, Target, WRITEBACK_RECORDS};
use crate::summary::PuzzleColumnCheck;

/// Where a table goes and in which format.
#[derive(Clone, Debug)]
pub struct TableOutput {
    /// Output path; `-` is standard output.
    pub path: String,
    /// The format: `--output-format`, else the path's extension, else CSV.
    pub format: TableFormat,
    /// `--parquet-compression`: how a Parquet output's pages are compressed.
    pub parquet_compression: ParquetCompression,
}

impl TableOutput {
    /// The output `path` in `format` when given, else in the format its extension names,
    /// else CSV (standard output, `/dev/null`, an unknown extension); Parquet pages not
    /// compressed.
    pub fn new(path: String, format: Option<TableFormat>) -> TableOutput {
        let format = TableFormat::of_output(&path, format).unwrap_or(TableFormat::Csv);
        TableOutput {
            path,
            format,
            parquet_compression: ParquetCompression::None,
        }
    }
}

/// Runs the engine over every input of `read` and writes a table of `columns` to `output`:
/// `work` maps each record on the workers, `write(table, path, result)` writes its rows in
/// input order. Record numbers run on across inputs (and, with `--shard`, are those of the
/// whole file); a record whose work panicked gets [`FromPanic::from_panic`]. The output is
/// committed (renamed into place) when every input is done. Returns whether the run was
/// interrupted.
///
/// # Errors
/// An input that cannot be opened or whose layout cannot be worked out (before any work),
/// a read error, a memory-mapped input that changed during the run, or an output that
/// cannot be written.
pub(crate) fn write_table<R, W, F>(
    read: &ReadConfig,
    output: &TableOutput,
    columns: &'static [Column],
    work: W,
    mut write: F,
) -> Result<bool>
where
    R: Send + FromPanic,
    W: Fn(&RawRecord) -> R + Sync,
    F: FnMut(&mut (dyn TableWriter + Send), &str, &Layout, &R) -> Result<()> + Send,
{
    // Inputs first, as `solve` and `canon` do: a missing input must not leave a header on
    // standard output.
    let inputs = Inputs::open(read, false)?;
    let mut check = PuzzleColumnCheck::new("", "--puzzle-column", inputs.layout());
    let what = cannot_write(&output.path, "rows");
    let mut table = Target::create(&output.path)
        .and_then(|t| table_writer(output.format, t, columns, output.parquet_compression))
        .context(what.clone())?;
    let mut unsynced = 0;
    let layouts = inputs.layouts();
    let run = inputs.run(work, |input, path, raws, results| {
        raws.iter().for_each(|r| check.note(r));
        for r in results {
            write(table.as_mut(), path, &layouts[input], r).context(what.clone())?;
        }
        // Hand what is written to the kernel about every WRITEBACK_RECORDS records (see `solve`).
        unsynced += results.len();
        if unsynced >= WRITEBACK_RECORDS {
            unsynced = 0;
            table.start_writeback();
        }
        Ok(())
    })?;
    let target = table.finish().context(what.clone())?;
    commit_outputs(vec![(target, what)], ())?;
    check.warn();
    Ok(run.interrupted)
}
