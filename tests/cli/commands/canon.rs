//! `canon`, `dedup` and `overlap` end to end (issue 12): files with planted exact and
//! isomorphic copies, made here, must give exactly the planted ones. Puzzles come from
//! `../shared/data/17_clue.txt`, whose 49,158 puzzles are pairwise non-isomorphic (a fact
//! of the collection, not of our code); skipped with a note when `../shared` is absent.

use crate::common;

use std::path::Path;

use common::{bin, data_lines, shared};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoku_batch::canon::minlex;
use sudoku_batch::grid::{parse_cells, Grid};
use sudoku_batch::isomorph::Isomorph;
use sudoku_batch::solver::solve;

/// The first `n` 17-clue puzzles, or `None` without `../shared`.
fn clue17(n: usize) -> Option<Vec<Grid>> {
    let dir = shared("data")?;
    let text = std::fs::read_to_string(dir.join("17_clue.txt")).unwrap();
    Some(
        data_lines(&text)
            .iter()
            .take(n)
            .map(|(_, l)| parse_cells(&l.as_bytes()[..81]).unwrap())
            .collect(),
    )
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// `g` with `0` blanks: the same puzzle as `g.to_string()` in other characters.
fn zeros(g: &Grid) -> String {
    g.0.iter().map(|&d| char::from(b'0' + d)).collect()
}

#[test]
fn canon_gives_each_line_its_form_and_invalid_for_a_non_puzzle() {
    let Some(ps) = clue17(50) else { return };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let mut lines: Vec<String> = ps.iter().map(Grid::to_string).collect();
    lines.insert(7, "12345".into());
    let clash = format!("11{}", &ps[0].to_string()[2..]);
    lines.insert(20, clash);
    write_lines(&input, &lines);
    let out = bin().args(["canon", "-q"]).arg(&input).assert().code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got.len(), 52);
    assert_eq!((got[7], got[20]), ("invalid", "invalid"));
    let forms: Vec<&str> = got.iter().copied().filter(|l| *l != "invalid").collect();
    for (p, f) in ps.iter().zip(forms) {
        assert_eq!(f, minlex(p).to_string());
        assert_eq!(parse_cells(f.as_bytes()).unwrap().clues(), 17);
    }
}

#[test]
fn canon_keeps_csv_columns_and_adds_minlex() {
    let Some(ps) = clue17(3) else { return };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    let rows: Vec<String> = ps
        .iter()
        .enumerate()
        .map(|(i, p)| format!("id{i},{p},x"))
        .collect();
    std::fs::write(&input, format!("id,puzzle,note\n{}\n", rows.join("\n"))).unwrap();
    let out = bin().args(["canon", "-q"]).arg(&input).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("id,puzzle,note,minlex"));
    for (i, (line, p)) in lines.zip(&ps).enumerate() {
        assert_eq!(line, format!("id{i},{p},x,{}", minlex(p)));
    }
    // `--output-format csv` wrote the per-record table here while a `.csv`
    // name wrote these columns; a flag that agrees with the extension must not change the
    // output, so both give the input's columns plus `minlex`, as `solve` does.
    let flagged = bin()
        .args(["canon", "-q", "--output-format", "csv"])
        .arg(&input)
        .assert()
        .success();
    assert_eq!(String::from_utf8_lossy(&flagged.get_output().stdout), text);
    let named = dir.path().join("named.csv");
    bin()
        .args(["canon", "-q", "-o"])
        .arg(&named)
        .arg(&input)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&named).unwrap(), text);
    // On its own output (a CSV with a `minlex` column), canon names
    // the added column as `solve` does, `minlex_2`, and gives the same forms again.
    let first = dir.path().join("first.csv");
    std::fs::write(&first, &text).unwrap();
    let out = bin().args(["canon", "-q"]).arg(&first).assert().success();
    let again = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let mut lines = again.lines();
    assert_eq!(lines.next(), Some("id,puzzle,note,minlex,minlex_2"));
    for (i, (line, p)) in lines.zip(&ps).enumerate() {
        let m = minlex(p);
        assert_eq!(line, format!("id{i},{p},x,{m},{m}"));
    }
    assert_eq!(again.lines().count(), 1 + ps.len());
}

