//! The per-input sequence shared by `canon`, `dedup` and `overlap`: open every input first
//! (so a missing file or a second layout fails before any work), then run each through the
//! ordered parallel engine ([`engine::run_fn`]), numbering records across inputs.

use anyhow::Result;

use crate::engine::{self, ReadConfig};
use crate::input::{Dataset, Layout, RawRecord, ReadOptions};

/// The inputs of one run, opened and checked to share one layout.
pub struct Inputs {
    data: Vec<Dataset>,
    read: ReadConfig,
}

/// What was read from one input.
#[derive(Clone, Debug)]
pub struct InputDone {
    /// The path as given.
    pub path: String,
    /// Records consumed (fewer than read when interrupted).
    pub records: u64,
}

impl Inputs {
    /// Opens every input of `read` with `keep_text` (lines records keep their text).
    ///
    /// # Errors
    /// An input that cannot be opened or whose layout differs from the first input's.
    pub fn open(read: &ReadConfig, keep_text: bool) -> Result<Inputs> {
        let options = ReadOptions {
            keep_text,
            ..read.options()
        };
        let data = engine::open_inputs(&read.inputs, &options)?;
        engine::same_layout(&data)?;
        Ok(Inputs {
            data,
            read: read.clone(),
        })
    }

    /// The first input's layout (that of every input), `None` when there is no input.
    pub fn layout(&self) -> Option<&Layout> {
        self.data.first().map(Dataset::layout)
    }

    /// Runs `work` over every record of every input on `read.threads` workers, and hands
    /// the results in input order to `consume(input index, records, results)`. Returns
    /// what was read from each input and whether Ctrl-C stopped the run.
    ///
    /// # Errors
    /// The first error of `consume`, a CSV read error, or an input that changed while it
    /// was mapped.
    pub fn run<R, W, C>(self, work: W, mut consume: C) -> Result<(Vec<InputDone>, bool)>
    where
        R: Send + Sync,
        W: Fn(&RawRecord) -> R + Sync + Send,
        C: FnMut(usize, &[RawRecord], &[R]) -> Result<()> + Send,
    {
        let pool = engine::worker_pool(self.read.threads)?;
        let run = engine::run_fn(
            self.data,
            &pool,
            self.read.quiet,
            &work,
            |i, _, raws, res| consume(i, raws, res),
        )?;
        let done = run
            .inputs
            .into_iter()
            .map(|i| InputDone {
                path: i.path,
                records: i.records,
            })
            .collect();
        Ok((done, run.interrupted))
    }
}
