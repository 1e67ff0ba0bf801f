//! The progress bar of one input on stderr (issue 11): records done of the total when the
//! total is known exactly and cheaply ([`Dataset::record_total`]: a memory-mapped file in
//! lines, or a CSV without quotes; counted on a thread of its own beside the work, the bar
//! going by bytes until the count is in), else the share of the input's bytes read; puzzles/s and
//! the time left in both. Hidden with `--quiet` or when stderr is not a terminal, advanced
//! once per chunk, at most 68 columns of text beside a bar that takes what is left
//! of the terminal's width (less text on a terminal narrower than 78 columns, so a line
//! never wraps), and cleared however the run ends.

use std::io::{self, IsTerminal};
use std::sync::{Mutex, OnceLock, PoisonError};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

use crate::input::{Dataset, RecordCount};

/// The bar's templates when it goes by records, richest first, each with the widest text it
/// draws beside the bar, in columns (`00:00:00 [] 99999999/99999999 records, 9999999
/// puzzles/s, 59m left`): [`template`] takes the first that leaves the bar [`MIN_BAR`]
/// columns of the terminal. The bar takes the columns left (`{wide_bar}`); a line wider
/// than the terminal wrapped, and each redraw left a broken line behind (one template of
/// 68 columns of text on a 50-column terminal did).
const BY_RECORDS: [(&str, usize); 4] = [
    ("{elapsed_precise} [{wide_bar}] {msg}, {eta} left", 68),
    NARROW[0],
    NARROW[1],
    NARROW[2],
];

/// The bar's templates when it goes by the input's bytes, as [`BY_RECORDS`].
const BY_BYTES: [(&str, usize); 4] = [
    (
        "{elapsed_precise} [{wide_bar}] {percent:>3}% {msg}, {eta} left",
        68,
    ),
    NARROW[0],
    NARROW[1],
    NARROW[2],
];

/// The templates of a narrow terminal, by records or by bytes alike: the share done (of
/// the records once counted, else of the bytes) and the time left, then the share alone,
/// then the percentage alone.
const NARROW: [(&str, usize); 3] = [
    (
        "{elapsed_precise} [{wide_bar}] {percent:>3}%, {eta} left",
        26,
    ),
    ("[{wide_bar}] {percent:>3}%", 7),
    ("{percent:>3}%", 4),
];

/// Columns the bar keeps at least, where a template with less text fits.
const MIN_BAR: usize = 10;

