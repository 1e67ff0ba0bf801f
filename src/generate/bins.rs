//! Difficulty targets (`--rating BIN_SPEC`): bins over the `rate` score, each with its share
//! of the puzzles, and the quota of each bin in each block of a run.
//!
//! A spec is one of:
//! - `N`: `N` bins of equal width over `0..`[`DEFAULT_TOP`], the last one open above (every
//!   rating falls in a bin), equal shares;
//! - `N:LO..HI`: the same over `LO..HI` (`HI` may be `inf`), ratings outside rejected;
//! - `E0,E1,...,EN`: bins `[E0, E1)`, ..., `[EN-1, EN)` (`EN` may be `inf`), equal shares;
//! - a file (any spec naming an existing file): CSV rows `lo,hi,weight` (a header row is
//!   skipped when its weight is not a number), shares proportional to the weights.
//!
//! Shares become whole counts per block ([`Bins::quotas`]) by cumulative rounding, so the
//! counts of any run of consecutive rows, and of the whole run, are within one of the shares.

use std::fmt;

/// The top of the range `N` equal bins cover: ratings of the generator's minimal puzzles
/// under `rate`'s defaults lie mostly below it; the last bin takes everything above too.
pub const DEFAULT_TOP: f64 = 3.0;

/// One bin: ratings in `lo..hi` (`hi` excluded, or infinite), and its share.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bin {
    /// Lowest rating taken.
    pub lo: f64,
    /// First rating not taken (`f64::INFINITY`: no upper end; written as `null` in JSON).
    pub hi: f64,
    /// Share of the puzzles, the shares of all bins summing to 1.
    pub share: f64,
}

impl fmt::Display for Bin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.hi.is_finite() {
            write!(f, "[{}, {})", self.lo, self.hi)
        } else {
            write!(f, "[{}, inf)", self.lo)
        }
    }
}

/// The bins of a target, in rising order, not overlapping.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Bins {
    /// The bins.
    pub bins: Vec<Bin>,
}

/// Why a `--rating` spec was refused.
#[derive(Debug, thiserror::Error)]
pub enum BinError {
    /// The spec is not one of the forms above.
    #[error("{0:?}: expected N, N:LO..HI, edges E0,E1,...,EN or a file of lo,hi,weight rows")]
    Form(String),
    /// A bin is empty or bins overlap or a weight is not positive.
    #[error("{0}")]
    Bad(String),
    /// The histogram file cannot be read.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

fn number(text: &str) -> Option<f64> {
    match text.trim() {
        "inf" | "+inf" | "infinity" => Some(f64::INFINITY),
        t => t.parse::<f64>().ok().filter(|x| x.is_finite()),
    }
}

impl Bins {
    /// A single bin that takes every rating: the puzzles are rated, none rejected.
    pub fn everything() -> Bins {
        Bins {
            bins: vec![Bin {
                lo: f64::NEG_INFINITY,
                hi: f64::INFINITY,
                share: 1.0,
            }],
        }
    }

    /// Parses a spec (see the module docs); a spec naming an existing file is read as one.
    ///
    /// # Errors
    /// [`BinError`]: the form, an empty or overlapping bin (naming it), a weight that is
    /// not positive, a file that cannot be read.
    pub fn parse(spec: &str) -> Result<Bins, BinError> {
        let form = || BinError::Form(spec.to_string());
        if std::path::Path::new(spec).is_file() {
            let text = std::fs::read_to_string(spec).map_err(|source| BinError::File {
                path: spec.to_string(),
                source,
            })?;
            return Bins::from_histogram(spec, &text);
        }
        if let Some((n, range)) = spec.split_once(':') {
            let n: usize = n.trim().parse().map_err(|_| form())?;
            let (lo, hi) = range.split_once("..").ok_or_else(form)?;
            let (lo, hi) = (number(lo).ok_or_else(form)?, number(hi).ok_or_else(form)?);
            return Bins::equal(n, lo, hi, false);
        }
        if !spec.contains(',') {
            let n: usize = spec.trim().parse().map_err(|_| form())?;
            return Bins::equal(n, 0.0, DEFAULT_TOP, true);
        }
        let edges: Vec<f64> = spec
            .split(',')
            .map(|e| number(e).ok_or_else(form))
            .collect::<Result<_, _>>()?;
        let rows = edges.windows(2).map(|w| (w[0], w[1], 1.0)).collect();
        Bins::weighted(rows)
    }

