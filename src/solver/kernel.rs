//! Which copy of the propagation the solver runs ([`Kernel`]), chosen once per process: the
//! best one this CPU has, or the one the environment variable [`KERNEL_VAR`] names (for
//! measurements, and for tests that run every copy this CPU has).
//!
//! All copies make the same deductions, guesses and solutions (tested node by node
//! against the portable one); they differ only in speed.

use std::sync::atomic::{AtomicU8, Ordering};

/// The environment variable that forces a kernel: `portable`, `avx2`, `avx512` or `auto`
/// (the default: the best this CPU has). Read once, on the first solve or at
/// [`select_kernel`].
pub const KERNEL_VAR: &str = "SUDOKU_BATCH_KERNEL";

/// A copy of the solver's propagation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Plain Rust for any target (on x86-64, the baseline instruction set).
    Portable,
    /// The candidate boards held in four AVX2 registers, compiled for AVX2, BMI1, BMI2,
    /// POPCNT and LZCNT (x86-64, run-time check).
    Avx2,
    /// The candidate boards held in two AVX-512 registers (x86-64 with AVX-512F, POPCNT,
    /// BMI1 and BMI2, run-time check).
    Avx512,
}

impl Kernel {
    /// Every kernel, slowest first.
    pub const ALL: [Kernel; 3] = [Kernel::Portable, Kernel::Avx2, Kernel::Avx512];

    /// The name [`KERNEL_VAR`] takes and reports give: `portable`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }

    /// Whether this CPU runs the kernel (checked at run time; `Portable` always).
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            Kernel::Avx2 => avx2_usable(),
            Kernel::Avx512 => avx512_usable(),
        }
    }

    /// The fastest kernel this CPU runs.
    pub fn best() -> Kernel {
        Kernel::ALL
            .into_iter()
            .rev()
            .find(|k| k.available())
            .unwrap_or(Kernel::Portable)
    }

    /// The kernels this CPU runs, slowest first (`Portable` always among them).
    pub fn available_kernels() -> Vec<Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.available()).collect()
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            Kernel::Portable => PORTABLE,
            Kernel::Avx2 => AVX2,
            Kernel::Avx512 => AVX512,
        }
    }

    fn from_code(code: u8) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// A [`KERNEL_VAR`] value that cannot be honoured.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KernelError {
    /// Not one of `portable`, `avx2`, `avx512`, `auto` (or not valid Unicode).
    #[error("{KERNEL_VAR}={0:?} is not a solver kernel (portable, avx2, avx512 or auto)")]
    Unknown(String),
    /// A kernel this CPU (or this target) cannot run.
    #[error("{KERNEL_VAR}={name}: this CPU lacks {needs}", name = .0.name(), needs = needs(*.0))]
    Unsupported(Kernel),
}

/// What a kernel needs, for [`KernelError::Unsupported`].
fn needs(kernel: Kernel) -> &'static str {
    match kernel {
        Kernel::Portable => "nothing",
        Kernel::Avx2 => "AVX2, BMI1, BMI2, POPCNT or LZCNT (or is not x86-64)",
        Kernel::Avx512 => "AVX-512F, POPCNT, BMI1 or BMI2 (or is not x86-64)",
    }
}

/// Parses a [`KERNEL_VAR`] value (`None`: unset or `auto`, the best kernel) and checks that
/// this CPU runs it.
///
/// # Errors
/// [`KernelError::Unknown`] for another name; [`KernelError::Unsupported`] when the CPU
/// lacks the kernel's instructions.
pub fn parse_kernel(value: Option<&str>) -> Result<Kernel, KernelError> {
    let kernel = match value.map(str::trim) {
        None | Some("" | "auto") => return Ok(Kernel::best()),
        Some(name) => Kernel::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| KernelError::Unknown(name.to_string()))?,
    };
    if kernel.available() {
        Ok(kernel)
    } else {
        Err(KernelError::Unsupported(kernel))
    }
}

