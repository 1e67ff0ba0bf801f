//! The per-input sequence shared by `canon`, `dedup` and `overlap`: open every input first
//! (so a missing file or a second layout fails before any work), then run each through the
//! ordered parallel engine, numbering records across inputs.

use anyhow::Result;

use crate::batch::{pipeline, progress_bar, same_layout, worker_pool, ReadConfig};
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
        let mut data: Vec<Dataset> = Vec::new();
        for path in &read.inputs {
            let d = Dataset::open(path, &options)?;
            if let Some(first) = data.first() {
                same_layout(first.layout(), d.layout(), path)?;
            }
            data.push(d);
        }
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
        let pool = worker_pool(self.read.threads)?;
        let mut done = Vec::new();
        let mut next_record = 0;
        for (i, mut data) in self.data.into_iter().enumerate() {
            data.number_from(next_record);
            let pb = progress_bar(data.len(), self.read.quiet);
            let mut records = 0u64;
            let interrupted = pool.install(|| {
                pipeline(
                    &mut data,
                    &work,
                    |raws, res| {
                        records += res.len() as u64;
                        consume(i, raws, res)
                    },
                    &pb,
                )
            })?;
            pb.finish_and_clear();
            next_record = data.finish()?.next_record;
            let path = self.read.inputs[i].clone();
            if records == 0 && !self.read.quiet {
                eprintln!("sudoku-batch: note: {path}: no puzzles found (0 records)");
            }
            done.push(InputDone { path, records });
            if interrupted {
                return Ok((done, true));
            }
        }
        Ok((done, false))
    }
}
