//! Charts of CSV tables: the ratings a `rate` run wrote (a histogram of its `rating`
//! column) and the side-by-side table `scripts/bench-peers.py` keeps in
//! `benches/results/peers-tdoku.csv` (our puzzles/s over tdoku's, per dataset).

use super::draw::{self, Bars};
use super::{Chart, PlotError};

/// Columns a bench-peers table needs.
const PEER_COLUMNS: [&str; 5] = [
    "dataset",
    "first_ours_per_s",
    "first_tdoku_per_s",
    "unique_ours_per_s",
    "unique_tdoku_per_s",
];

/// The charts of a CSV table with a header, `None` when its header is neither a `rate`
/// output's (a `rating` column) nor a bench-peers table's.
///
/// # Errors
/// [`PlotError::Damaged`] for a known table with a row that cannot be read.
pub(super) fn charts(text: &str) -> Result<Option<Vec<Chart>>, PlotError> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let Ok(header) = reader.headers().cloned() else {
        return Ok(None);
    };
    let column = |name: &str| header.iter().position(|h| h == name);
    let rating = column("rating");
    let peers = PEER_COLUMNS
        .iter()
        .map(|c| column(c))
        .collect::<Option<Vec<_>>>();
    if rating.is_none() && peers.is_none() {
        return Ok(None);
    }
    let rows = reader
        .records()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PlotError::Damaged(e.to_string()))?;
    if let Some(rating) = rating {
        let ratings: Vec<f64> = rows
            .iter()
            .filter_map(|r| r.get(rating)?.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v >= 0.0)
            .collect();
        return Ok(Some(vec![rating_histogram(&ratings)?]));
    }
    let Some(at) = peers else {
        return Ok(None);
    };
    // The newest run: the rows sharing the last row's date and machine (the file keeps
    // every run appended).
    let (date, machine) = (column("date_utc"), column("machine"));
    let run = |r: &csv::StringRecord| -> [String; 2] {
        [date, machine].map(|c| c.and_then(|c| r.get(c)).unwrap_or("").to_string())
    };
    let last = rows.last().map(run).unwrap_or_default();
    let mut labels = Vec::new();
    let (mut first, mut unique) = (Vec::new(), Vec::new());
    for r in rows.iter().filter(|r| run(r) == last) {
        let num = |i: usize| -> Result<f64, PlotError> {
            r.get(at[i])
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or_else(|| {
                    PlotError::Damaged(format!("{}: not a positive number", PEER_COLUMNS[i]))
                })
        };
        // "kaggle_1m_sample.csv (puzzle column)" -> "kaggle_1m_sample": labels share little room.
        let dataset = r.get(at[0]).unwrap_or("?");
        let name = dataset.split(' ').next().unwrap_or(dataset);
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        labels.push(stem.to_string());
        first.push(num(1)? / num(2)?);
        unique.push(num(3)? / num(4)?);
    }
    let svg = draw::bars(&Bars {
        title: "Puzzles/s, ours over tdoku's (1 thread; line: as fast)",
        x_desc: "dataset",
        y_desc: "ours / tdoku",
        labels,
        series: vec![
            ("first solution".into(), first),
            ("unique (count to 2)".into(), unique),
        ],
        rule: Some(1.0),
        y_decimals: 1,
    })?;
    Ok(Some(vec![Chart { name: "peers", svg }]))
}

/// The width of a rating histogram's bins: the smallest of 0.1, 0.25, 0.5, 1, 2, 5 that
/// keeps ratings up to `max` within 24 bins.
fn bin_width(max: f64) -> f64 {
    [0.1, 0.25, 0.5, 1.0, 2.0]
        .into_iter()
        .find(|w| max / w < 24.0)
        .unwrap_or(5.0)
}

/// Puzzles per rating, in bins of equal width from 0 (labelled by where each starts).
fn rating_histogram(ratings: &[f64]) -> Result<Chart, PlotError> {
    let max = ratings.iter().copied().fold(0.0_f64, f64::max);
    let width = bin_width(max);
    let n = (max / width).floor() as usize + 1;
    let mut counts = vec![0u64; n];
    for &r in ratings {
        counts[((r / width).floor() as usize).min(n - 1)] += 1;
    }
    let bars = counts
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let from = format!("{:.2}", i as f64 * width);
            (
                from.trim_end_matches('0').trim_end_matches('.').to_string(),
                c,
            )
        })
        .collect();
    let svg = draw::counts("Puzzles per rating", ("rating (bin from)", "puzzles"), bars)?;
    Ok(Chart {
        name: "rating",
        svg,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_are_as_narrow_as_24_allow() {
        assert_eq!(bin_width(0.0), 0.1);
        assert_eq!(bin_width(2.3), 0.1);
        assert_eq!(bin_width(2.5), 0.25);
        assert_eq!(bin_width(5.9), 0.25);
        assert_eq!(bin_width(6.0), 0.5);
        assert_eq!(bin_width(200.0), 5.0);
    }

    #[test]
    fn a_table_of_neither_kind_gives_no_chart() {
        assert!(charts("record,clues\n0,23\n").unwrap().is_none());
    }
}