/// The kernel [`KERNEL_VAR`] asks for, as [`parse_kernel`] reads it.
///
/// # Errors
/// As [`parse_kernel`]; a value that is not Unicode is [`KernelError::Unknown`].
pub fn kernel_from_env() -> Result<Kernel, KernelError> {
    match std::env::var(KERNEL_VAR) {
        Ok(v) => parse_kernel(Some(&v)),
        Err(std::env::VarError::NotPresent) => parse_kernel(None),
        Err(std::env::VarError::NotUnicode(v)) => {
            Err(KernelError::Unknown(v.to_string_lossy().into_owned()))
        }
    }
}

/// [`Kernel::Portable`]'s code, for the solver's functions generic over the kernel.
pub(crate) const PORTABLE: u8 = 1;
/// [`Kernel::Avx2`]'s code.
pub(crate) const AVX2: u8 = 2;
/// [`Kernel::Avx512`]'s code.
pub(crate) const AVX512: u8 = 3;

/// The active kernel's code (`Kernel::code`), 0 until chosen.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// Chooses the kernel from [`KERNEL_VAR`] unless one is already active, and returns the
/// active one. The binary calls this before any work, so that a bad value stops it with
/// one line.
///
/// # Errors
/// As [`kernel_from_env`], when no kernel was active yet (nothing is then chosen).
pub fn select_kernel() -> Result<Kernel, KernelError> {
    if let Some(k) = Kernel::from_code(ACTIVE.load(Ordering::Relaxed)) {
        return Ok(k);
    }
    let kernel = kernel_from_env()?;
    // A race with another thread choosing from the same variable picks the same kernel.
    ACTIVE.store(kernel.code(), Ordering::Relaxed);
    Ok(kernel)
}

/// The kernel the solver runs. Chosen on the first call: from [`KERNEL_VAR`], or the best
/// this CPU has when the variable is unset or cannot be honoured (a library caller that
/// never called [`select_kernel`] still solves; the binary refuses such a value first).
#[inline(always)]
pub fn active() -> Kernel {
    match ACTIVE.load(Ordering::Relaxed) {
        AVX512 => Kernel::Avx512,
        AVX2 => Kernel::Avx2,
        PORTABLE => Kernel::Portable,
        _ => choose_now(),
    }
}

#[cold]
#[inline(never)]
fn choose_now() -> Kernel {
    select_kernel().unwrap_or_else(|_| {
        let best = Kernel::best();
        ACTIVE.store(best.code(), Ordering::Relaxed);
        best
    })
}

/// Whether this CPU has what the AVX2 kernel is compiled for: AVX2, BMI1, BMI2, POPCNT and
/// LZCNT (run-time check, cached by the standard library).
pub(crate) fn avx2_usable() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has what the AVX-512 kernel is compiled for: AVX-512F, AVX2, POPCNT,
/// BMI1 and BMI2 (run-time check, cached by the standard library).
pub(crate) fn avx512_usable() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for k in Kernel::ALL {
            if k.available() {
                assert_eq!(parse_kernel(Some(k.name())), Ok(k));
            } else {
                assert_eq!(
                    parse_kernel(Some(k.name())),
                    Err(KernelError::Unsupported(k))
                );
            }
        }
        assert_eq!(parse_kernel(None), Ok(Kernel::best()));
        assert_eq!(parse_kernel(Some("auto")), Ok(Kernel::best()));
        assert_eq!(parse_kernel(Some(" portable ")), Ok(Kernel::Portable));
        let bad = parse_kernel(Some("sse9")).unwrap_err();
        assert_eq!(bad, KernelError::Unknown("sse9".into()));
        assert_eq!(
            bad.to_string(),
            "SUDOKU_BATCH_KERNEL=\"sse9\" is not a solver kernel (portable, avx2, avx512 or auto)"
        );
    }

    /// The best kernel is among the available ones, and the portable one always is.
    #[test]
    fn the_best_kernel_is_available() {
        assert!(Kernel::best().available());
        assert!(Kernel::available_kernels().contains(&Kernel::Portable));
        assert!(Kernel::available_kernels().contains(&Kernel::best()));
    }
}
