//! Streams and compressed inputs (issue 10): compressed copies made here, in every codec,
//! of the committed samples and of two datasets of `../shared/data` give outputs
//! byte-identical to the plain file's (mapped, `--no-mmap` and standard input, on 1 and 2
//! threads); the report names each input's codec; shards of a stream are those of the mapped
//! file; a line over the 4 MiB cap is one invalid record, the same mapped or streamed; and a
//! property test checks that any file cut into shards, compressed (each codec in turn) or
//! read in small blocks yields the same records.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use common::{bin, stats_rows};
use proptest::prelude::*;
use sudoku_batch::input::{Dataset, ReadOptions, Shard};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt");
const SAMPLE_CSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample_kaggle.csv");
/// A puzzle (17 givens) for the files these tests write.
const PUZZLE: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

/// How many rows of `row` and a one-byte line end fill more than 5 MiB: past the readers'
/// 4 MiB line cap.
fn rows_past_the_line_cap(row: &str) -> usize {
    5 * (1 << 20) / (row.len() + 1) + 1
}

/// Compresses bytes with one codec.
type Compress = fn(&[u8]) -> Vec<u8>;

/// The codecs, by the name reports use, and a function compressing bytes with each.
fn codecs() -> Vec<(&'static str, Compress)> {
    vec![
        ("gzip", gzip),
        ("zstd", |b| zstd::encode_all(b, 3).unwrap()),
        ("xz", |b| {
            let mut w = liblzma::write::XzEncoder::new(Vec::new(), 6);
            w.write_all(b).unwrap();
            w.finish().unwrap()
        }),
        ("bzip2", |b| {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            w.write_all(b).unwrap();
            w.finish().unwrap()
        }),
        ("zip", |b| {
            let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            w.start_file("puzzles.txt", opts).unwrap();
            w.write_all(b).unwrap();
            w.finish().unwrap().into_inner()
        }),
    ]
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    w.write_all(b).unwrap();
    w.finish().unwrap()
}

/// The one line of a fatal error: exit 2, one line on stderr (`what` names the case).
fn fatal_line(o: &std::process::Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    err
}

/// Solutions, stats rows without the timing column, and the report of `solve` on `input`.
fn solve(
    input: &Path,
    flags: &[&str],
    stdin: bool,
) -> (Vec<u8>, Vec<Vec<String>>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let (out, stats, report) = (
        dir.path().join("out"),
        dir.path().join("stats.csv"),
        dir.path().join("r.json"),
    );
    let mut cmd = bin();
    cmd.args(["solve", "-q"]).args(flags);
    if stdin {
        cmd.arg("-").pipe_stdin(input).unwrap();
    } else {
        cmd.arg(input);
    }
    let a = cmd
        .arg("-o")
        .arg(&out)
        .arg("--stats")
        .arg(&stats)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&a.stderr);
    assert_eq!(a.status.code(), Some(0), "{}: {err}", input.display());
    let mut rows = stats_rows(&fs::read_to_string(&stats).unwrap());
    // The timing column (solve_ns) is the only one allowed to differ.
    let timing = 6;
    for r in &mut rows {
        r[timing].clear();
    }
    let report = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    (fs::read(&out).unwrap(), rows, report)
}

#[test]
fn compressed_copies_give_the_plain_files_outputs() {
    let dir = tempfile::tempdir().unwrap();
    for sample in [SAMPLE, SAMPLE_CSV] {
        let plain = fs::read(sample).unwrap();
        // A few hundred records keep the runs short; all of them go through every path.
        let cut: Vec<u8> = plain
            .split_inclusive(|&b| b == b'\n')
            .take(300)
            .flatten()
            .copied()
            .collect();
        let plain_path = dir.path().join(Path::new(sample).file_name().unwrap());
        fs::write(&plain_path, &cut).unwrap();
        let (out, stats, report) = solve(&plain_path, &["-j", "2"], false);
        assert_eq!(report["inputs"][0]["codec"], "none");
        assert_eq!(stats.len(), if sample == SAMPLE { 300 } else { 299 });
        for (name, compress) in codecs() {
            let path = dir.path().join(format!("in.{name}"));
            fs::write(&path, compress(&cut)).unwrap();
            for (flags, stdin) in [
                (&["-j", "1"][..], false),
                (&["-j", "2"], false),
                (&["-j", "2"], true),
            ] {
                let what = format!("{sample} as {name} {flags:?} stdin={stdin}");
                let (o, s, r) = solve(&path, flags, stdin);
                assert_eq!(o, out, "{what}: solutions");
                assert_eq!(s, stats, "{what}: stats");
                assert_eq!(r["inputs"][0]["codec"], name, "{what}");
            }
        }
        // --no-mmap and standard input read the plain file as a stream.
        for (flags, stdin) in [(&["--no-mmap"][..], false), (&[], true)] {
            let (o, s, _) = solve(&plain_path, flags, stdin);
            assert_eq!(
                (o, s),
                (out.clone(), stats.clone()),
                "{sample} {flags:?} {stdin}"
            );
        }
    }
}

