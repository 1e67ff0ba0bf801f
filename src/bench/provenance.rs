//! Where a benchmark number comes from: tool version, git commit, compiler, enabled target
//! features, the solver's propagation copy chosen at run time, CPU, cores, the machine's load average at the start and end of the run, and
//! the SHA-256 of each input. Every exporter writes this block, so a published number can
//! be traced to a build, a machine (and how busy it was) and exact input bytes.

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
    /// The copy of the solver's propagation this CPU runs, chosen at run time:
    /// `avx512`, `avx2` or `portable` ([`crate::solver::kernel`]).
    pub solver_kernel: &'static str,
    /// CPU model (from `/proc/cpuinfo` on Linux), or `unknown`.
    pub cpu: String,
    /// Logical cores available to the process.
    pub cores: usize,
    /// Operating system and architecture, e.g. `linux x86_64`.
    pub os: String,
    /// The machine's load average when the run started (before the inputs were read), or
    /// `null` where there is no `/proc/loadavg`. Above `cores`, other work was competing for
    /// the cores the rows were timed on.
    pub load_average_start: Option<LoadAverage>,
    /// The machine's load average when the last row was timed, or `null` as for
    /// `load_average_start`. Set by [`Provenance::finish`]; the run's own threads count in it.
    pub load_average_end: Option<LoadAverage>,
}

/// The load average of the machine: runnable (and uninterruptible) tasks, averaged by the
/// kernel over 1, 5 and 15 minutes, as `uptime` prints it. Unitless (tasks).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LoadAverage {
    /// Over the last minute.
    pub one_min: f64,
    /// Over the last 5 minutes.
    pub five_min: f64,
    /// Over the last 15 minutes.
    pub fifteen_min: f64,
}

impl LoadAverage {
    /// The load average now, from `/proc/loadavg`; `None` where that file is absent or not
    /// three numbers first (not Linux).
    pub fn current() -> Option<LoadAverage> {
        LoadAverage::parse(&std::fs::read_to_string("/proc/loadavg").ok()?)
    }

    /// The first three fields of a `/proc/loadavg` line (`0.52 0.40 0.33 1/345 6789`).
    pub fn parse(text: &str) -> Option<LoadAverage> {
        let mut f = text.split_whitespace().map(str::parse::<f64>);
        let mut next = || f.next()?.ok().filter(|x| x.is_finite());
        Some(LoadAverage {
            one_min: next()?,
            five_min: next()?,
            fifteen_min: next()?,
        })
    }
}

/// Logical cores available to the process (1 when that cannot be told).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The warning that other work competed for the cores, when the one-minute average of
/// `load` is above `cores`: `the load average at the start was 3.50, above the 2 cores:
/// other work competed for them`; `None` when it is not, or unknown. The caller says what
/// that does to its numbers: `bench`'s rates and speed-ups, `solve`'s wall times per puzzle
/// (a descheduled thread's waiting counts in them).
pub fn competing_work(load: Option<LoadAverage>, cores: usize) -> Option<String> {
    let load = load.filter(|l| l.one_min > cores as f64)?;
    Some(format!(
        "the load average at the start was {:.2}, above the {}: other work competed for them",
        load.one_min,
        crate::summary::count(cores as u64, "core", "cores")
    ))
}

impl std::fmt::Display for LoadAverage {
    /// `1.25 0.98 0.80`: the 1-, 5- and 15-minute averages, as `uptime` gives them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.2} {:.2} {:.2}",
            self.one_min, self.five_min, self.fifteen_min
        )
    }
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
            solver_kernel: crate::solver::kernel(),
            cpu: cpu_model(),
            cores: available_cores(),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            load_average_start: LoadAverage::current(),
            load_average_end: None,
        }
    }

    /// Records the load average at the end of the run (`load_average_end`).
    pub fn finish(&mut self) {
        self.load_average_end = LoadAverage::current();
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
    fn load_average_is_read_from_proc_loadavg_text() {
        let l = LoadAverage::parse("0.52 1.40 10.33 3/345 6789\n").unwrap();
        assert_eq!((l.one_min, l.five_min, l.fifteen_min), (0.52, 1.40, 10.33));
        assert_eq!(l.to_string(), "0.52 1.40 10.33");
        assert_eq!(LoadAverage::parse("0.52 1.40"), None);
        assert_eq!(LoadAverage::parse("a b c"), None);
        assert_eq!(LoadAverage::parse(""), None);
    }

    #[test]
    fn provenance_is_never_empty() {
        let p = Provenance::current();
        assert!(!p.git_commit.is_empty() && !p.rustc.is_empty() && !p.cpu.is_empty());
        assert!(p.cores >= 1);
    }
}
