//! The `r3_*` cases of `../shared/cases/inputs` (public reports replayed), with the outcomes
//! `../shared/cases/EXPECTED.md` gives in its section "Round 3": each read memory-mapped,
//! with `--no-mmap` and from standard input, on 1 and 2 threads. Skipped, with a note, when
//! `../shared` is absent.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_solves, bin, shared, stats_rows};

fn case(name: &str) -> Option<PathBuf> {
    shared("cases/inputs").map(|d| d.join(name))
}

/// How a run reads its input.
#[derive(Clone, Copy, Debug)]
enum Via {
    Mapped,
    NoMmap,
    Stdin,
}

/// One `solve` run: exit code, `--stats` rows (`record,line,status,...`), the output's
/// text and standard error.
struct Run {
    code: i32,
    stats: Vec<Vec<String>>,
    out: String,
    err: String,
}

fn solve(file: &Path, via: Via, threads: &str, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.csv");
    let out = dir.path().join("out");
    let mut cmd = bin();
    cmd.args(["solve", "-q", "-j", threads]).args(extra);
    match via {
        Via::Mapped => cmd.arg(file),
        Via::NoMmap => cmd.arg("--no-mmap").arg(file),
        Via::Stdin => cmd.arg("-").pipe_stdin(file).unwrap(),
    };
    let o = cmd
        .arg("-o")
        .arg(&out)
        .arg("--stats")
        .arg(&stats)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    Run {
        code: o.status.code().unwrap(),
        stats: std::fs::read_to_string(&stats)
            .map(|t| stats_rows(&t))
            .unwrap_or_default(),
        out: std::fs::read_to_string(&out).unwrap_or_default(),
        err,
    }
}

/// Every way of reading `file`: mapped, `--no-mmap` and standard input, on 1 and 2 threads.
fn every_way(file: &Path, extra: &[&str], check: impl Fn(&Run, &str)) {
    for via in [Via::Mapped, Via::NoMmap, Via::Stdin] {
        for threads in ["1", "2"] {
            let run = solve(file, via, threads, extra);
            check(&run, &format!("{via:?}, {threads} threads"));
        }
    }
}

/// The CSV output's rows as the `csv` crate reads them (strict: every row as wide as the
/// header).
fn csv_rows(text: &str) -> Vec<csv::StringRecord> {
    let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    rdr.records().map(Result::unwrap).collect()
}

