//! The `r3_*` cases of `../shared/cases/inputs` (public reports replayed), with the outcomes
//! `../shared/cases/EXPECTED.md` gives in its section "Round 3" (the third batch of reports): each read memory-mapped,
//! with `--no-mmap` and from standard input, on 1 and 2 threads. Skipped, with a note, when
//! `../shared` is absent.

use crate::common;

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
            &[
                "sudoku-hard/train.csv",
                "sudoku-hard/valid.csv",
                "sudoku-hard/test.csv",
            ][..],
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

/// R3-02: HoDoKu library lines: the puzzle field is read (`+d`, a placed digit, as a
/// given), never `0 characters`; `verify` finds no stored solution in them.
#[test]
fn r3_02_hodoku_library_lines_read_the_puzzle_field() {
    let Some(file) = case("r3_02_hodoku_library_lines.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&file).unwrap();
    // The puzzle as HoDoKu writes it: field 3 of `:type:technique:puzzle:...`, `+` dropped.
    let puzzles: Vec<String> = text
        .lines()
        .map(|l| match l.strip_prefix(':') {
            Some(rest) => rest.split(':').nth(2).unwrap().replace('+', ""),
            None => l.to_string(),
        })
        .collect();
    every_way(&file, &[], |run, how| {
        assert_eq!(run.code, 0, "{how}: {}", run.err);
        assert_eq!(run.stats.len(), puzzles.len(), "{how}");
        assert!(run.stats.iter().all(|r| r[2] == "solved"), "{how}");
        for (p, s) in puzzles.iter().zip(run.out.lines()) {
            assert_solves(p, s, how);
        }
    });
    let v = bin().arg("verify").arg(&file).output().unwrap();
    let err = String::from_utf8_lossy(&v.stderr);
    assert!(err.contains("no stored solutions"), "{err}");
    assert!(
        !err.contains("rejected") || err.contains("0 rejected"),
        "{err}"
    );
}

/// R3-03: Excel's `sep=;` first line is skipped and names the delimiter; `--delimiter ';'`
/// reads it too.
#[test]
fn r3_03_excel_sep_line_names_the_delimiter() {
    let Some(file) = case("r3_03_excel_sep_line.csv") else {
        return;
    };
    let text = std::fs::read_to_string(&file).unwrap();
    let want: Vec<Vec<String>> = text
        .lines()
        .skip(2)
        .map(|l| l.trim_end().split(';').map(String::from).collect())
        .collect();
    for extra in [&[][..], &["--delimiter", ";"]] {
        every_way(&file, extra, |run, how| {
            assert_eq!(run.code, 0, "{how}: {}", run.err);
            let lines: Vec<&str> = run.stats.iter().map(|r| r[1].as_str()).collect();
            assert_eq!(lines, ["3", "4", "5", "6"], "{how}");
            let out: Vec<Vec<String>> = run
                .out
                .lines()
                .skip(1)
                .map(|l| l.split(';').map(String::from).collect())
                .collect();
            assert_eq!(out.len(), want.len(), "{how}");
            for (o, w) in out.iter().zip(&want) {
                assert_solves(&w[0], &o[2], how);
                assert_eq!(o[2], w[1], "{how}: the stored solution");
            }
        });
    }
}

/// R3-06: lists joined with `cat`, each starting with a BOM: 8 solved, the comment after a
/// BOM skipped.
#[test]
fn r3_06_a_bom_at_the_start_of_any_line_is_dropped() {
    let Some(file) = case("r3_06_cat_merged_bom_lists.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&file).unwrap();
    let puzzles: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            (
                i + 1,
                l.trim_start_matches('\u{feff}').trim_end().to_string(),
            )
        })
        .filter(|(_, l)| !l.starts_with('#'))
        .collect();
    assert_eq!(puzzles.len(), 8);
    every_way(&file, &[], |run, how| {
        assert_eq!(run.code, 0, "{how}: {}", run.err);
        let lines: Vec<String> = run.stats.iter().map(|r| r[1].clone()).collect();
        let want: Vec<String> = puzzles.iter().map(|(l, _)| l.to_string()).collect();
        assert_eq!(lines, want, "{how}");
        for ((_, p), s) in puzzles.iter().zip(run.out.lines()) {
            assert_solves(p, s, how);
        }
    });
}

/// R3-11: a `.json` array of records is refused in one line naming it and `jq -c '.[]'`,
/// never read as 30 line records.
#[test]
fn r3_11_a_json_array_is_refused_with_the_conversion() {
    let Some(file) = case("r3_11_json_array_records.json") else {
        return;
    };
    for stdin in [false, true] {
        let (code, err) = refused(&file, stdin, &[]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("array of records") && err.contains("jq -c '.[]'"),
            "{err}"
        );
    }
}

/// R3-10: re-running one task of a Slurm array (`--array=3` after `--array=1-4`): `--shard
/// auto` alone is refused saying how to give N; with `--shard-count 4` it reads shard 3/4,
/// says so and records it; the four shards joined hold each row once, as the whole run.
#[test]
fn r3_10_a_rerun_slurm_task_reads_its_shard_of_the_first_run() {
    let Some(file) = case("r3_10_slurm_rerun_9m.csv") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &str)], extra: &[&str], tag: &str| {
        let out = dir.path().join(format!("{tag}.csv"));
        let report = dir.path().join(format!("{tag}.json"));
        let mut cmd = bin();
        for v in [
            "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN",
            "SLURM_ARRAY_TASK_MAX",
        ] {
            cmd.env_remove(v);
        }
        let o = cmd
            .env_remove("SLURM_ARRAY_TASK_COUNT")
            .env_remove("SLURM_ARRAY_TASK_STEP")
            .env_remove("JOB_COMPLETION_INDEX")
            .envs(env.iter().copied())
            .args(["solve", "-q", "-j", "2"])
            .arg(&file)
            .args(extra)
            .arg("-o")
            .arg(&out)
            .arg("--report")
            .arg(&report)
            .output()
            .unwrap();
        let shard = std::fs::read_to_string(&report)
            .ok()
            .map(|t| serde_json::from_str::<serde_json::Value>(&t).unwrap()["shard"].clone());
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        (o.status.code(), shard, text, err)
    };
    let rerun = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "3"),
        ("SLURM_ARRAY_TASK_MAX", "3"),
        ("SLURM_ARRAY_TASK_COUNT", "1"),
    ];
    let (code, _, _, err) = run(&rerun, &["--shard", "auto"], "alone");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--shard-count N to read shard 3 of N"),
        "{err}"
    );
    let (_, _, whole, _) = run(&[], &[], "whole");
    let mut joined = String::new();
    for k in 1..=4 {
        let id = k.to_string();
        let (code, shard, text, err) = if k == 3 {
            run(&rerun, &["--shard", "auto", "--shard-count", "4"], "k3")
        } else {
            let full = [
                ("SLURM_ARRAY_TASK_ID", id.as_str()),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "4"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ];
            run(&full, &["--shard", "auto"], &format!("k{k}"))
        };
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(shard, Some(format!("{k}/4").into()), "{err}");
        assert!(err.contains(&format!("--shard auto: shard {k}/4")), "{err}");
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        if k == 1 {
            joined.push_str(header);
            joined.push('\n');
        }
        for l in lines {
            joined.push_str(l);
            joined.push('\n');
        }
    }
    assert_eq!(
        joined, whole,
        "the four shards joined are the whole run, each row once"
    );
}
