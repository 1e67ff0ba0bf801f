//! `--shard K/N`: read only the K-th of N byte ranges of an input, so a batch engine (a
//! Slurm array, GNU parallel across hosts) can split one file without pre-splitting it.
//!
//! The body of the input (after a UTF-8 BOM and, for CSV, after the header line) is cut into
//! N ranges of about equal size. Each cut is moved forward to the next **record boundary**
//! (`boundary`), so a record belongs to exactly one shard: the one whose range holds its
//! first byte. For lines that is the next physical line start. For CSV it is the next row
//! start, as the reader reads rows (`record::csv_row`, judged on the whole input as the
//! reader judges it): a quoted field over several lines (a note with line breaks) is never
//! cut, and a row whose quote is taken as unclosed is its one line.
//! Every CSV shard reads the header from the start of the file. A CSV's lines end at `\n`
//! and at a lone `\r` (classic Mac OS line ends), where the `csv` crate ends rows too
//! (`record::csv_line`), so a file with CR-only line ends is cut between its rows like any other.
//!
//! Record and line numbers stay those of the whole file: a shard counts the newlines before
//! its start (`line`) and the records that start before it (`record`, rows for CSV), with a
//! `memchr` walk over the bytes before the cut (and, for CSV, up to the shard's end), which
//! costs far less than solving them. So for one input the
//! per-record outputs of shards 1..N, concatenated, equal the whole run's. Each input of a
//! run is cut on its own, so with several inputs a shard holds its range of each, and the
//! concatenated outputs equal the whole run's only once sorted by record.

use std::fmt;
use std::str::FromStr;

use super::layout::Layout;
use super::record::{count_csv_line_ends, csv_line, csv_row, data_line, is_csv_data_line, BOM};