/// R3-09: quoted fields holding line breaks (a solution trace) are read as RFC 4180 and
/// Python's `csv` read them: 4 rows, solved, on the lines they start on, their traces copied
/// whole into the output; `verify` reads the solutions.
#[test]
fn r3_09_multiline_quoted_fields_are_rows_not_junk() {
    let Some(file) = case("r3_09_solution_trace_multiline.csv") else {
        return;
    };
    let input = csv_rows(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(input.len(), 4);
    every_way(&file, &[], |run, how| {
        assert_eq!(run.code, 0, "{how}: {}", run.err);
        let lines: Vec<&str> = run.stats.iter().map(|r| r[1].as_str()).collect();
        assert_eq!(lines, ["2", "6", "10", "14"], "{how}");
        assert!(run.stats.iter().all(|r| r[2] == "solved"), "{how}");
        let out = csv_rows(&run.out);
        assert_eq!(out.len(), 4, "{how}");
        for (o, i) in out.iter().zip(&input) {
            assert_eq!(&o[2], &i[2], "{how}: the trace is copied whole");
            assert_solves(&i[0], &o[3], how);
        }
    });
    let v = bin().arg("verify").arg(&file).output().unwrap();
    let err = String::from_utf8_lossy(&v.stderr);
    assert_eq!(v.status.code(), Some(0), "{err}");
    assert!(err.contains("4 rows: 4 ok"), "{err}");
}

/// Runs `sudoku-batch solve` on `file` (or standard input) with `extra`: exit code and
/// standard error.
fn refused(file: &Path, stdin: bool, extra: &[&str]) -> (i32, String) {
    let mut cmd = bin();
    cmd.args(["solve", "-q", "-o", "-"]).args(extra);
    match stdin {
        true => cmd.arg("-").pipe_stdin(file).unwrap(),
        false => cmd.arg(file),
    };
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    (o.status.code().unwrap(), err)
}

/// R3-04b and R3-05: a zip of three splits and a `.tar.gz` of two are refused (exit 2),
/// naming their data members and `--member`, never merged; `--member` reads one, by its path
/// or its file name, as its own CSV.
#[test]
fn r3_04b_r3_05_archives_of_several_files_are_refused_naming_them() {
    let (Some(zip), Some(tgz)) = (
        case("r3_04b_rrn_style_three_splits.zip"),
        case("r3_05_dataset_splits.tar.gz"),
    ) else {
        return;
    };
    for (file, members) in [
        (
            &zip,
            &["sudoku-hard/train.csv", "sudoku-hard/valid.csv", "sudoku-hard/test.csv"][..],
        ),
        (&tgz, &["sudoku/train.csv", "sudoku/test.csv"][..]),
    ] {
        for stdin in [false, true] {
            let (code, err) = refused(file, stdin, &[]);
            assert_eq!(code, 2, "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("--member"), "{err}");
            // Read as it comes, an archive is refused at its second data member.
            let named = if stdin { &members[..2] } else { members };
            for m in named {
                assert!(err.contains(m), "{m}: {err}");
            }
        }
        let (code, err) = refused(file, false, &["--member", "nothing.csv"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("no such member"), "{err}");
    }
    // One member, by its file name or its path, mapped or from standard input: its rows,
    // solved, as the `tar` crate and `csv` crate read the member independently.
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(&tgz).unwrap(),
    ));
    let mut test_csv = String::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.path().unwrap().ends_with("test.csv") {
            std::io::Read::read_to_string(&mut entry, &mut test_csv).unwrap();
        }
    }
    let want = csv_rows(&test_csv);
    assert!(!want.is_empty());
    for (via, member) in [(Via::Mapped, "test.csv"), (Via::Stdin, "sudoku/test.csv")] {
        let run = solve(&tgz, via, "2", &["--member", member]);
        assert_eq!(run.code, 0, "{}", run.err);
        let out = csv_rows(&run.out);
        assert_eq!(out.len(), want.len());
        for (o, w) in out.iter().zip(&want) {
            assert_eq!(&o[0], &w[0]);
            assert_solves(&w[0], &o[2], member);
        }
    }
}

/// A zip or a tar whose other entries are directories or macOS metadata holds one data
/// file, and is read as it.
#[test]
fn an_archive_of_one_data_file_beside_os_metadata_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("puzzle\n{}\n", common::P);
    let mut z = zip::ZipWriter::new(std::fs::File::create(dir.path().join("a.zip")).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    z.add_directory("data/", opts).unwrap();
    for (name, body) in [
        ("__MACOSX/data/._p.csv", "mac"),
        ("data/.DS_Store", "ds"),
        ("data/p.csv", text.as_str()),
    ] {
        z.start_file(name, opts).unwrap();
        std::io::Write::write_all(&mut z, body.as_bytes()).unwrap();
    }
    z.finish().unwrap();
    let mut t = tar::Builder::new(Vec::new());
    for (name, body) in [("data/._p.csv", "mac"), ("data/p.csv", text.as_str())] {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        t.append_data(&mut h, name, body.as_bytes()).unwrap();
    }
    std::fs::write(dir.path().join("a.tar"), t.into_inner().unwrap()).unwrap();
    for name in ["a.zip", "a.tar"] {
        for via in [Via::Mapped, Via::Stdin] {
            let run = solve(&dir.path().join(name), via, "1", &[]);
            assert_eq!(run.code, 0, "{name}: {}", run.err);
            assert_eq!(run.stats.len(), 1, "{name}");
            assert_eq!(run.stats[0][2], "solved");
        }
    }
}
