//! `--shard auto`: the shard `K/N` of this task, from what a cluster scheduler puts in its
//! environment (issue 11), so one job script serves every task of an array.
//!
//! - **Slurm job array** (`sbatch --array=1-16`): `SLURM_ARRAY_TASK_ID`,
//!   `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT`, and `SLURM_ARRAY_TASK_STEP` when the
//!   array has a step (`--array=0-30:2`): `K = (ID - MIN) / STEP + 1`, `N = COUNT`. An array
//!   given as a list with gaps (`--array=1,5,9`) does not number its tasks 1..N and is
//!   refused.
//! - **Re-running one task** of such an array (`sbatch --array=3` after `--array=1-4`): an
//!   array of one task (`SLURM_ARRAY_TASK_COUNT=1`, or `MIN` = `MAX`) does not say how many
//!   shards the first run had, so `--shard auto` alone is refused (it would read the whole
//!   input, and joined outputs would hold rows twice); `--shard-count N` gives N, and K is
//!   then the task's ID (`--array=K`, for an array numbered 1..N; an array numbered from 0
//!   re-runs with `--shard K/N`).
//! - **Kubernetes indexed Job** (`completionMode: Indexed`): `JOB_COMPLETION_INDEX` (0-based)
//!   gives `K = index + 1`; the number of completions is not in the environment, so it comes
//!   from `--shard-count N`.
//!
//! Slurm is looked at first. When neither is set, `--shard auto` is an error (exit 2).

use crate::input::Shard;

/// The shard of this task, read through `var` (the process environment in the binary, a
/// table in tests); `count` is `--shard-count`.
///
/// # Errors
/// A readable line: no scheduler variables, a variable that is not a number, a task outside
/// `1..=N`, or a `--shard-count` missing for Kubernetes or contradicting Slurm's count.
pub fn shard_from_env(
    var: impl Fn(&str) -> Option<String>,
    count: Option<u32>,
) -> Result<Shard, String> {
    resolve(var, count).map(|(shard, _)| shard)
}

/// [`shard_from_env`], with where the shard came from in words (`Slurm`, `Kubernetes`, ...),
/// for the line `--shard auto` prints.
///
/// # Errors
/// As [`shard_from_env`].
pub fn resolve(
    var: impl Fn(&str) -> Option<String>,
    count: Option<u32>,
) -> Result<(Shard, &'static str), String> {
    let num = |name: &str| -> Result<Option<u64>, String> {
        var(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("--shard auto: {name}={v:?} is not a whole number"))
            })
            .transpose()
    };
    let shard = if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let n = num("SLURM_ARRAY_TASK_COUNT")?
            .ok_or("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")?;
        if id < min || (id - min) % step != 0 {
            return Err(format!(
                "--shard auto: Slurm task {id} is not on the array's grid (min {min}, step \
                 {step}); use --shard K/N"
            ));
        }
        let max = num("SLURM_ARRAY_TASK_MAX")?;
        if n == 1 || max == Some(min) {
            // One task: a re-run of one task of a larger array, whose size is not here.
            let Some(c) = count else {
                return Err(format!(
                    "--shard auto: a Slurm array of one task (SLURM_ARRAY_TASK_ID={id}, \
                     SLURM_ARRAY_TASK_COUNT={n}) does not say how many shards there are (a \
                     re-run of one task?); give --shard-count N to read shard {} of N, or \
                     --shard K/N",
                    id.max(1)
                ));
            };
            (
                id,
                u64::from(c),
                "Slurm (one task re-run: K from SLURM_ARRAY_TASK_ID)",
            )
        } else {
            let k = (id - min) / step + 1;
            if let Some(c) = count.filter(|&c| u64::from(c) != n) {
                return Err(format!(
                    "--shard-count {c} contradicts SLURM_ARRAY_TASK_COUNT={n}"
                ));
            }
            (k, n, "Slurm")
        }
    } else if let Some(index) = num("JOB_COMPLETION_INDEX")? {
        let n = count.ok_or(
            "--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes indexed Job): give the \
             number of completions with --shard-count N",
        )?;
        // The index runs over 0..completions; one beyond --shard-count means the count is
        // smaller than the Job's completions (a count too small, not an array with gaps).
        if index >= u64::from(n) {
            return Err(format!(
                "--shard auto: JOB_COMPLETION_INDEX={index} needs --shard-count of at least {} \
                 (the Job's completions), not {n}",
                index + 1
            ));
        }
        (index + 1, u64::from(n), "Kubernetes")
    } else {
        return Err(
            "--shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor \
                    JOB_COMPLETION_INDEX (a Kubernetes indexed Job) is set; give --shard K/N"
                .to_string(),
        );
    };
    let (k, n, from) = shard;
    let (Ok(index), Ok(count)) = (u32::try_from(k), u32::try_from(n)) else {
        return Err(format!("--shard auto: task {k} of {n} is out of range"));
    };
    if n == 0 || k > n || k == 0 {
        return Err(format!(
            "--shard auto: {from} says task {k} of {n}: not 1 <= K <= N (an array given as a \
             list with gaps, or numbered from 0? use --shard K/N)"
        ));
    }
    Ok((Shard { index, count }, from))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_string())
        }
    }

    fn shard(vars: &[(&str, &str)], count: Option<u32>) -> Result<String, String> {
        shard_from_env(env(vars), count).map(|s| s.to_string())
    }

    #[test]
    fn slurm_arrays_number_their_tasks_from_one() {
        let one_based = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "16"),
        ];
        assert_eq!(shard(&one_based, None).as_deref(), Ok("3/16"));
        assert_eq!(shard(&one_based, Some(16)).as_deref(), Ok("3/16"));
        assert!(shard(&one_based, Some(8))
            .unwrap_err()
            .contains("contradicts"));
        let zero_based = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(shard(&zero_based, None).as_deref(), Ok("1/4"));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(shard(&stepped, None).as_deref(), Ok("4/4"));
        let gaps = [
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        assert!(shard(&gaps, None).unwrap_err().contains("task 9 of 3"));
    }

    /// `--array=3` after `--array=1-4`: one task, whose count is not the first run's.
    #[test]
    fn a_one_task_slurm_array_needs_the_count_and_takes_k_from_its_id() {
        let one = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "1"),
        ];
        assert_eq!(shard(&one, Some(4)).as_deref(), Ok("3/4"));
        let e = shard(&one, None).unwrap_err();
        assert!(e.contains("--shard-count N to read shard 3 of N"), "{e}");
        assert!(shard(&one, Some(2)).is_err(), "task 3 of 2");
    }

    #[test]
    fn kubernetes_indexed_jobs_need_the_count_flag() {
        let k8s = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(shard(&k8s, Some(5)).as_deref(), Ok("1/5"));
        assert!(shard(&k8s, None).unwrap_err().contains("--shard-count"));
        assert!(shard(&[("JOB_COMPLETION_INDEX", "5")], Some(5)).is_err());
        assert!(shard(&[("JOB_COMPLETION_INDEX", "x")], Some(5))
            .unwrap_err()
            .contains("not a whole number"));
    }

    #[test]
    fn no_scheduler_is_an_error_naming_both() {
        let e = shard(&[], Some(4)).unwrap_err();
        assert!(e.contains("SLURM_ARRAY_TASK_ID") && e.contains("JOB_COMPLETION_INDEX"));
    }
}