/// A file of 300 distinct 17-clue puzzles with planted copies: exact copies written with
/// `0` blanks, and random isomorphs. Returns the lines and, for each planted line (0-based),
/// the line it copies and whether it is exact.
fn planted(ps: &[Grid], rng: &mut ChaCha8Rng) -> (Vec<String>, Vec<(usize, usize, bool)>) {
    let mut lines: Vec<String> = ps.iter().map(Grid::to_string).collect();
    let mut origin: Vec<usize> = (0..ps.len()).collect();
    let mut plants = Vec::new();
    for k in 0..60 {
        let src = rng.random_range(0..ps.len());
        // After the original, wherever it now stands.
        let at_src = origin.iter().position(|&o| o == src).unwrap();
        let at = rng.random_range(at_src + 1..=lines.len());
        let exact = k % 2 == 0;
        let text = if exact {
            zeros(&ps[src])
        } else {
            Isomorph::random(rng).apply(&ps[src]).to_string()
        };
        lines.insert(at, text);
        origin.insert(at, usize::MAX - k);
        plants.push((k, src, exact));
    }
    // Planted lines point back at their original's line.
    let expect = plants
        .iter()
        .map(|&(k, src, exact)| {
            let at = origin.iter().position(|&o| o == usize::MAX - k).unwrap();
            let first = origin.iter().position(|&o| o == src).unwrap();
            (at, first, exact)
        })
        .collect();
    (lines, expect)
}

#[test]
fn dedup_drops_exactly_the_planted_copies() {
    let Some(ps) = clue17(300) else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let (lines, expect) = planted(&ps, &mut rng);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    write_lines(&input, &lines);
    for iso in [false, true] {
        let (out, groups) = (dir.path().join("out.txt"), dir.path().join("g.csv"));
        let mut cmd = bin();
        cmd.args(["dedup", "-q", "-j", "2"])
            .arg(&input)
            .arg("-o")
            .arg(&out);
        cmd.arg("--groups").arg(&groups);
        if iso {
            cmd.arg("--iso");
        }
        cmd.assert().success();
        let dropped: Vec<&(usize, usize, bool)> = expect
            .iter()
            .filter(|(_, _, exact)| iso || *exact)
            .collect();
        let kept = std::fs::read_to_string(&out).unwrap();
        let kept: Vec<&str> = kept.lines().collect();
        let want: Vec<&str> = (0..lines.len())
            .filter(|i| !dropped.iter().any(|d| d.0 == *i))
            .map(|i| lines[i].as_str())
            .collect();
        assert_eq!(kept, want, "iso {iso}");
        let g = std::fs::read_to_string(&groups).unwrap();
        let mut rows: Vec<String> = g.lines().skip(1).map(String::from).collect();
        let name = input.display().to_string();
        let mut want: Vec<(usize, String)> = dropped
            .iter()
            .map(|&&(at, first, exact)| {
                let rel = if exact { "exact" } else { "isomorph" };
                (
                    at,
                    format!("{at},{name},{},{first},{name},{},{rel}", at + 1, first + 1),
                )
            })
            .collect();
        want.sort();
        rows.sort_by_key(|r| r.split(',').next().unwrap().parse::<usize>().unwrap());
        assert_eq!(
            rows,
            want.into_iter().map(|w| w.1).collect::<Vec<_>>(),
            "iso {iso}"
        );
    }
}

#[test]
fn dedup_iso_finds_the_relabelled_pair_of_c42() {
    let Some(dir) = shared("cases/inputs") else {
        return;
    };
    let out = bin()
        .args(["dedup", "-q", "--iso", "-o", "/dev/null", "--groups", "-"])
        .arg(dir.join("c42_hrm_format_duplicates.csv"))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let lines: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[2], r[5], r[6])).collect();
    assert_eq!(lines, [("4", "2", "exact"), ("7", "6", "isomorph")]);
}

