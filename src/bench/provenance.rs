//! Where a benchmark number comes from: tool version, git commit, compiler, enabled target
//! features, CPU, cores, and the SHA-256 of each input. Every exporter writes this block,
//! so a published number can be traced to a build, a machine and exact input bytes.

use serde::Serialize;

/// The build and the machine a benchmark ran on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Provenance {
    /// `sudoku-batch`.
    pub tool: &'static str,
    /// Cargo package version.
    pub version: &'static str,
    /// Short git commit of the build, or `unknown` (recorded by `build.rs`).
    pub git_commit: &'static str,
    /// `rustc --version` of the compiler that built the binary, or `unknown`.
    pub rustc: &'static str,
    /// Target features compiled in, of those the solver can use (`sse4.2`, `popcnt`, `avx2`, `bmi2`).
    pub target_features: Vec<&'static str>,
    /// CPU model (from `/proc/cpuinfo` on Linux), or `unknown`.
    pub cpu: String,
    /// Logical cores available to the process.
    pub cores: usize,
    /// Operating system and architecture, e.g. `linux x86_64`.
    pub os: String,
}

impl Provenance {
    /// The provenance of this binary on this machine.
    pub fn current() -> Provenance {
        Provenance {
            tool: "sudoku-batch",
            version: env!("CARGO_PKG_VERSION"),
            git_commit: env!("SUDOKU_BATCH_GIT_COMMIT"),
            rustc: env!("SUDOKU_BATCH_RUSTC_VERSION"),
            target_features: target_features(),
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        }
    }
}

/// The target features that were enabled at compile time (`-C target-cpu=native` or
/// `-C target-feature=...`), of those that matter for a bitmask solver.
pub fn target_features() -> Vec<&'static str> {
    let all = [
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("bmi2", cfg!(target_feature = "bmi2")),
    ];
    all.iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect()
}

/// The CPU model name from `/proc/cpuinfo`, or `unknown` where there is none.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("Model"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

pub use crate::input::sha256_hex;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn provenance_is_never_empty() {
        let p = Provenance::current();
        assert!(!p.git_commit.is_empty() && !p.rustc.is_empty() && !p.cpu.is_empty());
        assert!(p.cores >= 1);
    }
}
