//! Commands written as two closures (`canon`, `dedup`, `overlap`, `augment`, `rate`): the
//! per-record work and the in-order consumer, over the inputs of one [`ReadConfig`]. What a
//! panic in the work becomes is said by the result type ([`FromPanic`]), so that for these
//! commands too one bug costs one record, never the batch (issue 11).

use anyhow::Result;

use super::{open_inputs, run, same_layout, worker_pool, ReadConfig, Run, Sink, Work};
use crate::grid::ParseError;
use crate::input::{Dataset, Layout, RawRecord, ReadOptions};

/// A per-record result that can stand for a record whose work panicked: a bad record like
/// any other, which the command counts, reports and writes in its place.
pub trait FromPanic {
    /// The result of `record`, whose work panicked with `message` (the panic hook has
    /// already printed it on stderr).
    fn from_panic(record: &RawRecord, message: String) -> Self;
}

/// A record that is not a puzzle, or (here) whose work panicked:
/// [`ParseError::Internal`].
impl<T> FromPanic for Result<T, ParseError> {
    fn from_panic(_: &RawRecord, message: String) -> Self {
        Err(ParseError::Internal(message))
    }
}

/// The [`Work`] of [`Inputs::run`]: a closure, borrowed.
struct FnWork<'w, W>(&'w W);

impl<R, W> Work for FnWork<'_, W>
where
    R: Send + FromPanic,
    W: Fn(&RawRecord) -> R + Sync,
{
    type Output = R;

    fn work(&self, record: &RawRecord) -> R {
        (self.0)(record)
    }

    fn panicked(&self, record: &RawRecord, message: String) -> R {
        R::from_panic(record, message)
    }
}

/// The [`Sink`] of [`Inputs::run`].
struct FnSink<'w, W, C> {
    work: &'w W,
    consume: C,
    index: usize,
    path: String,
}

impl<'w, R, W, C> Sink for FnSink<'w, W, C>
where
    R: Send + FromPanic,
    W: Fn(&RawRecord) -> R + Sync,
    C: FnMut(usize, &str, &[RawRecord], &[R]) -> Result<()> + Send,
{
    type Work = FnWork<'w, W>;

    fn start_input(&mut self, index: usize, data: &Dataset) -> Result<FnWork<'w, W>> {
        self.index = index;
        self.path = data.path().to_string();
        Ok(FnWork(self.work))
    }

    fn consume(&mut self, raws: &[RawRecord], results: &[R]) -> Result<()> {
        (self.consume)(self.index, &self.path, raws, results)
    }
}

/// The inputs of one run, all opened before any work (so a missing file fails at once).
pub struct Inputs {
    data: Vec<Dataset>,
    read: ReadConfig,
}

impl Inputs {
    /// Opens every input of `read`; with `keep_text`, records keep their fields (to be
    /// written back as they were read).
    ///
    /// # Errors
    /// The first input that cannot be opened or whose layout cannot be worked out.
    pub fn open(read: &ReadConfig, keep_text: bool) -> Result<Inputs> {
        let options = ReadOptions {
            keep_text,
            ..read.options()
        };
        Ok(Inputs {
            data: open_inputs(&read.inputs, &options)?,
            read: read.clone(),
        })
    }

    /// The inputs, checked to share one layout (all lines, or CSVs with one header), for a
    /// command that writes them in their layout into one output.
    ///
    /// # Errors
    /// The first input whose layout differs, named.
    pub fn one_layout(self) -> Result<Inputs> {
        same_layout(&self.data)?;
        Ok(self)
    }

    /// Each input's layout, by input index (the index [`Inputs::run`] hands its consumer).
    pub fn layouts(&self) -> Vec<Layout> {
        self.data.iter().map(|d| d.layout().clone()).collect()
    }

    /// The first input's layout, `None` when there is no input.
    pub fn layout(&self) -> Option<&Layout> {
        self.data.first().map(Dataset::layout)
    }

    /// Runs `work` over every record of every input on `read.threads` workers, and hands
    /// the results in input order to `consume(input index, input path, records, results)`
    /// ([`run`], which numbers records across inputs). A record whose work panicked gets
    /// [`FromPanic::from_panic`] as its result.
    ///
    /// # Errors
    /// As [`run`]: the first error of `consume`, a CSV read error, or an input that changed
    /// while it was mapped.
    pub fn run<R, W, C>(self, work: W, consume: C) -> Result<Run>
    where
        R: Send + FromPanic,
        W: Fn(&RawRecord) -> R + Sync,
        C: FnMut(usize, &str, &[RawRecord], &[R]) -> Result<()> + Send,
    {
        let pool = worker_pool(self.read.threads)?;
        let mut sink = FnSink {
            work: &work,
            consume,
            index: 0,
            path: String::new(),
        };
        run(self.data, &pool, &mut sink, self.read.quiet)
    }
}
