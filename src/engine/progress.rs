//! The progress bar of one input on stderr (issue 11): records done of the total when the
//! total is known exactly and cheaply ([`Dataset::record_total`]: a memory-mapped file in
//! lines, or a CSV without quotes; counted on a thread of its own beside the work, the bar
//! going by bytes until the count is in), else the share of the input's bytes read; puzzles/s and
//! the time left in both. Hidden with `--quiet` or when stderr is not a terminal, advanced
//! once per chunk, at most 68 columns of text beside a bar that takes what is left
//! of the terminal's width, and cleared however the run ends.

use std::io::{self, IsTerminal};
use std::sync::OnceLock;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

use crate::input::{Dataset, RecordCount};

/// The bar's template when it goes by records.
const BY_RECORDS: &str = "{elapsed_precise} [{wide_bar}] {msg}, {eta} left";

/// The bar's template when it goes by the input's bytes.
const BY_BYTES: &str = "{elapsed_precise} [{wide_bar}] {percent:>3}% {msg}, {eta} left";

/// The progress of one input.
pub struct Progress {
    bar: ProgressBar,
    /// Records of the input (of its shard), once counted: the bar then goes by records.
    total: OnceLock<u64>,
    /// Whether the bar is drawn (so its total is worth counting).
    shown: bool,
}

impl Progress {
    /// The bar of `data`, before any of it is read: by bytes until [`Progress::set_total`]
    /// gives it the records (counted only when the bar is shown and the count is exact and
    /// cheap: [`Progress::record_count`]), then by records.
    pub fn new(data: &Dataset, quiet: bool) -> Progress {
        let shown = !quiet && io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(Some(data.len()), ProgressDrawTarget::stderr())
            .with_finish(ProgressFinish::AndClear);
        if !shown {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(style(BY_BYTES));
        bar.set_message(message(0, None, 0.0));
        Progress {
            bar,
            total: OnceLock::new(),
            shown,
        }
    }

    /// The count of `data`'s records for the bar's total, to run beside the work (trial 7:
    /// run before it, the count was one serial pass, 24 ms per million lines, 2-5% of a run
    /// of easy puzzles); give its result to [`Progress::set_total`]. `None` when the bar is
    /// hidden or the count would not be exact and cheap ([`Dataset::record_count`]).
    pub fn record_count(&self, data: &Dataset) -> Option<RecordCount> {
        self.shown.then(|| data.record_count()).flatten()
    }

    /// The records of the input, counted: the bar goes by records from now on.
    pub fn set_total(&self, total: u64) {
        if self.total.set(total).is_ok() {
            self.bar.set_style(style(BY_RECORDS));
            self.bar.set_length(total);
        }
    }

    /// Records `records` consumed of this input, and `bytes` of it read.
    pub(super) fn update(&self, records: u64, bytes: u64) {
        let total = self.total.get().copied();
        self.bar
            .set_position(if total.is_some() { records } else { bytes });
        let rate = crate::report::ratio(records as f64, self.bar.elapsed().as_secs_f64());
        self.bar.set_message(message(records, total, rate));
    }

    /// Clears the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The bar's style with `template`.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("the template is valid")
        .progress_chars("=> ")
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
                // The bar's count runs on a thread of its own while the input is read.
                let count = data.record_count();
                let beside = std::thread::spawn(move || count.and_then(|c| c.count()));
                let read = records_read(data);
                assert_eq!(beside.join().unwrap(), total);
                assert_eq!(total.is_some(), want.is_some());
                assert_eq!(total.unwrap_or(read), read, "{shard:?}");
                if shard.is_none() {
                    assert_eq!(total, want);
                }
            }
        }
    }

    /// Trial 7: the count ran before the work; now the bar goes by bytes until it is in.
    #[test]
    fn the_total_turns_the_bar_from_bytes_to_records() {
        use crate::grid::fixtures::P;
        use crate::input::ReadOptions;
        let bytes = format!("{P}\n{P}\n").into_bytes();
        let data = Dataset::from_bytes("t", bytes, &ReadOptions::default()).unwrap();
        let p = Progress::new(&data, true);
        assert!(
            p.record_count(&data).is_none(),
            "a hidden bar counts nothing"
        );
        assert_eq!(p.bar.length(), Some(164));
        p.update(1, 82);
        assert_eq!(p.bar.position(), 82);
        assert!(
            p.bar.message().starts_with("1 record, "),
            "{}",
            p.bar.message()
        );
        p.set_total(data.record_total().unwrap());
        assert_eq!(p.bar.length(), Some(2));
        p.update(1, 82);
        assert_eq!(p.bar.position(), 1);
        assert!(
            p.bar.message().starts_with("1/2 records, "),
            "{}",
            p.bar.message()
        );
    }
}