#[test]
fn overlap_finds_planted_exact_isomorph_and_same_solution_rows_and_nothing_else() {
    let Some(ps) = clue17(400) else { return };
    let (train, test) = ps.split_at(200);
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut test_lines: Vec<String> = test.iter().map(Grid::to_string).collect();
    // (line in test, train line, relation), 1-based lines.
    let mut want = Vec::new();
    for (k, relation) in ["exact", "isomorph", "same-solution-class"]
        .iter()
        .cycle()
        .take(9)
        .enumerate()
    {
        let src = k * 20 + 3;
        let p = train[src];
        let text = match *relation {
            "exact" => zeros(&p),
            "isomorph" => Isomorph::random(&mut rng).apply(&p).to_string(),
            _ => {
                // One more given from the solution: another puzzle, same solution grid.
                let s = solve(&p, 2).grid.unwrap();
                let mut q = p;
                let cell = (0..81).find(|&i| p.0[i] == 0).unwrap();
                q.0[cell] = s.0[cell];
                Isomorph::random(&mut rng).apply(&q).to_string()
            }
        };
        let at = k * 15 + 1;
        test_lines.insert(at, text);
        for w in &mut want {
            let (line, _, _): &mut (usize, usize, &str) = w;
            if *line > at {
                *line += 1;
            }
        }
        // The first train row on the same solution grid (17-clue puzzles come in families
        // on one grid: 17_clue.txt lists some side by side).
        let first = if *relation == "same-solution-class" {
            let s = solve(&p, 2).grid;
            (0..=src).find(|&j| solve(&train[j], 2).grid == s).unwrap()
        } else {
            src
        };
        want.push((at + 1, first + 1, *relation));
    }
    want.sort();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("train.txt"), dir.path().join("test.txt"));
    let train_lines: Vec<String> = train.iter().map(Grid::to_string).collect();
    write_lines(&a, &train_lines);
    write_lines(&b, &test_lines);
    for by_solution in [false, true] {
        let mut cmd = bin();
        cmd.args(["overlap", "-q", "--train"])
            .arg(&a)
            .arg("--test")
            .arg(&b);
        if by_solution {
            cmd.arg("--by-solution");
        }
        let out = cmd.assert().code(1);
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let got: Vec<String> = text.lines().skip(1).map(String::from).collect();
        let expected: Vec<String> = want
            .iter()
            .filter(|w| by_solution || w.2 != "same-solution-class")
            .map(|(t, r, rel)| format!("{},{t},{},{r},{rel}", b.display(), a.display()))
            .collect();
        assert_eq!(got, expected, "by_solution {by_solution}");
    }
    // A clean split: exit 0 and a header only.
    let clean = dir.path().join("clean.txt");
    write_lines(
        &clean,
        &test.iter().map(Grid::to_string).collect::<Vec<_>>(),
    );
    let out = bin()
        .args(["overlap", "-q", "--by-solution", "--train"])
        .arg(&a)
        .arg("--test")
        .arg(&clean)
        .assert()
        .success();
    assert_eq!(
        String::from_utf8(out.get_output().stdout.clone()).unwrap(),
        "test_input,test_line,train_input,train_line,relation\n"
    );
}

