//! Build script: records the git commit and the rustc version for the provenance of
//! `bench`'s exports and of every `--report`. Both fall back to `unknown` (a source
//! tarball, no git on the machine, a package not tracked by the repository around it), so
//! the build never fails because of them, and never names a wrong commit.
//!
//! The commit is `git rev-parse --short HEAD`, with `-dirty` appended when a tracked file
//! that goes into the binary ([`BUILD_INPUTS`]) differs from HEAD (as `git describe
//! --dirty`, narrowed to what is compiled, so an edit to README or tests/ does not mark
//! the binary).
//!
//! When this runs again ([`watch`]): cargo decides by the modification times of the paths
//! printed as `rerun-if-changed`, compared with this script's last run, and by the values
//! of the variables printed as `rerun-if-env-changed`. Times alone cannot see a `target/`
//! copied with `cp -r` into another checkout (trial 5 item 5, trial 3 item 4): the copy is
//! newer than every file of the new checkout, so nothing looked changed and each export
//! named the first checkout's commit. `.cargo/config.toml` therefore sets
//! `SUDOKU_BATCH_CHECKOUT` to the checkout's absolute path (`[env]`, `relative = true`),
//! and a change of that value reruns this script: a `target/` used by another checkout
//! (a copy, a moved or a second worktree) gets that checkout's commit.

use std::path::Path;
use std::process::Command;

/// Tracked paths that go into the binary: an uncommitted change to one marks the commit
/// `-dirty`, and a change of their times reruns this script.
const BUILD_INPUTS: [&str; 4] = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];

/// The variable `.cargo/config.toml` sets to the checkout's absolute path.
const CHECKOUT_VAR: &str = "SUDOKU_BATCH_CHECKOUT";

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

/// `git` with `args` in the package root, without taking the index lock (a `git status`
/// here must not make a git command the user runs meanwhile fail).
fn git(args: &[&str]) -> Option<String> {
    let mut all = vec!["--no-optional-locks"];
    all.extend_from_slice(args);
    output("git", &all)
}

/// The commit of the checkout, `-dirty` when a build input differs from it, or `None`
/// when git cannot say: no git, no repository, or a repository that does not track this
/// package (a tarball unpacked inside another repository's work tree).
fn commit() -> Option<String> {
    git(&["ls-files", "--error-unmatch", "build.rs"])?;
    let hash = git(&["rev-parse", "--short", "HEAD"]).filter(|h| !h.is_empty())?;
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend_from_slice(&BUILD_INPUTS);
    let dirty = !git(&status)?.is_empty();
    Some(if dirty { format!("{hash}-dirty") } else { hash })
}

/// Asks cargo to run this script again when what it recorded may have changed: another
/// checkout ([`CHECKOUT_VAR`]), HEAD moved (the HEAD file, and the branch ref it points to
/// or `packed-refs` when only that holds the ref), or a build input changed (the dirty
/// mark). In a linked worktree `git rev-parse --git-path` names absolute paths into the
/// main repository; that is right here, since a `target/` used from another checkout reruns
/// through [`CHECKOUT_VAR`]. A path that does not exist would rerun this, and rebuild the
/// crate, on every build, so only existing paths are printed.
fn watch() {
    println!("cargo:rerun-if-env-changed={CHECKOUT_VAR}");
    for path in BUILD_INPUTS {
        if Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let mut refs = vec!["HEAD".to_string()];
    refs.extend(git(&["symbolic-ref", "-q", "HEAD"]).filter(|r| !r.is_empty()));
    for r in &refs {
        let Some(mut path) = git(&["rev-parse", "--git-path", r]) else {
            continue;
        };
        if !Path::new(&path).exists() {
            match git(&["rev-parse", "--git-path", "packed-refs"]) {
                Some(packed) if Path::new(&packed).exists() => path = packed,
                _ => continue,
            }
        }
        println!("cargo:rerun-if-changed={path}");
    }
}

fn main() {
    watch();
    let commit = commit().unwrap_or_else(|| "unknown".into());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(&rustc, &["--version"])
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_BATCH_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=SUDOKU_BATCH_RUSTC_VERSION={version}");
}
