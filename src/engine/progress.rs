//! The progress bar of one input on stderr (issue 11): records done of the total when the
//! total is known exactly and cheaply ([`Dataset::record_total`]: a memory-mapped file in
//! lines, or a CSV without quotes), else the share of the input's bytes read; puzzles/s and
//! the time left in both. Hidden with `--quiet` or when stderr is not a terminal, advanced
//! once per chunk, at most 68 columns of text beside a bar that takes what is left
//! of the terminal's width, and cleared however the run ends.

use std::io::{self, IsTerminal};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

use crate::input::Dataset;

/// The progress of one input.
pub struct Progress {
    bar: ProgressBar,
    /// Records of the input (of its shard), when counted: the bar then goes by records.
    total: Option<u64>,
}

impl Progress {
    /// The bar of `data`, before any of it is read. The records are counted only when the
    /// bar is shown.
    pub fn new(data: &Dataset, quiet: bool) -> Progress {
        let shown = !quiet && io::stderr().is_terminal();
        let total = if shown { data.record_total() } else { None };
        let (len, template) = match total {
            Some(n) => (n, "{elapsed_precise} [{wide_bar}] {msg}, {eta} left"),
            None => (
                data.len(),
                "{elapsed_precise} [{wide_bar}] {percent:>3}% {msg}, {eta} left",
            ),
        };
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
            .with_finish(ProgressFinish::AndClear);
        if !shown {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        bar.set_message(message(0, total, 0.0));
        Progress { bar, total }
    }

    /// Records `records` consumed of this input, and `bytes` of it read.
    pub(super) fn update(&self, records: u64, bytes: u64) {
        self.bar
            .set_position(if self.total.is_some() { records } else { bytes });
        let rate = crate::report::ratio(records as f64, self.bar.elapsed().as_secs_f64());
        self.bar.set_message(message(records, self.total, rate));
    }

    /// Clears the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The text after the bar (and the bytes' percentage): `1200/5000 records, 950 puzzles/s`,
/// or without a total `1200 records, 950 puzzles/s`.
fn message(records: u64, total: Option<u64>, rate: f64) -> String {
    match total {
        Some(t) => format!("{records}/{t} records, {rate:.0} puzzles/s"),
        None => format!(
            "{}, {rate:.0} puzzles/s",
            crate::summary::count(records, "record", "records")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The widest text beside the bar, in columns, for up to 99,999,999 records and
    /// 9,999,999 puzzles/s: an 80-column terminal keeps 12 columns for the bar.
    const WIDEST: usize = 68;

    /// The text the templates draw around the bar, with the widest values.
    #[test]
    fn the_text_beside_the_bar_leaves_room_in_80_columns() {
        let (n, rate) = (99_999_999, 9_999_999.0);
        let by_records = format!("00:00:00 [] {}, 59m left", message(n, Some(n), rate));
        let by_bytes = format!("00:00:00 [] 100% {}, 59m left", message(n, None, rate));
        assert!(by_records.len() <= WIDEST, "{by_records}");
        assert!(by_bytes.len() <= WIDEST, "{by_bytes}");
        assert_eq!(message(1, Some(3), 2.4), "1/3 records, 2 puzzles/s");
        assert_eq!(message(1, None, 2.4), "1 record, 2 puzzles/s");
    }

    /// Records `data` gives when read to the end.
    fn records_read(mut data: Dataset) -> u64 {
        let (mut n, mut batch) = (0, Vec::new());
        loop {
            data.fill(&mut batch, 7).unwrap();
            if batch.is_empty() {
                return n;
            }
            n += batch.len() as u64;
        }
    }

    #[test]
    fn the_record_total_is_what_is_read_or_none_where_a_count_would_guess() {
        use crate::grid::fixtures::{P, S};
        use crate::input::{ReadOptions, Shard};
        let lines = format!("# comment\n{P}\n\n{P}\r\nnot a puzzle\n{P}").into_bytes();
        let csv = format!("\u{feff}id,puzzle,solution\n1,{P},{S}\n\n2,{P},{S}\n").into_bytes();
        let quoted = format!("id,puzzle\n1,{P}\n\"2\n3\",{P}\n").into_bytes();
        for (bytes, want) in [(&lines, Some(4)), (&csv, Some(2)), (&quoted, None)] {
            for shard in [None, Some(Shard { index: 2, count: 2 })] {
                let opts = ReadOptions {
                    shard,
                    ..ReadOptions::default()
                };
                let data = Dataset::from_bytes("t", bytes.clone(), &opts).unwrap();
                let total = data.record_total();
                let read = records_read(data);
                assert_eq!(total.is_some(), want.is_some());
                assert_eq!(total.unwrap_or(read), read, "{shard:?}");
                if shard.is_none() {
                    assert_eq!(total, want);
                }
            }
        }
    }
}
