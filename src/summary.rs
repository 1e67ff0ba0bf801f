//! The human side of a run's end: the lines printed on stderr (`path:line: reason` notes,
//! counts with the right plural). Kept short: every summary line fits in 100 columns for the
//! figures of a billion-record run (issue 11).

use std::io::Write;

/// `1 record`, `2 records`, `0 records`: `n` with the noun that fits it.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Prints the first bad records, already formatted as `path:line: reason`, one per line,
/// then how many more of the `total` there were (`what` names them and where to look).
pub fn print_notes(err: &mut impl Write, notes: &[String], total: u64, what: &str) {
    for n in notes {
        let _ = writeln!(err, "sudoku-batch: {n}");
    }
    let more = total.saturating_sub(notes.len() as u64);
    if more > 0 {
        let _ = writeln!(err, "sudoku-batch: ... and {more} more {what}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "record", "records"), "1 record");
        assert_eq!(count(0, "record", "records"), "0 records");
        assert_eq!(count(2, "thread", "threads"), "2 threads");
    }
}