/// UTF-16 text without a byte-order mark (`iconv -t UTF-16LE`) was read as bytes,
/// every record `invalid character '\0'` and one more invented from the last NUL. Copies in
/// UTF-16 LE and BE, with a BOM or without, give the plain file's outputs and fingerprint,
/// as a mapped file, through standard input and gzip-compressed.
#[test]
fn utf16_copies_with_or_without_a_bom_give_the_plain_files_outputs() {
    let dir = tempfile::tempdir().unwrap();
    for sample in [SAMPLE, SAMPLE_CSV] {
        let text = fs::read_to_string(sample).unwrap();
        let cut: String = text.split_inclusive('\n').take(40).collect();
        let plain_path = dir.path().join(Path::new(sample).file_name().unwrap());
        fs::write(&plain_path, &cut).unwrap();
        let (out, stats, report) = solve(&plain_path, &[], false);
        assert_eq!(stats.len(), if sample == SAMPLE { 40 } else { 39 });
        let sha = &report["inputs"][0]["content_sha256"];
        assert_eq!(sha.as_str().map(str::len), Some(64), "{report}");
        let units: Vec<u16> = cut.encode_utf16().collect();
        let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        let copies = [
            ("le", le.clone()),
            ("be", be.clone()),
            ("le-bom", [&[0xFF, 0xFE][..], &le].concat()),
            ("be-bom", [&[0xFE, 0xFF][..], &be].concat()),
        ];
        for (name, bytes) in copies {
            let path = dir.path().join(format!("in.{name}"));
            fs::write(&path, &bytes).unwrap();
            let gz = dir.path().join(format!("in.{name}.gz"));
            fs::write(&gz, gzip(&bytes)).unwrap();
            for (path, stdin) in [(&path, false), (&path, true), (&gz, false)] {
                let what = format!("{sample} as {} stdin={stdin}", path.display());
                let (o, s, r) = solve(path, &[], stdin);
                assert_eq!(o, out, "{what}: solutions");
                assert_eq!(s, stats, "{what}: stats");
                assert_eq!(&r["inputs"][0]["content_sha256"], sha, "{what}");
            }
        }
    }
}