/// Shard `index` of `count` (1-based: `1 <= index <= count`), written `K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Shard {
    /// Which shard, 1-based.
    pub index: u32,
    /// How many shards the input is cut into.
    pub count: u32,
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?} is not K/N (e.g. 3/8)"))?;
        let num = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("{s:?} is not K/N with whole numbers (e.g. 3/8)"))
        };
        let (index, count) = (num(k)?, num(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("{s:?}: need 1 <= K <= N"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The bytes a shard reads and the position of its first byte in the whole input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    /// First byte, 0-based, always at a line start (after a BOM and a CSV header).
    pub start: usize,
    /// One past the last byte, 0-based, at a line start or the end of the input.
    pub end: usize,
    /// 1-based line number of the line that starts at `start`.
    pub first_line: u64,
    /// Data records of the input before `start` (0-based index of the shard's first record).
    pub first_record: u64,
}

impl ShardRange {
    /// The range covering the whole body of `bytes`: what a run without `--shard` reads.
    pub fn whole(bytes: &[u8], layout: &Layout) -> ShardRange {
        range(bytes, layout, Shard { index: 1, count: 1 })
    }
}

/// The byte range of `shard` within `bytes` (the whole input) read with `layout`.
///
/// The ranges of shards 1..=N are disjoint, in order, and cover the whole body; a shard may
/// be empty when the input has fewer lines than shards.
pub fn range(bytes: &[u8], layout: &Layout, shard: Shard) -> ShardRange {
    let body = body_start(bytes, layout);
    let len = bytes.len() - body;
    let share =
        |i: u32| body + (len as u128 * u128::from(i) / u128::from(shard.count.max(1))) as usize;
    let (start, first_record) = if shard.index <= 1 {
        (body, 0)
    } else {
        boundary(bytes, layout, body, share(shard.index - 1))
    };
    let end = if shard.index >= shard.count {
        bytes.len()
    } else {
        boundary(bytes, layout, start, share(shard.index)).0
    };
    let lines_before = match layout {
        Layout::Csv { .. } => count_csv_line_ends(bytes, 0..start),
        _ => memchr::memchr_iter(b'\n', &bytes[..start]).count() as u64,
    };
    ShardRange {
        start,
        end: end.max(start),
        first_line: lines_before + 1,
        first_record,
    }
}

/// Where a cut aimed at byte `target` falls, walking `bytes` from `from` (a record
/// boundary): the first line start at or after `target` that no record spans, and the data
/// records that start in `from..` it. For lines, any line start; for CSV, a row start as
/// the reader reads rows ([`csv_row`]): a quoted field over several lines (a note) is
/// walked over, and a row whose quote is taken as unclosed is one line. `bytes` is all the
/// input (or all a stream holds): a row's end may be judged on bytes past `target`.
pub(crate) fn boundary(bytes: &[u8], layout: &Layout, from: usize, target: usize) -> (usize, u64) {
    let Layout::Csv {
        header,
        delimiter,
        width,
        ..
    } = layout
    else {
        let cut = next_line_start(bytes, target).max(from);
        return (cut, count_records(&bytes[from..cut], layout));
    };
    let fields = width.or(header.as_ref().map(Vec::len));
    let (mut pos, mut records) = (from, 0);
    while pos < bytes.len() && pos < target {
        let (line, next) = csv_line(bytes, pos);
        pos = match is_csv_data_line(line) {
            true => {
                records += 1;
                csv_row(bytes, pos, *delimiter, fields, true).map_or(next, |r| r.next())
            }
            false => next,
        };
    }
    (pos, records)
}

/// Data records in the whole of `bytes` read with `layout` (a `memchr` line scan, walking
/// over quoted line breaks as `boundary` does).
pub fn total_records(bytes: &[u8], layout: &Layout) -> u64 {
    boundary(bytes, layout, body_start(bytes, layout), bytes.len()).1
}

/// The first byte after a BOM and, for a CSV with a header, after the header line.
fn body_start(bytes: &[u8], layout: &Layout) -> usize {
    let mut pos = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    if let Layout::Csv {
        header: Some(_), ..
    } = layout
    {
        // The header is the first line that is not blank or a `#` comment.
        while pos < bytes.len() {
            let next = next_line_start(bytes, pos + 1);
            let is_data = is_data_line(&bytes[pos..next], layout);
            pos = next;
            if is_data {
                break;
            }
        }
    }
    pos
}

/// `pos` if a line starts there (or it is the end), else the start of the next line.
pub(crate) fn next_line_start(bytes: &[u8], pos: usize) -> usize {
    if pos == 0 || pos >= bytes.len() || bytes[pos - 1] == b'\n' {
        return pos.min(bytes.len());
    }
    memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i + 1)
}

/// Whether a physical line (with its `\n`, if any) starts a record: the rules of
/// [`super::record`].
fn is_data_line(line: &[u8], layout: &Layout) -> bool {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    match layout {
        Layout::Lines { .. } | Layout::Columns { .. } => data_line(line).is_some(),
        Layout::Csv { .. } => is_csv_data_line(line),
    }
}

/// Data records whose line starts in `bytes` (a `memchr` line scan; `bytes` starts at a
/// line start). A CSV's lines end at lone `\r`s too ([`csv_line`]).
pub(crate) fn count_records(bytes: &[u8], layout: &Layout) -> u64 {
    let mut n = 0;
    let mut pos = 0;
    if let Layout::Csv { .. } = layout {
        while pos < bytes.len() {
            let (line, next) = csv_line(bytes, pos);
            n += u64::from(is_csv_data_line(line));
            pos = next;
        }
        return n;
    }
    while pos < bytes.len() {
        let next = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i + 1);
        n += u64::from(is_data_line(&bytes[pos..next], layout));
        pos = next;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: Layout = Layout::Lines {
        field: 0,
        paired: false,
    };

    #[test]
    fn parses_k_of_n_and_rejects_the_rest() {
        assert_eq!("3/8".parse(), Ok(Shard { index: 3, count: 8 }));
        assert_eq!("1/1".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/4", "5/4", "1/0", "3", "a/b", "-1/4", "1/4/5", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
    }

    #[test]
    fn shards_cover_the_body_at_line_starts_with_true_positions() {
        let text = b"\xEF\xBB\xBF# c\naaa\n\nbbbbbbbb\nc\r\n#x\ndddd";
        for n in 1..=12 {
            let mut prev_end = 3;
            let mut records = 0;
            for k in 1..=n {
                let r = range(text, &LINES, Shard { index: k, count: n });
                assert_eq!(r.start, prev_end, "shards are contiguous");
                assert!(r.start == 3 || text[r.start - 1] == b'\n' || r.start == text.len());
                let before = &text[..r.start];
                assert_eq!(
                    r.first_line,
                    before.iter().filter(|&&b| b == b'\n').count() as u64 + 1
                );
                assert_eq!(r.first_record, records);
                records += count_records(&text[r.start..r.end], &LINES);
                prev_end = r.end;
            }
            assert_eq!(prev_end, text.len());
            assert_eq!(records, 4);
        }
    }

    /// A cut never falls inside a quoted field over several lines, and the records before it
    /// are counted as rows, not lines; a quote not closed on its line (followed by a row)
    /// and a `"` inside a field are one line, as the reader reads them.
    #[test]
    fn csv_cuts_walk_over_quoted_line_breaks() {
        let layout = Layout::Csv {
            header: Some(vec!["p".into(), "s".into(), "n".into()]),
            puzzle: 0,
            solution: Some(1),
            delimiter: b',',
            width: None,
        };
        // Rows start at lines 2, 3, 6, 7, 8, 9 (the note on line 3 spans lines 3 to 5).
        let text = b"p,s,n\na,b,c\nd,e,\"x\n\"\"y,\nz\"\ng,h,i\n\"j,k,l\nm,n\"o,p\nq,r,s\n";
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text).map(|i| i + 1))
            .collect();
        let starts: Vec<usize> = [2, 3, 6, 7, 8, 9]
            .iter()
            .map(|&l| line_starts[l - 1])
            .collect();
        assert_eq!(total_records(text, &layout), 6);
        for target in 6..text.len() {
            let (cut, records) = boundary(text, &layout, 6, target);
            let want = starts
                .iter()
                .position(|&s| s >= target)
                .map_or(text.len(), |i| starts[i]);
            assert_eq!(cut, want, "target {target}");
            assert_eq!(records, starts.iter().filter(|&&s| s < cut).count() as u64);
        }
    }

    #[test]
    fn csv_shards_start_after_the_header() {
        let layout = Layout::Csv {
            header: Some(vec!["quizzes".into()]),
            puzzle: 0,
            solution: None,
            delimiter: b',',
            width: None,
        };
        let text = b"#c\nquizzes\nx\ny\n";
        let r = range(text, &layout, Shard { index: 1, count: 1 });
        assert_eq!((r.start, r.first_line, r.first_record), (11, 3, 0));
        assert_eq!(total_records(text, &layout), 2);
    }
}