    /// `n` equal-width bins over `lo..hi`, the last open above when `open`.
    fn equal(n: usize, lo: f64, hi: f64, open: bool) -> Result<Bins, BinError> {
        if !(1..=1000).contains(&n) {
            return Err(BinError::Bad(format!("{n} bins: give 1 to 1000")));
        }
        if hi.is_infinite() && n > 1 {
            return Err(BinError::Bad(
                "equal bins up to inf: give a finite top, or edges ending in inf".into(),
            ));
        }
        // Edge `i` as `lo + (hi - lo) · i / n`, so `3` bins over 0..3 end at 1 and 2, and
        // 5 at 0.6, 1.2, 1.8 (not 1.7999999999999998).
        let edge = |i: usize| lo + (hi - lo) * i as f64 / n as f64;
        let rows = (0..n)
            .map(|i| {
                let top = if i + 1 == n { hi } else { edge(i + 1) };
                let top = if i + 1 == n && open {
                    f64::INFINITY
                } else {
                    top
                };
                (edge(i), top, 1.0)
            })
            .collect();
        Bins::weighted(rows)
    }

    /// Reads `lo,hi,weight` rows (see the module docs).
    fn from_histogram(path: &str, text: &str) -> Result<Bins, BinError> {
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if line.trim().is_empty()
                || (i == 0 && fields.get(2).is_some_and(|w| number(w).is_none()))
            {
                continue;
            }
            let bad = || BinError::Bad(format!("{path}:{}: expected lo,hi,weight", i + 1));
            let [lo, hi, w] = fields[..] else {
                return Err(bad());
            };
            let lo = number(lo).filter(|x| x.is_finite()).ok_or_else(bad)?;
            rows.push((lo, number(hi).ok_or_else(bad)?, number(w).ok_or_else(bad)?));
        }
        if rows.is_empty() {
            return Err(BinError::Bad(format!("{path}: no lo,hi,weight rows")));
        }
        Bins::weighted(rows)
    }

    /// Bins from `(lo, hi, weight)` rows, checked.
    fn weighted(rows: Vec<(f64, f64, f64)>) -> Result<Bins, BinError> {
        if rows.is_empty() {
            return Err(BinError::Bad("no bins: give at least two edges".into()));
        }
        let total: f64 = rows.iter().map(|r| r.2).sum();
        let mut bins: Vec<Bin> = Vec::with_capacity(rows.len());
        for (lo, hi, w) in rows {
            let bin = Bin {
                lo,
                hi,
                share: w / total,
            };
            if lo >= hi {
                return Err(BinError::Bad(format!(
                    "bin {bin} is empty: each edge must be above the one before"
                )));
            }
            if !(w > 0.0 && w.is_finite()) {
                return Err(BinError::Bad(format!(
                    "bin {bin}: weight {w} is not a positive number"
                )));
            }
            if let Some(prev) = bins.last().filter(|p| p.hi > lo) {
                return Err(BinError::Bad(format!(
                    "bins {prev} and {bin} overlap: give them in rising order"
                )));
            }
            bins.push(bin);
        }
        Ok(Bins { bins })
    }

    /// The bin `rating` falls in, if any.
    pub fn bin_of(&self, rating: f64) -> Option<usize> {
        self.bins
            .iter()
            .position(|b| b.lo <= rating && rating < b.hi)
    }