/// Compressed copies, in every codec, of datasets from `../shared/data` give the plain
/// file's outputs byte for byte: the plain file mapped, read with `--no-mmap` and through
/// standard input, and each copy as a file and through standard input (issue 10). Two
/// modest datasets of different layouts keep it to seconds: the `top1465` lines file (hard
/// puzzles) and the Kaggle 9M sample CSV (`puzzle,solution`).
#[test]
fn compressed_copies_of_shared_datasets_give_the_plain_files_outputs() {
    let Some(data) = common::shared("data") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, records) in [("top1465.txt", 1465), ("kaggle_9m_sample.csv", 0)] {
        let plain = data.join(name);
        let (out, stats, report) = solve(&plain, &["-j", "2"], false);
        assert_eq!(report["inputs"][0]["codec"], "none", "{name}");
        if records > 0 {
            assert_eq!(stats.len(), records, "{name}");
        }
        // Real values, not only agreement: every record solved; on the lines file, every
        // solution checked against the rules and the givens.
        assert!(stats.iter().all(|r| r[2] == "solved"), "{name}");
        // One line per record, after a header row for CSV output.
        let header = usize::from(name.ends_with(".csv"));
        let out_lines = out.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(out_lines, stats.len() + header, "{name}");
        if records > 0 {
            let text = fs::read_to_string(&plain).unwrap();
            let puzzles = common::data_lines(&text);
            assert_eq!(puzzles.len(), records, "{name}");
            let solutions = String::from_utf8(out.clone()).unwrap();
            for ((line, p), s) in puzzles.iter().zip(solutions.lines()) {
                common::assert_solves(&p[..81], s, &format!("{name}:{line}"));
            }
        }
        for (flags, stdin) in [(&["-j", "2", "--no-mmap"][..], false), (&["-j", "2"], true)] {
            let (o, s, _) = solve(&plain, flags, stdin);
            assert!(o == out && s == stats, "{name} {flags:?} stdin={stdin}");
        }
        let bytes = fs::read(&plain).unwrap();
        for (codec, compress) in codecs() {
            let path = dir.path().join(format!("{name}.{codec}"));
            fs::write(&path, compress(&bytes)).unwrap();
            for stdin in [false, true] {
                let what = format!("{name} as {codec}, stdin={stdin}");
                let (o, s, r) = solve(&path, &["-j", "2"], stdin);
                assert!(o == out, "{what}: solutions differ");
                assert!(s == stats, "{what}: stats differ");
                assert_eq!(r["inputs"][0]["codec"], codec, "{what}");
            }
        }
    }
}

#[test]
fn multi_member_gzip_and_multi_frame_zstd_are_read_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let plain = fs::read(SAMPLE).unwrap();
    let plain_path = dir.path().join("plain.txt");
    fs::write(&plain_path, &plain).unwrap();
    let half = plain.len() / 2;
    let half = half + plain[half..].iter().position(|&b| b == b'\n').unwrap() + 1;
    let (a, b) = plain.split_at(half);
    let gz = [gzip(a), gzip(b)].concat();
    let zst = [
        zstd::encode_all(a, 1).unwrap(),
        zstd::encode_all(b, 1).unwrap(),
    ]
    .concat();
    let (out, _, _) = solve(&plain_path, &["--first"], false);
    for (name, bytes) in [("two.gz", gz), ("two.zst", zst)] {
        let path = dir.path().join(name);
        fs::write(&path, bytes).unwrap();
        let (o, _, r) = solve(&path, &["--first"], false);
        assert_eq!(r["records"], 2000, "{name}");
        assert_eq!(o, out, "{name}");
    }
}

/// A cut `.gz` said "incomplete deflate stream" and a cut `.xz` "premature eof";
/// each now says the file is corrupt or truncated, naming the codec.
#[test]
fn a_cut_compressed_input_is_called_corrupt_or_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let plain = fs::read(SAMPLE).unwrap();
    for (name, compress) in codecs() {
        if name == "zip" {
            continue;
        }
        let whole = compress(&plain);
        let path = dir.path().join(format!("cut.{name}"));
        fs::write(&path, &whole[..whole.len() / 2]).unwrap();
        let a = bin()
            .args(["solve", "-q", "-o", "-"])
            .arg(&path)
            .output()
            .unwrap();
        let err = fatal_line(&a, name);
        assert!(
            err.contains(&format!("cut.{name}"))
                && err.contains(&format!("corrupt or truncated {name} data (")),
            "{name}: {err}"
        );
    }
}

/// Bytes appended after a whole gzip member (junk, zero padding) were called
/// `corrupt or truncated gzip data (unexpected end of file)`; they are named as trailing
/// bytes now, still exit 2 with nothing written, while a cut member, or a second member
/// cut, is still corrupt or truncated.
#[test]
fn bytes_after_a_whole_gzip_member_are_called_trailing() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gzip(&fs::read(SAMPLE).unwrap());
    let cut_second = [&gz[..], &gz[..gz.len() / 2]].concat();
    for (name, bytes, why) in [
        (
            "junk.gz",
            [&gz[..], b"junk"].concat(),
            "trailing bytes after the gzip data",
        ),
        (
            "zeros.gz",
            [&gz[..], &[0; 20]].concat(),
            "trailing bytes after the gzip data",
        ),
        ("cut2.gz", cut_second, "corrupt or truncated gzip data ("),
    ] {
        let path = dir.path().join(name);
        fs::write(&path, bytes).unwrap();
        let out = dir.path().join("out.txt");
        let a = bin()
            .args(["solve", "-q", "-o"])
            .arg(&out)
            .arg(&path)
            .output()
            .unwrap();
        let err = fatal_line(&a, name);
        assert!(err.contains(name) && err.contains(why), "{name}: {err}");
        assert!(!out.exists(), "{name}: an output was committed");
    }
}

