//! The option lists in docs/GUIDE.md are `sudoku-batch help COMMAND` itself, so the flags'
//! help is written once, in `src/cli/`, and the guide cannot drift from it.
//!
//! Each subcommand (found from the binary's own `--help`, `report merge` and any later one
//! included) has a block in the guide between `<!-- help:NAME:begin -->` and
//! `<!-- help:NAME:end -->` holding its help as rendered at 100 columns. The test fails
//! naming the first block that differs or is missing; `UPDATE_HELP_DOCS=1 cargo test --release
//! --test cli -- project::help_docs` rewrites the blocks (a missing one is added as a new section before
//! "## Exit codes", to be moved where it belongs).

use assert_cmd::Command;
use std::fs;
use std::path::PathBuf;

const WIDTH: &str = "100";
const SECTION_BEFORE: &str = "\n## Exit codes\n";

fn guide_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/GUIDE.md")
}

/// `sudoku-batch help WORDS...` as rendered without a terminal at `WIDTH` columns, each
/// line stripped of trailing blanks (clap pads blank lines inside long help).
fn help(words: &[&str]) -> String {
    let out = Command::cargo_bin("sudoku-batch")
        .expect("the binary is built")
        .arg("help")
        .args(words)
        .env("COLUMNS", WIDTH)
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "help {words:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("help is UTF-8");
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

/// The subcommands listed under `Commands:` in a help text, without clap's own `help`.
fn subcommands(help_text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_commands = false;
    for line in help_text.lines() {
        if line == "Commands:" {
            in_commands = true;
            continue;
        }
        if in_commands {
            if line.is_empty() || !line.starts_with("  ") {
                break;
            }
            // A command's line is indented by two; a wrapped description by more.
            if let Some(name) = line.strip_prefix("  ").filter(|l| !l.starts_with(' ')) {
                let name = name.split_whitespace().next().unwrap_or_default();
                if name != "help" {
                    names.push(name.to_string());
                }
            }
        }
    }
    names
}

/// Every leaf subcommand as its words (`["solve"]`, `["report", "merge"]`).
fn leaf_commands() -> Vec<Vec<String>> {
    let mut leaves = Vec::new();
    let mut queue: Vec<Vec<String>> = subcommands(&help(&[]))
        .into_iter()
        .map(|n| vec![n])
        .collect();
    while let Some(words) = queue.pop() {
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        let subs = subcommands(&help(&refs));
        if subs.is_empty() {
            leaves.push(words);
        } else {
            for s in subs {
                let mut w = words.clone();
                w.push(s);
                queue.push(w);
            }
        }
    }
    leaves.sort();
    leaves
}

fn block(name: &str, help_text: &str) -> String {
    format!(
        "<!-- help:{name}:begin -->\n```text\n$ sudoku-batch help {name}\n{help_text}\n```\n\
         <!-- help:{name}:end -->"
    )
}

/// Replaces the block of `name` in `guide` (markers included) with `new`; `None` when the
/// guide has no such block.
fn replace_block(guide: &str, name: &str, new: &str) -> Option<String> {
    let begin = format!("<!-- help:{name}:begin -->");
    let end = format!("<!-- help:{name}:end -->");
    let start = guide.find(&begin)?;
    let stop = guide[start..].find(&end)? + start + end.len();
    Some(format!("{}{new}{}", &guide[..start], &guide[stop..]))
}

#[test]
fn the_guide_holds_every_subcommands_help_as_the_binary_prints_it() {
    let path = guide_path();
    let original = fs::read_to_string(&path).expect("docs/GUIDE.md is readable");
    let update = std::env::var_os("UPDATE_HELP_DOCS").is_some_and(|v| v != "0");
    let leaves = leaf_commands();
    assert!(
        leaves.iter().any(|w| w == &["solve"]) && leaves.iter().any(|w| w == &["report", "merge"]),
        "the subcommands were not found in the help: {leaves:?}"
    );
    let mut guide = original.clone();
    let mut problems = Vec::new();
    for words in &leaves {
        let name = words.join(" ");
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        let want = block(&name, &help(&refs));
        match replace_block(&guide, &name, &want) {
            Some(updated) => {
                if updated != guide {
                    problems.push(format!("the help of `{name}` differs from the guide's"));
                }
                guide = updated;
            }
            None => {
                problems.push(format!("the guide has no help block for `{name}`"));
                let at = guide.find(SECTION_BEFORE).unwrap_or(guide.len());
                guide.insert_str(at, &format!("\n## `{name}`\n\n{want}\n"));
            }
        }
    }
    if update {
        if guide != original {
            fs::write(&path, &guide).expect("docs/GUIDE.md is writable");
        }
        return;
    }
    assert!(
        problems.is_empty(),
        "{}; run `UPDATE_HELP_DOCS=1 cargo test --release --test cli -- project::help_docs` to rewrite the blocks of \
         docs/GUIDE.md, then read the text around them",
        problems.join("; ")
    );
}

#[test]
fn subcommands_are_read_from_a_commands_list() {
    let text = "Usage: x <COMMAND>\n\nCommands:\n  solve    Solve\n           wrapped\n  \
                report   Reports\n  help     Print\n\nOptions:\n  -h, --help  Print help";
    assert_eq!(subcommands(text), ["solve", "report"]);
    assert!(subcommands("Usage: x [OPTIONS]\n\nOptions:\n  -h").is_empty());
}
