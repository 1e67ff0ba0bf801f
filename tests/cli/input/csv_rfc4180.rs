//! CSV as RFC 4180 writes it: any CSV the `csv` crate writes, with random fields holding
//! quotes, commas and line breaks (CR, LF, CRLF), reads back to the same records and the
//! same 1-based start lines, memory-mapped, streamed (`--no-mmap`, in small blocks),
//! sharded (shards 1..N joined) and gzip-compressed.

use std::io::Write;

use proptest::prelude::*;
use sudoku_batch::input::{Dataset, ReadOptions, Shard};

/// A puzzle in the digits-and-zeros form the crate writes unquoted.
const P: &str = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

/// A field of text drawn from the characters that matter to CSV quoting.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("\""),
            Just(","),
            Just("\n"),
            Just("\r\n"),
            Just("\r"),
            Just("a"),
            Just(" "),
            Just("Step 1, r1c2"),
            Just("#"),
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

/// Rows of `puzzle,note,trace`: the puzzle column is a puzzle (or a word, an invalid record),
/// the other two any text.
fn rows() -> impl Strategy<Value = Vec<[String; 3]>> {
    let puzzle = prop_oneof![4 => Just(P.to_string()), 1 => Just("x".to_string())];
    proptest::collection::vec(
        (puzzle, text(), text()).prop_map(|(p, a, b)| [p, a, b]),
        1..25,
    )
}

/// The file the crate writes, and each row's 1-based start line (the header is line 1).
fn write_csv(rows: &[[String; 3]]) -> (Vec<u8>, Vec<u64>) {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["puzzle", "note", "trace"]).unwrap();
    let mut lines = Vec::new();
    let mut line = 2;
    for r in rows {
        lines.push(line);
        w.write_record(r).unwrap();
        line += 1 + r.iter().map(|f| line_ends(f)).sum::<u64>();
    }
    (w.into_inner().unwrap(), lines)
}

/// Line ends in `text` as editors and `grep -n` count them: each `\n` (with the CRs right
/// before it), and each CR of a run that does not reach a `\n` (classic Mac OS line ends).
fn line_ends(text: &str) -> u64 {
    let b = text.as_bytes();
    let (mut n, mut i) = (0, 0);
    while i < b.len() {
        let run = b[i..].iter().take_while(|&&c| c == b'\r').count();
        if run > 0 {
            n += if b.get(i + run) == Some(&b'\n') {
                0
            } else {
                run as u64
            };
            i += run;
        } else {
            n += u64::from(b[i] == b'\n');
            i += 1;
        }
    }
    n
}

type Got = Vec<(u64, u64, Vec<Vec<u8>>)>;

fn read(path: &str, opts: &ReadOptions) -> Got {
    let mut data = Dataset::open(path, opts).unwrap();
    let mut all = Vec::new();
    let mut batch = Vec::new();
    loop {
        data.fill(&mut batch, 3).unwrap();
        if batch.is_empty() {
            break;
        }
        for r in &batch {
            let fields = r.fields.as_ref().unwrap().iter().map(<[u8]>::to_vec);
            all.push((r.record, r.line, fields.collect()));
        }
    }
    data.finish().unwrap();
    all
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        rng_seed: proptest::test_runner::RngSeed::Fixed(4180),
        ..ProptestConfig::default()
    })]

    #[test]
    fn csv_written_by_the_csv_crate_reads_back_the_same(rows in rows()) {
        let (bytes, lines) = write_csv(&rows);
        let want: Got = rows
            .iter()
            .zip(&lines)
            .enumerate()
            .map(|(i, (r, &l))| (i as u64, l, r.iter().map(|f| f.as_bytes().to_vec()).collect()))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("t.csv");
        std::fs::write(&plain, &bytes).unwrap();
        let gz = dir.path().join("t.csv.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&bytes).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let (plain, gz) = (plain.to_str().unwrap(), gz.to_str().unwrap());

        let mapped = ReadOptions::default();
        prop_assert_eq!(&read(plain, &mapped), &want, "mapped");
        for block in [16, 1 << 20] {
            let streamed = ReadOptions { mmap: false, block, ..ReadOptions::default() };
            prop_assert_eq!(&read(plain, &streamed), &want, "streamed, blocks of {}", block);
            prop_assert_eq!(&read(gz, &streamed), &want, "gzip, blocks of {}", block);
        }
        for count in [2, 3] {
            for (path, mmap) in [(plain, true), (plain, false), (gz, false)] {
                let mut joined = Vec::new();
                for index in 1..=count {
                    let opts = ReadOptions {
                        mmap,
                        block: 16,
                        shard: Some(Shard { index, count }),
                        ..ReadOptions::default()
                    };
                    joined.extend(read(path, &opts));
                }
                prop_assert_eq!(&joined, &want, "{} shards of {} (mmap {})", count, path, mmap);
            }
        }
    }
}
