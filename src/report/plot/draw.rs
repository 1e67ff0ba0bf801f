//! The two shapes every chart is drawn in: bars (one or several series side by side per
//! label) and lines (a series of points per name). Each returns the whole SVG text.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use super::{PlotError, SIZE};

/// Gap between the bars of two labels, pixels, on each side.
const GAP: i32 = 2;

/// A bar chart: one group of bars per label, a bar per series in the group.
pub(super) struct Bars<'a> {
    /// Caption.
    pub title: &'a str,
    /// Axis titles.
    pub x_desc: &'a str,
    /// Axis titles.
    pub y_desc: &'a str,
    /// One label per group, left to right.
    pub labels: Vec<String>,
    /// `(name, one value per label)`; the name goes in a legend when there are two or more.
    pub series: Vec<(String, Vec<f64>)>,
    /// A horizontal reference line at this value (a ratio's 1.0), if any.
    pub rule: Option<f64>,
    /// Decimals of the y-axis labels (0 for counts).
    pub y_decimals: usize,
}

/// One series of counts, a bar per `(label, count)`, in order.
///
/// # Errors
/// [`PlotError::Draw`] when plotters refuses (a bug in the ranges).
pub(super) fn counts(
    title: &str,
    (x_desc, y_desc): (&str, &str),
    bars: Vec<(String, u64)>,
) -> Result<String, PlotError> {
    let (labels, values) = bars.into_iter().map(|(l, c)| (l, c as f64)).unzip();
    self::bars(&Bars {
        title,
        x_desc,
        y_desc,
        labels,
        series: vec![(y_desc.to_string(), values)],
        rule: None,
        y_decimals: 0,
    })
}

/// The colour of series `k`: the first is blue (tests find its bars by that fill).
fn colour(k: usize) -> RGBAColor {
    match k {
        0 => BLUE.mix(0.7),
        1 => RGBColor(230, 120, 0).mix(0.8),
        _ => Palette99::pick(k).mix(0.8),
    }
}

/// Draws `b`. Bars of value 0 are not drawn; the y axis starts at 0 and ends a tenth above
/// the highest bar (or the rule), a third above when there is a legend.
///
/// # Errors
/// [`PlotError::Draw`] when plotters refuses (a bug in the ranges).
pub(super) fn bars(b: &Bars) -> Result<String, PlotError> {
    let draw = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
    let top = b
        .series
        .iter()
        .flat_map(|s| &s.1)
        .copied()
        .chain(b.rule)
        .fold(0.0_f64, f64::max);
    // Headroom above the highest bar: a tenth, or a third when a legend needs the room.
    let headroom = if b.series.len() > 1 { 1.35 } else { 1.1 };
    let top = if top > 0.0 { top * headroom } else { 1.0 };
    let n = u32::try_from(b.labels.len()).map_err(|e| draw(&e))?.max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(b.title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            // An integer range's segments include its end: 0..n-1 gives the n groups.
            .build_cartesian_2d((0..n - 1).into_segmented(), 0.0..top)
            .map_err(|e| draw(&e))?;
        let label = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                b.labels.get(*i as usize).cloned().unwrap_or_default()
            }
            SegmentValue::Last => String::new(),
        };
        let decimals = b.y_decimals;
        // The bars of a group share its segment: each series gets an equal slice of it,
        // set by pixel margins, so labels stay centred under their group.
        let at = |i: u32| chart.backend_coord(&(SegmentValue::Exact(i), 0.0)).0;
        let segment_px = at(1) - at(0);
        // Labels shrink (to 8 px at least) rather than run into each other.
        let longest = b
            .labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(1);
        let font = (f64::from(segment_px) / (longest.max(1) as f64 * 0.55)).clamp(8.0, 12.0);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(b.labels.len().max(1))
            .x_label_style(("sans-serif", font))
            .axis_desc_style(("sans-serif", 12))
            .x_label_formatter(&label)
            .y_label_formatter(&|v| format!("{v:.decimals$}"))
            .x_desc(b.x_desc)
            .y_desc(b.y_desc)
            .draw()
            .map_err(|e| draw(&e))?;
        // The bars of a group share its segment: each series gets an equal slice of it,
        // set by pixel margins, so labels stay centred under their group.
        let segment_px =
            i32::try_from(chart.plotting_area().dim_in_pixel().0 / n).map_err(|e| draw(&e))?;
        let k = i32::try_from(b.series.len().max(1)).map_err(|e| draw(&e))?;
        let slice = ((segment_px - 2 * GAP) / k).max(1);
        for (s, (name, values)) in b.series.iter().enumerate() {
            let style = colour(s).filled();
            let si = i32::try_from(s).map_err(|e| draw(&e))?;
            // Rectangles one by one, in order (plotters' Histogram series gathers bars in
            // a hash map, whose order would change the file's bytes from run to run).
            let drawn =
                chart
                    .draw_series(values.iter().enumerate().filter(|(_, v)| **v > 0.0).map(
                        |(i, &v)| {
                            let i = u32::try_from(i).expect("fewer bars than u32::MAX");
                            let mut bar = Rectangle::new(
                                [
                                    (SegmentValue::Exact(i), 0.0),
                                    (SegmentValue::Exact(i + 1), v),
                                ],
                                style,
                            );
                            let left = GAP + si * slice;
                            let right = (segment_px - left - slice).max(GAP);
                            bar.set_margin(0, 0, left.unsigned_abs(), right.unsigned_abs());
                            bar
                        },
                    ))
                    .map_err(|e| draw(&e))?;
            if b.series.len() > 1 {
                drawn
                    .label(name.as_str())
                    .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], style));
            }
        }
        if let Some(r) = b.rule {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(SegmentValue::Exact(0), r), (SegmentValue::Exact(n), r)],
                    BLACK.stroke_width(1),
                )))
                .map_err(|e| draw(&e))?;
        }
        if b.series.len() > 1 {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(|e| draw(&e))?;
        }
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// A line per `(name, points)`, points as `(x, y)` in rising x, with a dot at each point
/// and a legend of the names.
///
/// # Errors
/// [`PlotError::Draw`] when plotters refuses (a bug in the ranges).
pub(super) fn lines(
    title: &str,
    (x_desc, y_desc): (&str, &str),
    lines: &[(String, Vec<(u32, f64)>)],
) -> Result<String, PlotError> {
    let draw = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
    let max_x = lines
        .iter()
        .flat_map(|l| &l.1)
        .map(|p| p.0)
        .max()
        .unwrap_or(1);
    let top = lines
        .iter()
        .flat_map(|l| &l.1)
        .map(|p| p.1)
        .fold(0.0_f64, f64::max)
        .max(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(88)
            .build_cartesian_2d(0..max_x + 1, 0.0..top * 1.1)
            .map_err(|e| draw(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(|e| draw(&e))?;
        for (k, (name, points)) in lines.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(|e| draw(&e))?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(|e| draw(&e))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}