#[test]
fn a_corrupt_stream_or_a_shard_of_a_pipe_is_one_line_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gzip(&fs::read(SAMPLE).unwrap());
    let path = dir.path().join("cut.gz");
    fs::write(&path, &gz[..gz.len() / 2]).unwrap();
    let out = dir.path().join("out");
    let a = bin()
        .args(["solve", "-q"])
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = fatal_line(&a, "cut.gz");
    assert!(err.contains("cut.gz"), "{err}");
    assert!(!out.exists(), "no output is committed");
    let a = bin()
        .args(["solve", "-q", "--shard", "1/2", "-"])
        .pipe_stdin(SAMPLE)
        .unwrap()
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&a.stderr);
    assert_eq!(a.status.code(), Some(2), "{err}");
    assert!(err.contains("--shard needs a file"), "{err}");
}

/// An `.npz` this tool wrote, given as an input (a file or standard
/// input), is named for what it is, an output format, instead of a zip reader's reason.
#[test]
fn an_npz_input_is_called_an_output_format() {
    let dir = tempfile::tempdir().unwrap();
    let npz = dir.path().join("train_x8.npz");
    let o = bin()
        .args(["solve", "-q", SAMPLE, "-o"])
        .arg(&npz)
        .output()
        .unwrap();
    assert!(matches!(o.status.code(), Some(0 | 1)), "{o:?}");
    assert!(fs::read(&npz).unwrap().starts_with(b"PK\x03\x04"));
    let reason = ".npz is an output format, not an input; inputs are lines, CSV, JSON Lines";
    for (arg, name) in [(npz.to_str().unwrap(), "train_x8.npz"), ("-", "-: ")] {
        let o = bin()
            .args(["solve", "-q", "-o", "-", arg])
            .pipe_stdin(&npz)
            .unwrap()
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{arg}: {err}");
        assert_eq!(err.lines().count(), 1, "{arg}: {err}");
        assert!(err.contains(name) && err.contains(reason), "{arg}: {err}");
        assert!(o.stdout.is_empty(), "{arg}: nothing written");
    }
}

/// UTF-32 text (`iconv -t UTF-32`) was taken for UTF-16, its header read as
/// `"\0q\0u\0i..."` with a hint to choose a puzzle column. It is refused in one line that
/// names it and how to convert it, from a file (mapped or read), compressed or on standard
/// input, in either byte order; UTF-16 is still read.
#[test]
fn utf32_text_is_refused_in_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(SAMPLE).unwrap();
    let cut: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    let le: Vec<u8> = cut.chars().flat_map(|c| (c as u32).to_le_bytes()).collect();
    let be: Vec<u8> = cut.chars().flat_map(|c| (c as u32).to_be_bytes()).collect();
    let bom_le = [&[0xFF, 0xFE, 0, 0][..], &le].concat();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &bom_le).unwrap();
    let gz = gz.finish().unwrap();
    let files = [
        ("le.txt", le, "UTF-32LE"),
        ("be.txt", be, "UTF-32BE"),
        ("bom.txt", bom_le, "UTF-32LE"),
        ("bom.txt.gz", gz, "UTF-32LE"),
    ];
    for (name, bytes, flavour) in files {
        let path = dir.path().join(name);
        fs::write(&path, &bytes).unwrap();
        let p = path.to_str().unwrap();
        for args in [
            &["verify", p][..],
            &["solve", "--no-mmap", p],
            &["verify", "-"],
        ] {
            let o = bin()
                .args(args)
                .write_stdin(bytes.clone())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            let want = format!("{flavour} text (UTF-32) is not supported: convert it to UTF-8");
            assert!(err.contains(&want), "{args:?}: {err}");
            assert!(
                err.contains(&format!("iconv -f {flavour} -t UTF-8")),
                "{err}"
            );
        }
    }
}