/// `--puzzle-column 2` on a train `id,grid,answer_grid` and a test
/// `quizzes,solutions` read the test side's solutions, found nothing and exited 0 (a clean
/// split that was not). Per-side columns find the planted rows; the shared column still
/// reads solutions on the test side, and the test side is then warned about by name.
#[test]
fn overlap_takes_a_puzzle_column_per_side_and_warns_of_a_side_of_complete_grids() {
    let Some(ps) = clue17(60) else { return };
    let solved = |p: &Grid| solve(p, 2).grid.unwrap().to_string();
    let train: Vec<String> = ps[..30]
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{i},{p},{}", solved(p)))
        .collect();
    let mut test: Vec<String> = ps[30..]
        .iter()
        .map(|p| format!("{p},{}", solved(p)))
        .collect();
    // Train rows 4, 11 and 25 planted at test rows 2, 9 and 20 (0-based, header aside).
    for (at, from) in [(2, 4), (9, 11), (20, 25)] {
        test.insert(at, format!("{},{}", zeros(&ps[from]), solved(&ps[from])));
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("g.csv"), dir.path().join("k.csv"));
    write_lines(
        &a,
        &[&["id,grid,answer_grid".to_string()][..], &train].concat(),
    );
    write_lines(
        &b,
        &[&["quizzes,solutions".to_string()][..], &test].concat(),
    );
    let run = |flags: &[&str], code: i32| {
        let out = bin()
            .args(["overlap", "-q", "--train"])
            .arg(&a)
            .arg("--test")
            .arg(&b)
            .args(flags)
            .assert()
            .code(code);
        let o = out.get_output();
        let rows = String::from_utf8(o.stdout.clone()).unwrap();
        let rows: Vec<String> = rows.lines().skip(1).map(String::from).collect();
        (rows, String::from_utf8(o.stderr.clone()).unwrap())
    };
    // Row k (0-based, header aside) is line k + 2.
    let want: Vec<String> = [(4, 2), (11, 9), (25, 20)]
        .iter()
        .map(|(from, at)| {
            format!(
                "{},{},{},{},exact",
                b.display(),
                at + 2,
                a.display(),
                from + 2
            )
        })
        .collect();
    for flags in [
        &[
            "--train-puzzle-column",
            "grid",
            "--test-puzzle-column",
            "quizzes",
        ][..],
        &["--puzzle-column", "2", "--test-puzzle-column", "1"],
        &[
            "--test-puzzle-column",
            "quizzes",
            "--train-puzzle-column",
            "2",
        ],
    ] {
        let (rows, err) = run(flags, 1);
        assert_eq!(rows, want, "{flags:?}");
        assert!(!err.contains("warning"), "{flags:?}: {err}");
    }
    // The command that went wrong: the test side reads `solutions`, so nothing matches (exit 0
    // stays the rule), but stderr says which side and column hold complete grids.
    let (rows, err) = run(&["--puzzle-column", "2"], 0);
    assert!(rows.is_empty());
    assert!(
        err.contains("every test puzzle (read from solutions) is a complete grid")
            && err.contains("--test-puzzle-column")
            && !err.contains("every train puzzle"),
        "{err}"
    );
}

