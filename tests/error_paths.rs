//! Fatal errors as a new user meets them: a missing input, a full disk, a refused format, an
//! empty file name. Each must exit 2 with exactly one line on stderr naming the file, and
//! write nothing on stdout (no CSV header before the error).

mod common;

use common::{bin, P};
use std::path::Path;

/// Asserts a fatal run: exit 2, nothing on stdout, exactly one stderr line
/// `sudoku-batch: error: ...` that contains `needle` (the file, and what went wrong).
fn assert_fatal(args: &[&str], needle: &str) {
    let o = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err:?}");
    assert!(err.starts_with("sudoku-batch: error: "), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    assert!(
        o.stdout.is_empty(),
        "{args:?}: stdout: {:?}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// A one-puzzle input in `dir`.
fn input(dir: &Path) -> String {
    let p = dir.join("in.txt");
    std::fs::write(&p, format!("{P}\n")).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_missing_input_writes_no_header_before_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let ok = input(dir.path());
    let missing = "nope.txt: No such file";
    for args in [
        &["solve", "nope.txt"][..],
        &["canon", "nope.txt"],
        &["dedup", "nope.txt", "-o", "-"],
        &["rate", "nope.txt"],
        &["augment", "nope.txt"],
        &["overlap", "--train", "nope.txt", "--test", &ok],
        &["overlap", "--train", &ok, "--test", "nope.txt"],
    ] {
        assert_fatal(args, missing);
    }
}

#[test]
fn a_full_disk_names_the_output_it_filled() {
    if !Path::new("/dev/full").exists() {
        eprintln!("SKIPPED: /dev/full is absent here; the write-error messages were not tested");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let i = input(dir.path());
    let i = i.as_str();
    let full = "/dev/full";
    let cases: [(&[&str], &str); 10] = [
        (&["solve", "-q", i, "-o", full], "solutions"),
        (
            &["solve", "-q", i, "-o", "/dev/null", "--stats", full],
            "--stats",
        ),
        (
            &["solve", "-q", i, "-o", "/dev/null", "--report", full],
            "--report",
        ),
        (&["canon", "-q", i, "-o", full], "forms"),
        (
            &["canon", "-q", i, "-o", "/dev/null", "--stats", full],
            "--stats",
        ),
        (&["dedup", "-q", i, "-o", full], "kept records"),
        (
            &["dedup", "-q", i, "-o", "/dev/null", "--groups", full],
            "--groups",
        ),
        (
            &["overlap", "-q", "--train", i, "--test", i, "-o", full],
            "overlap rows",
        ),
        (&["rate", "-q", i, "-o", full], "rows"),
        (&["augment", "-q", i, "-o", full], "rows"),
    ];
    for (args, what) in cases {
        let needle = format!("/dev/full: cannot write {what}: No space left on device");
        assert_fatal(args, &needle);
    }
}

#[test]
fn an_empty_file_name_is_called_so() {
    let dir = tempfile::tempdir().unwrap();
    let i = input(dir.path());
    let i = i.as_str();
    for args in [
        &["solve", ""][..],
        &["canon", ""],
        &["rate", ""],
        &["verify", ""],
        &["overlap", "--train", i, "--test", ""],
        &["report", "merge", "m.json", ""],
    ] {
        assert_fatal(args, "error: '': empty file name");
    }
    for args in [
        &["solve", i, "-o", ""][..],
        &["solve", i, "-o", "/dev/null", "--stats", ""],
        &["canon", i, "-o", "/dev/null", "--stats", ""],
        &["dedup", i, "-o", ""],
    ] {
        let flag = args[args.len() - 2];
        assert_fatal(args, &format!("error: {flag} '': empty file name"));
    }
}

/// Without the `parquet` feature, a `.parquet` output is refused naming the file (as
/// `augment` did), before any record is written.
#[cfg(not(feature = "parquet"))]
#[test]
fn a_parquet_output_without_the_feature_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let i = input(dir.path());
    let out = dir.path().join("out.parquet");
    let out = out.to_str().unwrap();
    for cmd in ["solve", "canon", "augment", "rate"] {
        assert_fatal(&[cmd, "-q", &i, "-o", out], out);
        assert_fatal(&[cmd, "-q", &i, "-o", out], "this build writes no Parquet");
        assert!(!Path::new(out).exists(), "{cmd}");
    }
}
