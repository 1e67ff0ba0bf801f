//! Build script: records the git commit and the rustc version for `bench`'s provenance
//! block. Both fall back to "unknown" (a source tarball, no git on the machine), so the
//! build never fails because of them.

use std::process::Command;

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Rebuild when HEAD moves, so the recorded commit stays the one built.
    let mut watched = vec!["HEAD".to_string()];
    watched.extend(output("git", &["symbolic-ref", "-q", "HEAD"]));
    for path in &watched {
        if let Some(p) = output("git", &["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    let commit =
        output("git", &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_BATCH_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=SUDOKU_BATCH_RUSTC_VERSION={version}");
}