    /// How many of rows `start..end` of a run go to each bin: the difference of the
    /// cumulative counts at `end` and `start`, where the first `m` rows hold
    /// `floor(m · S_b) - floor(m · S_{b-1})` of bin `b` (`S_b`: the shares of bins `0..=b`
    /// summed, the last taken as exactly 1). Each bin's count over any rows is within one
    /// of its share, and the counts add up to `end - start`.
    pub fn quotas(&self, start: u64, end: u64) -> Vec<u64> {
        let cumulative = |m: u64| -> Vec<u64> {
            let mut s = 0.0;
            let n = self.bins.len();
            let mut upto: Vec<u64> = self
                .bins
                .iter()
                .map(|b| {
                    s += b.share;
                    (m as f64 * s).floor() as u64
                })
                .collect();
            upto[n - 1] = m;
            let mut prev = 0;
            upto.iter_mut().for_each(|u| {
                *u = (*u).clamp(prev, m);
                prev = *u;
            });
            let mut out = vec![0; n];
            let mut before = 0;
            for (o, u) in out.iter_mut().zip(&upto) {
                *o = u - before;
                before = *u;
            }
            out
        };
        let (a, b) = (cumulative(start), cumulative(end));
        a.iter().zip(&b).map(|(a, b)| b - a).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_to_their_bins() {
        let b = Bins::parse("3").unwrap();
        assert_eq!(b.bins.len(), 3);
        assert_eq!((b.bins[0].lo, b.bins[0].hi), (0.0, 1.0));
        let five = Bins::parse("5").unwrap();
        assert_eq!(five.bins[3].lo.to_string(), "1.8");
        assert_eq!(b.bins[2].hi, f64::INFINITY);
        assert_eq!(b.bin_of(0.0), Some(0));
        assert_eq!(b.bin_of(1.0), Some(1));
        assert_eq!(b.bin_of(9.5), Some(2));
        assert_eq!(b.bin_of(-0.5), None);
        let b = Bins::parse("2:1..3").unwrap();
        assert_eq!(b.bin_of(2.99), Some(1));
        assert_eq!(b.bin_of(3.0), None);
        let b = Bins::parse("0,0.5,2,inf").unwrap();
        assert_eq!(b.bins.len(), 3);
        assert!((b.bins[1].share - 1.0 / 3.0).abs() < 1e-12);
        for bad in ["", "x", "0", "2:1", "3,1", "0,1,1", "2:0..inf", "1,a"] {
            assert!(Bins::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn histogram_files_weigh_their_bins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.csv");
        std::fs::write(&path, "lo,hi,weight\n0,1,3\n1,inf,1\n").unwrap();
        let b = Bins::parse(path.to_str().unwrap()).unwrap();
        assert_eq!(b.bins.len(), 2);
        assert_eq!((b.bins[0].share, b.bins[1].share), (0.75, 0.25));
        std::fs::write(&path, "0,1,3\n1,2\n").unwrap();
        let e = Bins::parse(path.to_str().unwrap()).unwrap_err().to_string();
        assert!(e.ends_with("h.csv:2: expected lo,hi,weight"), "{e}");
    }

    #[test]
    fn quotas_add_up_and_stay_within_one_of_the_shares() {
        let b = Bins::parse("0,1,2,3,inf").unwrap();
        let rows = [(0u64, 100u64), (100, 200), (200, 250)];
        let mut total = vec![0; 4];
        for (s, e) in rows {
            let q = b.quotas(s, e);
            assert_eq!(q.iter().sum::<u64>(), e - s);
            total.iter_mut().zip(&q).for_each(|(t, q)| *t += q);
        }
        assert_eq!(total, b.quotas(0, 250));
        assert!(total.iter().all(|&t| (62..=63).contains(&t)), "{total:?}");
        let file = Bins {
            bins: vec![
                Bin {
                    lo: 0.0,
                    hi: 1.0,
                    share: 0.1,
                },
                Bin {
                    lo: 1.0,
                    hi: 2.0,
                    share: 0.9,
                },
            ],
        };
        assert_eq!(file.quotas(0, 1000), vec![100, 900]);
    }
}
