//! Dataset-builder commands (issue 13): [`augment`] writes random isomorphs of every puzzle
//! with their solutions; `rate` (to come) gives every puzzle a difficulty that all its isomorphs
//! share. Both read their inputs through the batch engine ([`crate::engine`]) and
//! write a table through [`crate::output::table`] in the format the output path names.
//!
//! Unlike `solve`, their output columns do not depend on the input's layout, so inputs of
//! different layouts (lines and CSV) may be mixed in one run.

pub mod augment;

use anyhow::Result;

use crate::engine::{self, FnWork, Output, ReadConfig, Sink};
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

/// The [`Sink`] behind [`each_input`]: the path of the input being read, the work to hand
/// out for each input, and the consumer.
struct FnSink<W, P, C> {
    work: FnWork<W, P>,
    consume: C,
    path: String,
}

impl<R, W, P, C> Sink for FnSink<W, P, C>
where
    R: Send,
    W: Fn(&RawRecord) -> R + Sync + Send + Clone,
    P: Fn(&RawRecord, String) -> R + Sync + Send + Clone,
    C: FnMut(&str, &[RawRecord], &[R]) -> Result<()> + Send,
{
    type Work = FnWork<W, P>;

    fn start_input(&mut self, _: usize, data: &Dataset) -> Result<FnWork<W, P>> {
        self.path = data.path().to_string();
        Ok(self.work.clone())
    }

    fn consume(&mut self, raws: &[RawRecord], results: &[Output<Self>]) -> Result<()> {
        (self.consume)(&self.path, raws, results)
    }
}

/// Runs every input of `read` through the [`engine`](crate::engine): `work` on the
/// workers (`panicked` for a record whose work panicked), `consume(path, records,
/// results)` in input order. Record numbers run on across inputs (and, with `--shard`, are
/// those of the whole file). Returns the records read and whether the run was interrupted.
///
/// # Errors
/// An input that cannot be opened or whose layout cannot be worked out (before any work),
/// a read error, the first error of `consume`, or a memory-mapped input that changed during
/// the run.
pub(crate) fn each_input<R, W, P, C>(
    read: &ReadConfig,
    work: W,
    panicked: P,
    consume: C,
) -> Result<(u64, bool)>
where
    R: Send,
    W: Fn(&RawRecord) -> R + Sync + Send + Clone,
    P: Fn(&RawRecord, String) -> R + Sync + Send + Clone,
    C: FnMut(&str, &[RawRecord], &[R]) -> Result<()> + Send,
{
    let pool = engine::worker_pool(read.threads)?;
    let datasets = engine::open_inputs(&read.inputs, &read.options())?;
    let mut sink = FnSink {
        work: FnWork { work, panicked },
        consume,
        path: String::new(),
    };
    let run = engine::run(datasets, &pool, &mut sink, read.quiet)?;
    Ok((run.inputs.iter().map(|i| i.records).sum(), run.interrupted))
}