/// The template for a terminal `columns` wide: the richest of `templates` whose text
/// leaves the bar [`MIN_BAR`] columns, else the last (the percentage alone).
fn template(templates: &[(&'static str, usize)], columns: usize) -> &'static str {
    let fits = templates.iter().find(|(_, text)| text + MIN_BAR <= columns);
    fits.or(templates.last()).map_or("", |t| t.0)
}

/// The width of the terminal on stderr, in columns (80 when it is none: the bar is then
/// hidden anyway).
fn terminal_columns() -> usize {
    match console::Term::stderr().size_checked() {
        Some((_, columns)) => usize::from(columns),
        None => 80,
    }
}

/// The progress of one input.
pub struct Progress {
    bar: ProgressBar,
    /// The template drawn (one of [`BY_RECORDS`] or [`BY_BYTES`]), chosen again at each
    /// update for the terminal's width then (it may be resized).
    template: Mutex<&'static str>,
    /// The terminal's width in columns.
    columns: fn() -> usize,
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
        let target = match shown {
            true => ProgressDrawTarget::stderr(),
            false => ProgressDrawTarget::hidden(),
        };
        Progress::drawn_to(data.len(), target, terminal_columns, shown)
    }

    /// The bar of an input of `len` bytes, drawn to `target`, whose width `columns` gives.
    fn drawn_to(
        len: u64,
        target: ProgressDrawTarget,
        columns: fn() -> usize,
        shown: bool,
    ) -> Progress {
        let bar =
            ProgressBar::with_draw_target(Some(len), target).with_finish(ProgressFinish::AndClear);
        let progress = Progress {
            bar,
            template: Mutex::new(""),
            columns,
            total: OnceLock::new(),
            shown,
        };
        progress.fit();
        progress.bar.set_message(message(0, None, 0.0));
        progress
    }

    /// Sets the template that fits the terminal's width now, if it is not the one drawn.
    fn fit(&self) {
        let templates = match self.total.get() {
            Some(_) => &BY_RECORDS,
            None => &BY_BYTES,
        };
        let want = template(templates, (self.columns)());
        let mut drawn = self.template.lock().unwrap_or_else(PoisonError::into_inner);
        if *drawn != want {
            *drawn = want;
            self.bar.set_style(style(want));
        }
    }

    /// The count of `data`'s records for the bar's total, to run beside the work (run
    /// before it, the count is one serial pass, a noticeable share of a run of easy
    /// puzzles); give its result to [`Progress::set_total`]. `None` when the bar is
    /// hidden or the count would not be exact and cheap ([`Dataset::record_count`]).
    pub fn record_count(&self, data: &Dataset) -> Option<RecordCount> {
        self.shown.then(|| data.record_count()).flatten()
    }

    /// The records of the input, counted: the bar goes by records from now on.
    pub fn set_total(&self, total: u64) {
        if self.total.set(total).is_ok() {
            self.fit();
            self.bar.set_length(total);
        }
    }

    /// Records `records` consumed of this input, and `bytes` of it read.
    pub(super) fn update(&self, records: u64, bytes: u64) {
        self.fit();
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

    /// A terminal of [`COLUMNS`] columns that keeps the text drawn on it.
    #[derive(Clone, Debug, Default)]
    struct Narrow(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

    /// The width of [`Narrow`], in columns.
    static COLUMNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(80);

    fn columns() -> usize {
        COLUMNS.load(std::sync::atomic::Ordering::SeqCst)
    }

    impl indicatif::TermLike for Narrow {
        fn width(&self) -> u16 {
            columns() as u16
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            self.0.lock().unwrap().push(s.to_string());
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    /// On a terminal narrower than the bar's 68 columns of text, every
    /// line wrapped. Each width from 4 to 120 columns now gets lines that fit, by bytes and
    /// by records, with the widest numbers; a wide terminal keeps the full text, and a
    /// resized one gets the template of its new width at the next update.
    #[test]
    fn every_line_fits_the_terminal() {
        let n = 99_999_999;
        for width in (4..=120).rev() {
            COLUMNS.store(width, std::sync::atomic::Ordering::SeqCst);
            let term = Narrow::default();
            let target = ProgressDrawTarget::term_like_with_hz(Box::new(term.clone()), 200);
            let p = Progress::drawn_to(2 * n, target, columns, true);
            // The widest message the 68 columns allow for (the rate, of a tiny elapsed
            // time here, would be wider than any run's).
            let (rate, widest) = (9_999_999.0, 99_999_999);
            let mut lines = Vec::new();
            let mut draw = |total: Option<u64>| {
                p.bar.set_message(message(widest, total, rate));
                term.0.lock().unwrap().clear();
                p.bar.force_draw();
                lines.extend(term.0.lock().unwrap().drain(..));
            };
            p.update(n, n);
            draw(None);
            p.set_total(n);
            p.update(n / 2, n);
            draw(Some(widest));
            assert!(lines.len() >= 2, "{width}: {lines:?}");
            for line in &lines {
                let drawn = console::measure_text_width(line);
                assert!(drawn <= width, "{width} columns: {drawn}: {line:?}");
            }
            let full = lines.iter().any(|l| l.contains("records,"));
            assert_eq!(full, width >= 78, "{width}: {lines:?}");
        }
        // A terminal made narrower between two updates.
        COLUMNS.store(100, std::sync::atomic::Ordering::SeqCst);
        let term = Narrow::default();
        let target = ProgressDrawTarget::term_like_with_hz(Box::new(term.clone()), 200);
        let p = Progress::drawn_to(2 * n, target, columns, true);
        p.update(1, 1);
        COLUMNS.store(30, std::sync::atomic::Ordering::SeqCst);
        p.update(2, 2);
        p.bar.force_draw();
        let last = term.0.lock().unwrap().last().cloned().unwrap();
        assert!(console::measure_text_width(&last) <= 30, "{last:?}");
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
                // A shard past the quoted row holds no quote, and is counted.
                assert_eq!(total.unwrap_or(read), read, "{shard:?}");
                if shard.is_none() {
                    assert_eq!(total, want);
                }
            }
        }
    }

    /// The count ran before the work; now the bar goes by bytes until it is in.
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