/// `(record, line, puzzle or error text)` of every record of `path` read with `opts`.
/// The options that map a plain regular file (the command line's default; the library's
/// reads it as a stream), which the streamed reads here are compared against.
fn map_opts() -> ReadOptions {
    ReadOptions {
        mmap: true,
        ..ReadOptions::default()
    }
}

fn records(path: &Path, opts: &ReadOptions) -> Vec<(u64, u64, String)> {
    let mut data = Dataset::open(path.to_str().unwrap(), opts).unwrap();
    data.number_from(7);
    let mut all = Vec::new();
    let mut batch = Vec::new();
    loop {
        data.fill(&mut batch, 5).unwrap();
        if batch.is_empty() {
            break;
        }
        for r in &batch {
            let text = match &r.puzzle {
                Ok(g) => g.to_string(),
                Err(e) => e.to_string(),
            };
            all.push((r.record, r.line, text));
        }
    }
    let done = data.finish().unwrap();
    all.push((done.next_record, 0, "next".to_string()));
    all
}

/// Lines that look like a puzzle file: puzzles, bad lines, comments, blanks, CRLF.
fn puzzle_file() -> impl Strategy<Value = Vec<u8>> {
    let p = PUZZLE;
    let line = prop_oneof![
        4 => Just(p.to_string()),
        1 => Just(p[..80].to_string()),
        1 => Just("# comment".to_string()),
        1 => Just(String::new()),
        1 => Just(format!("{p}\r")),
        1 => "[0-9.]{0,90}",
    ];
    (prop::collection::vec(line, 0..60), any::<bool>()).prop_map(|(lines, last_newline)| {
        let mut text = lines.join("\n");
        if last_newline {
            text.push('\n');
        }
        text.into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn shards_compression_and_small_blocks_yield_the_same_records(
        bytes in puzzle_file(),
        count in 1u32..5,
        block in 1usize..300,
        codec in 0usize..5,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let plain: PathBuf = dir.path().join("p.txt");
        fs::write(&plain, &bytes).unwrap();
        // Each codec in turn (gzip, zstd, xz, bzip2, zip), made here.
        let (name, compress) = codecs()[codec];
        let gz = dir.path().join(format!("p.{name}"));
        fs::write(&gz, compress(&bytes)).unwrap();
        let whole = records(&plain, &map_opts());
        let mut joined = Vec::new();
        for index in 1..=count {
            let shard = Some(Shard { index, count });
            let mapped = records(&plain, &ReadOptions { shard, ..map_opts() });
            for (path, mmap) in [(&plain, false), (&gz, true)] {
                let opts = ReadOptions { shard, mmap, block, ..map_opts() };
                prop_assert_eq!(&records(path, &opts), &mapped, "shard {}/{}", index, count);
            }
            joined.extend_from_slice(&mapped[..mapped.len() - 1]);
            prop_assert_eq!(&mapped[mapped.len() - 1], &whole[whole.len() - 1]);
        }
        prop_assert_eq!(&joined[..], &whole[..whole.len() - 1]);
    }
}

/// A CSV with a header ended by LF and rows ended by LF, CRLF or a lone CR (classic Mac
/// OS), with blank lines, comments and bad rows among them.
fn csv_file() -> impl Strategy<Value = Vec<u8>> {
    let p = PUZZLE;
    let row = prop_oneof![
        4 => Just(format!("{p},x")),
        1 => Just(format!("{},x", &p[..80])),
        1 => Just("# comment".to_string()),
        1 => Just(String::new()),
        1 => "[0-9.]{0,90}",
    ];
    let end = prop_oneof![
        Just("\n"),
        Just("\r\n"),
        Just("\r"),
        Just("\r\r\n"),
        Just("\r\r")
    ];
    prop::collection::vec((row, end), 0..60).prop_map(|rows| {
        let mut text = String::from("puzzle,note\n");
        for (row, end) in rows {
            text.push_str(&row);
            text.push_str(end);
        }
        text.into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Lone CR line ends: the shards of a CSV are cut between its rows (their records
    /// joined are the whole file's, numbered alike), and a stream read in small blocks
    /// gives the mapped file's records.
    #[test]
    fn csv_with_lone_cr_line_ends_cuts_shards_and_blocks_between_rows(
        bytes in csv_file(),
        count in 1u32..5,
        block in 1usize..300,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let plain: PathBuf = dir.path().join("p.csv");
        fs::write(&plain, &bytes).unwrap();
        let whole = records(&plain, &map_opts());
        let mut joined = Vec::new();
        for index in 1..=count {
            let shard = Some(Shard { index, count });
            let mapped = records(&plain, &ReadOptions { shard, ..map_opts() });
            let opts = ReadOptions { shard, mmap: false, block, ..map_opts() };
            prop_assert_eq!(&records(&plain, &opts), &mapped, "shard {}/{}", index, count);
            joined.extend_from_slice(&mapped[..mapped.len() - 1]);
        }
        prop_assert_eq!(&joined[..], &whole[..whole.len() - 1]);
    }
}

/// A doubled CR before the LF (`\r\r\n`, a CRLF converted twice) was
/// two line ends in a CSV, as the `csv` crate reads it, so every later row's line was one
/// further off than `grep -n` or an editor shows. CRs that run up to a `\n` are now that
/// one line end, mapped, streamed in small blocks and in every shard; a lone CR before
/// other text still ends a line.
#[test]
fn crs_doubled_before_a_newline_end_one_csv_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crcrlf.csv");
    let p = PUZZLE;
    let text = format!("puzzle,note\r\n{p},a\r\r\n{p},b\r\r\r\nbad,c\r\n{p},d\r{p},e\r\r\nbad,f\n");
    fs::write(&path, text).unwrap();
    let lines = |opts: &ReadOptions| -> Vec<u64> {
        let rows = records(&path, opts);
        rows[..rows.len() - 1].iter().map(|r| r.1).collect()
    };
    // As `grep -n` numbers them, and the lone CR after row `d` ends line 5.
    let want = vec![2, 3, 4, 5, 6, 7];
    assert_eq!(lines(&map_opts()), want);
    for block in [1, 3, 7, 64] {
        let opts = ReadOptions {
            mmap: false,
            block,
            ..map_opts()
        };
        assert_eq!(lines(&opts), want, "block {block}");
    }
    for count in 2..=4 {
        let mut joined = Vec::new();
        for index in 1..=count {
            let shard = Some(Shard { index, count });
            joined.extend(lines(&ReadOptions {
                shard,
                ..map_opts()
            }));
        }
        assert_eq!(joined, want, "{count} shards");
    }
    let out = bin().args(["solve", "-q"]).arg(&path).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("crcrlf.csv:4: puzzle: 3 characters"), "{err}");
    assert!(err.contains("crcrlf.csv:7: puzzle: 3 characters"), "{err}");
}

/// A lines file whose first line holds lone CRs (no `\n`) for more than
/// the 4 MiB line cap, read as a stream: the first block was cut at a lone CR before the
/// layout was known (CSV rows, it seemed), so the line became two records and every later
/// line was one further off than `grep -n` and the mapped file say. The stream now reads it
/// as the mapped file does: one line over the cap, and the next lines at their numbers.
#[test]
fn a_stream_of_lines_with_lone_crs_past_the_line_cap_keeps_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cr.txt");
    let p = PUZZLE;
    let rows = rows_past_the_line_cap(p);
    fs::write(
        &path,
        format!("{}\nbad\n{p}\n", format!("{p}\r").repeat(rows)),
    )
    .unwrap();
    let mapped = records(&path, &map_opts());
    let lines: Vec<u64> = mapped.iter().map(|r| r.1).collect();
    assert_eq!(lines, [1, 2, 3, 0], "{:?}", &mapped[1..]);
    assert!(
        mapped[0].2.contains("more than 4194304 bytes"),
        "{}",
        mapped[0].2
    );
    let streamed = records(
        &path,
        &ReadOptions {
            mmap: false,
            ..map_opts()
        },
    );
    assert_eq!(streamed, mapped);
}

/// A CSV whose rows all end in a lone CR, larger than the 4 MiB line cap, read as a stream:
/// its blocks were cut only at `\n`, so it was taken for one line over the cap and every
/// row after the first 4 MiB was lost. It gives the mapped file's records.
#[test]
fn a_stream_of_a_csv_with_only_lone_cr_line_ends_loses_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cr.csv");
    let row = PUZZLE;
    let rows = rows_past_the_line_cap(row);
    fs::write(&path, format!("{row}\r").repeat(rows)).unwrap();
    let layout = sudoku_batch::input::LayoutOptions {
        no_header: true,
        ..Default::default()
    };
    let mapped = records(
        &path,
        &ReadOptions {
            layout: layout.clone(),
            ..map_opts()
        },
    );
    assert_eq!(
        mapped.len(),
        rows + 1,
        "every row, and the next record number"
    );
    let streamed = records(
        &path,
        &ReadOptions {
            layout,
            mmap: false,
            ..map_opts()
        },
    );
    assert!(streamed == mapped, "streamed: {} records", streamed.len());
}

/// The SHA-256 that `finish` reports for `path` read with `opts`.
fn sha256(path: &Path, opts: &ReadOptions) -> Option<String> {
    let opts = ReadOptions {
        hash: true,
        ..opts.clone()
    };
    let mut data = Dataset::open(path.to_str().unwrap(), &opts).unwrap();
    let mut batch = Vec::new();
    loop {
        data.fill(&mut batch, 64).unwrap();
        if batch.is_empty() {
            break;
        }
    }
    data.finish().unwrap().sha256
}

#[test]
fn issue10_a_line_over_the_cap_is_one_invalid_record_and_reading_goes_on() {
    use sudoku_batch::input::record::MAX_LINE;
    let p = common::P;
    let huge = |b: u8| vec![b; MAX_LINE + 1000];
    let dir = tempfile::tempdir().unwrap();
    for csv in [false, true] {
        let mut bytes: Vec<u8> = Vec::new();
        if csv {
            bytes.extend_from_slice(b"puzzle,solution\n");
        }
        for (i, long) in [
            huge(b'1'),
            [b"# ".to_vec(), huge(b'c')].concat(),
            huge(b'2'),
        ]
        .into_iter()
        .enumerate()
        {
            bytes.extend_from_slice(format!("{p},{}\n", common::S).as_bytes());
            bytes.extend_from_slice(&long);
            // The last long line ends the input without a line end.
            if i < 2 {
                bytes.push(b'\n');
            }
        }
        let plain = dir.path().join(if csv { "long.csv" } else { "long.txt" });
        fs::write(&plain, &bytes).unwrap();
        let gz = dir.path().join("long.gz");
        fs::write(&gz, gzip(&bytes)).unwrap();
        let whole = records(&plain, &map_opts());
        let too_long = format!("a line of more than {MAX_LINE} bytes: not read");
        let h = u64::from(csv);
        let expect = [
            (7, 1 + h, p.to_string()),
            (8, 2 + h, too_long.clone()),
            (9, 3 + h, p.to_string()),
            // The comment line of 4 MiB is skipped, not counted.
            (10, 5 + h, p.to_string()),
            (11, 6 + h, too_long),
            (12, 0, "next".to_string()),
        ];
        // The puzzle text is normalised by Display ('.' blanks), so compare after that.
        let norm: Vec<(u64, u64, String)> = expect
            .iter()
            .map(|(r, l, t)| {
                let t = sudoku_batch::grid::parse_cells(t.as_bytes())
                    .map_or(t.clone(), |g| g.to_string());
                (*r, *l, t)
            })
            .collect();
        assert_eq!(whole, norm, "csv {csv}");
        let sha = sha256(&plain, &map_opts());
        for (path, block) in [(&plain, 1000), (&plain, 1 << 20), (&gz, 4096)] {
            let opts = ReadOptions {
                mmap: false,
                block,
                ..map_opts()
            };
            assert_eq!(
                records(path, &opts),
                whole,
                "csv {csv} {path:?} block {block}"
            );
            assert_eq!(sha256(path, &opts), sha, "csv {csv} {path:?} block {block}");
            // Shards of the stream are those of the map, whatever cut falls in a long line.
            for index in 1..=3 {
                let shard = Some(Shard { index, count: 3 });
                let mapped = records(
                    &plain,
                    &ReadOptions {
                        shard,
                        ..map_opts()
                    },
                );
                let streamed = records(
                    path,
                    &ReadOptions {
                        shard,
                        ..opts.clone()
                    },
                );
                assert_eq!(streamed, mapped, "csv {csv} {path:?} shard {index}/3");
            }
        }
    }
}