/// A JSON Lines record that is not JSON came out of `dedup` as `""`, one
/// field under a three-column header (and `canon` as `invalid` alone). Every row now has
/// the header's width: the kept invalid record as empty fields, `canon`'s with `invalid`
/// under `minlex`; a strict CSV reader reads them all.
#[test]
fn dedup_and_canon_rows_on_json_lines_keep_the_header_width() {
    let p = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("h.jsonl");
    let a = format!(r#"{{"puzzle":"{p}","id":1,"n":"a"}}"#);
    let b = format!(r#"{{"puzzle":"{p}","id":2,"n":"b"}}"#);
    write_lines(&input, &[a, "not json".into(), b]);
    let rows = |cmd: &str| -> Vec<Vec<String>> {
        let out = bin()
            .args([cmd, "-q", "-o", "-"])
            .arg(&input)
            .assert()
            .code(1);
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&out.get_output().stdout[..]);
        rdr.records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect()
    };
    let form = minlex(&parse_cells(p.as_bytes()).unwrap()).to_string();
    assert_eq!(
        rows("dedup"),
        [
            vec!["puzzle", "id", "n"],
            vec![p, "1", "a"],
            vec!["", "", ""]
        ]
    );
    assert_eq!(
        rows("canon"),
        [
            vec!["puzzle", "id", "n", "minlex"],
            vec![p, "1", "a", &form],
            vec!["", "", "", "invalid"],
            vec![p, "2", "b", &form],
        ]
    );
}

/// `dedup` on a lines file wrote each kept record as its puzzle field
/// (and stored solution), dropping ratings, hashes and labels, where a CSV row is kept whole.
/// A kept line is now written as read, without blanks at its ends and with a `\n` ending;
/// copies (blank symbols and text around the puzzle aside) are still dropped, an invalid
/// line still kept.
#[test]
fn dedup_keeps_a_lines_records_whole_line() {
    let zeros = common::P.replace('.', "0");
    // Another puzzle: P with its first given blanked.
    let other = common::P.replacen('5', ".", 1);
    let third = common::P.replacen('8', ".", 1);
    let s = common::S;
    let lines = [
        (format!("{} ED=10.3/10.3/9.8\r", common::P), true),
        ("# a comment".to_string(), false),
        (format!("  {zeros},{s},copy  "), false),
        (format!("{other}:1:{s}\t# hash 3f2a"), true),
        (other.clone(), false),
        ("123 short".to_string(), true),
        (format!("\t{third},{s},label,\"q\"  "), true),
    ];
    let text: String = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
    let want: String = lines
        .iter()
        .filter(|(_, kept)| *kept)
        .map(|(l, _)| format!("{}\n", l.trim()))
        .collect();
    assert!(want.starts_with(&format!("{} ED=10.3/10.3/9.8\n", common::P)));
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("rated.txt");
    std::fs::write(&input, text).unwrap();
    for read in [&[][..], &["--no-mmap"][..]] {
        let out = bin()
            .args(["dedup", "-q", "-o", "-"])
            .args(read)
            .arg(&input)
            .assert()
            .code(1);
        assert_eq!(String::from_utf8_lossy(&out.get_output().stdout), want);
    }
}

/// `dedup t.parquet -o kept.parquet` (or `.npz`, `.jsonl`) wrote CSV
/// under that name, exit 0, also in a build without the `parquet` feature. dedup writes the
/// records as read, so such a name is refused (exit 2, one line, nothing written) for `-o`
/// and `--groups`; `.csv` and `.txt` are written as before.
#[test]
fn dedup_refuses_an_output_named_as_a_table_format_it_does_not_write() {
    let p = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    write_lines(
        &input,
        &["puzzle,id".into(), format!("{p},1"), format!("{p},2")],
    );
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let csv = path("kept.csv");
    for (name, format) in [
        ("kept.parquet", "parquet"),
        ("kept.npz", "npz"),
        ("kept.jsonl", "jsonl"),
        ("kept.NDJSON", "jsonl"),
    ] {
        let out = path(name);
        for flags in [vec!["-o", &out], vec!["-o", &csv, "--groups", &out]] {
            let o = bin()
                .args(["dedup", "-q"])
                .arg(&input)
                .args(&flags)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{flags:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{err:?}");
            let flag = flags[flags.len() - 2];
            let written = match flag {
                "-o" => "dedup writes the records as read (CSV rows or lines)",
                _ => "--groups is written as CSV",
            };
            let want = format!(
                "sudoku-batch: error: {flag} {out}: {written}, not {format}: name it .csv and \
                 convert that file, e.g. with pandas\n"
            );
            assert_eq!(err, want);
            assert!(!Path::new(&out).exists() && !Path::new(&csv).exists());
        }
    }
    for name in ["kept.csv", "kept.txt"] {
        let out = path(name);
        bin()
            .args(["dedup", "-q", "-o", &out])
            .arg(&input)
            .assert()
            .success();
        let kept = std::fs::read_to_string(&out).unwrap();
        assert_eq!(kept, format!("puzzle,id\n{p},1\n"), "{name}");
    }
}

/// `dedup --help` listed `--shard` and `--shard-count`, which dedup always
/// refuses. They are hidden from its help (not from `solve`'s) and still refused, exit 2.
#[test]
fn dedup_help_hides_the_shard_flags_it_refuses() {
    let help = |cmd: &str| {
        let out = bin().args([cmd, "--help"]).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    assert!(!help("dedup").contains("--shard"), "{}", help("dedup"));
    assert!(help("dedup").contains("--iso"));
    assert!(help("solve").contains("--shard-count"));
    for flags in [["--shard", "1/2"], ["--shard-count", "2"]] {
        bin()
            .args(["dedup", "-o", "-"])
            .args(flags)
            .write_stdin("")
            .assert()
            .code(2)
            .stdout("")
            .stderr("sudoku-batch: error: --shard does not apply to dedup: copies in other shards would be kept\n");
    }
}

/// `canon --output-format txt` on c39 wrote a lone space for each record
/// that is not a puzzle, so the file read back held 8 records, not 11. Text is now canon's
/// lines output (one form a line, `invalid` where none), from a lines input by
/// `--output-format txt` and from a CSV input by a `.txt` name, as for `solve`.
#[test]
fn canon_txt_is_the_lines_output_with_a_line_for_every_record() {
    let Some(cases) = shared("cases/inputs") else {
        return;
    };
    let input = cases.join("c39_order_and_bad_rows.txt");
    let records = data_lines(&std::fs::read_to_string(&input).unwrap());
    assert_eq!(records.len(), 11);
    let expected: Vec<String> = records
        .iter()
        .map(|(_, l)| match parse_cells(l.as_bytes()) {
            Ok(g) if l.len() == 81 && !g.has_conflict() => minlex(&g).to_string(),
            _ => "invalid".to_string(),
        })
        .collect();
    assert_eq!(expected.iter().filter(|f| *f == "invalid").count(), 4);
    let dir = tempfile::tempdir().unwrap();
    // The lines `canon -o NAME FLAGS INPUT` writes (exit 1: some records are invalid).
    let lines = |name: &str, flags: &[&str], input: &Path| -> Vec<String> {
        let out = dir.path().join(name);
        let mut cmd = bin();
        cmd.args(["canon", "-q", "-o"]).arg(&out).args(flags);
        cmd.arg(input).assert().code(1);
        let text = std::fs::read_to_string(&out).unwrap();
        text.lines().map(String::from).collect()
    };
    assert_eq!(
        lines("ct.txt", &["--output-format", "txt"], &input),
        expected
    );

    // A `.txt` name on a CSV input: the same lines, not the CSV's columns.
    let csv = dir.path().join("in.csv");
    let rows: Vec<String> = records.iter().map(|(_, l)| format!("x,{l}")).collect();
    std::fs::write(&csv, format!("id,puzzle\n{}\n", rows.join("\n"))).unwrap();
    assert_eq!(lines("from_csv.txt", &[], &csv), expected);
}

/// `dedup`, `canon` and `overlap` counted bad rows without naming one, and
/// overlap's "5 invalid" summed both sides. Each now prints the first 10 bad records as
/// `path:line: reason` on stderr (even with `-q`, as `solve` does), then how many more, and
/// overlap counts each side's.
#[test]
fn canon_dedup_and_overlap_name_the_first_bad_rows() {
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("train.txt");
    let test = dir.path().join("test.txt");
    // Train: a good puzzle on line 1, then 12 bad ones (a short line, then a bad character
    // at a different cell each), so lines 2-13 are bad and lines 12 and 13 are past the cap.
    let mut lines = vec![common::P.to_string(), common::P[..80].to_string()];
    for i in 0..11 {
        lines.push(format!("{}x{}", &common::P[..i], &common::P[i + 1..]));
    }
    write_lines(&train, &lines);
    write_lines(&test, &[common::P[..79].to_string(), common::P.to_string()]);
    let path = train.display().to_string();
    let mut want: Vec<String> = vec![format!("{path}:2: 80 characters, expected 81")];
    for i in 0..9 {
        want.push(format!(
            "{path}:{}: r1c{}: invalid character 'x' (character {})",
            i + 3,
            i + 1,
            i + 1
        ));
    }
    let run = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let canon = run(&["canon", "-q", "-o", "/dev/null", &path]);
    let dedup = run(&["dedup", "-q", "-o", "/dev/null", &path]);
    for (cmd, err) in [("canon", &canon), ("dedup", &dedup)] {
        let got: Vec<&str> = err.lines().collect();
        assert_eq!(got.len(), 11, "{cmd}: {err}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(*g, format!("sudoku-batch: {w}"), "{cmd}");
        }
        assert!(got[10].starts_with("sudoku-batch: ... and 2 more invalid records"));
    }
    let test_path = test.display().to_string();
    let err = bin()
        .args([
            "overlap",
            "--train",
            &path,
            "--test",
            &test_path,
            "-o",
            "/dev/null",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8(err.stderr).unwrap();
    // The train side's 12 notes are capped at 10; the test side's one is past the cap too.
    let got: Vec<&str> = err.lines().collect();
    assert_eq!(got[9], format!("sudoku-batch: {}", want[9]), "{err}");
    assert_eq!(
        got[10], "sudoku-batch: ... and 3 more invalid records",
        "{err}"
    );
    assert!(
        err.contains("overlap: 13 train records (12 invalid) and 2 test records (1 invalid)"),
        "{err}"
    );
}

/// Without `--by-solution`, overlap printed "0 same solution class" for a check it
/// did not run, which reads as "no solution leakage". It now says the check was not run.
#[test]
fn overlap_says_when_the_solution_class_was_not_checked() {
    let p = parse_cells(common::P.as_bytes()).unwrap();
    let s = parse_cells(common::S.as_bytes()).unwrap();
    // One more given from the solution, transposed: another puzzle on an isomorph grid.
    let mut q = p;
    let cell = (0..81).find(|&i| p.0[i] == 0).unwrap();
    q.0[cell] = s.0[cell];
    let t: String = (0..81)
        .map(|i| q.to_string().as_bytes()[i % 9 * 9 + i / 9] as char)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("tr.txt"), dir.path().join("te.txt"));
    std::fs::write(&a, format!("{p}\n")).unwrap();
    std::fs::write(&b, format!("{t}\n")).unwrap();
    for (by_solution, code, said) in [
        (false, 0, "0 test rows overlap a train row (0 exact, 0 isomorph, same solution class not checked (use --by-solution))"),
        (true, 1, "1 test row overlaps a train row (0 exact, 0 isomorph, 1 same solution class)"),
    ] {
        let mut cmd = bin();
        cmd.args(["overlap", "-o", "-", "--train"]).arg(&a).arg("--test").arg(&b);
        if by_solution {
            cmd.arg("--by-solution");
        }
        let out = cmd.assert().code(code);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(err.contains(said), "{err}");
        assert!(!err.contains("0 same solution class"), "{err}");
    }
}

/// With `--by-solution`, a row with no stored solution and not exactly
/// one solution gets no solution class, yet the summary said "0 same solution class" (exit
/// 0, clean) without counting such rows. Each side's are now counted in a warning (even with
/// `-q`); the exit code is still set by the rows listed, as for overlap's other warnings.
#[test]
fn overlap_by_solution_counts_the_rows_it_could_not_compare() {
    let empty = ".".repeat(81);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("tr.txt"), dir.path().join("te.txt"));
    let run = |train: &str, test: &str, extra: &[&str], code: i32| -> (String, String) {
        std::fs::write(&a, train).unwrap();
        std::fs::write(&b, test).unwrap();
        let out = bin()
            .args(["overlap", "-o", "-", "--by-solution"])
            .args(extra)
            .arg("--train")
            .arg(&a)
            .arg("--test")
            .arg(&b)
            .assert()
            .code(code);
        let text = |b: &Vec<u8>| String::from_utf8(b.clone()).unwrap();
        (
            text(&out.get_output().stdout),
            text(&out.get_output().stderr),
        )
    };
    // The empty grid has many solutions and no stored one: not compared.
    let (_, err) = run(&format!("{empty}\n"), &format!("{}\n", common::P), &[], 0);
    let warning = "1 train / 0 test rows without a single solution: not compared by solution class";
    assert!(err.contains(warning), "{err}");
    assert!(
        err.contains(
            "(0 exact, 0 isomorph, 0 same solution class among rows with a single solution)"
        ),
        "{err}"
    );
    let (_, quiet) = run(
        &format!("{empty}\n"),
        &format!("{}\n", common::P),
        &["-q"],
        0,
    );
    assert!(quiet.contains(warning), "{quiet}");
    // With a stored solution the train row is compared, and P's unique solution is that
    // grid: listed. An unlisted test row of many solutions is counted on its side; one
    // listed as a copy is not (it is flagged anyway).
    let train = format!("{empty},{}\n", common::S);
    let one = format!("1{}", &empty[1..]);
    let test = format!("{}\n{one}\n", common::P);
    let (listed, err) = run(&train, &test, &[], 1);
    let row = format!("{},1,{},1,same-solution-class", b.display(), a.display());
    assert_eq!(listed.lines().nth(1), Some(row.as_str()), "{listed}");
    assert_eq!(listed.lines().count(), 2, "{listed}");
    assert!(
        err.contains("0 train / 1 test rows without a single solution"),
        "{err}"
    );
    let (_, err) = run(&train, &format!("{empty}\n"), &[], 1);
    assert!(!err.contains("without a single solution"), "{err}");
    // Every row compared: no warning, and the plain count.
    let (_, err) = run(&train, &format!("{}\n", common::P), &[], 1);
    assert!(!err.contains("without a single solution"), "{err}");
    assert!(
        err.contains("(0 exact, 0 isomorph, 1 same solution class)"),
        "{err}"
    );
}
