//! Build script: records the git commit and the rustc version for `bench`'s provenance
//! block. Both fall back to "unknown" (a source tarball, no git on the machine), so the
//! build never fails because of them.

use std::path::Path;
use std::process::Command;

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// Asks cargo to run this script again when HEAD moves, so the recorded commit stays the
/// one built.
///
/// The files that say where HEAD is: HEAD itself and the ref it points to, as `git
/// rev-parse --git-path` names them (this script runs in the package root, which is the
/// work tree's root). In a plain clone these are relative (`.git/HEAD`,
/// `.git/refs/heads/main`), and cargo resolves a relative path against the package root
/// of the build that checks it, so they follow a `target/` that is copied or shared into
/// another checkout. In a linked worktree they are absolute paths into the main
/// repository (`/work/main/.git/worktrees/NAME/HEAD`), which a copy of `target/` would go
/// on watching in its old checkout and so never run this again (the commit went stale).
/// There the relative `.git`, a file, is watched too: in another checkout it is a newer
/// file, or a directory of newer files, and this runs again there. Not the `.git`
/// directory of a plain clone: cargo scans a directory whole and would rerun after any git
/// command. A ref that only `packed-refs` holds (after `git gc`) is watched there: a
/// missing path would make cargo run this, and rebuild the crate, on every build.
///
/// Left: a `target/` copied into another worktree whose `.git` file is older than the
/// build keeps the first checkout's commit until build.rs changes or `cargo clean -p
/// sudoku-batch`.
fn watch_head() {
    let mut refs = vec!["HEAD".to_string()];
    refs.extend(output("git", &["symbolic-ref", "-q", "HEAD"]));
    for r in &refs {
        let Some(mut path) = output("git", &["rev-parse", "--git-path", r]) else {
            continue;
        };
        if !Path::new(&path).exists() {
            match output("git", &["rev-parse", "--git-path", "packed-refs"]) {
                Some(packed) if Path::new(&packed).exists() => path = packed,
                _ => continue,
            }
        }
        println!("cargo:rerun-if-changed={path}");
    }
    if Path::new(".git").is_file() {
        println!("cargo:rerun-if-changed=.git");
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    watch_head();
    let commit =
        output("git", &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_BATCH_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=SUDOKU_BATCH_RUSTC_VERSION={version}");
}
