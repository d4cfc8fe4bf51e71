//! micrograd's demo picture as one SVG file: the decision regions of a trained classifier with
//! its data on top, beside the training loss.
//!
//! Only plotters' SVG backend is used, with no font library: the SVG names a font family and the
//! viewer renders the text, so nothing here needs fontconfig or freetype.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::data::Dataset;

/// Width and height of the picture in pixels.
const SIZE: (u32, u32) = (1200, 560);
/// Cells per side of the grid on which the classifier is evaluated.
const GRID: usize = 300;
/// Soft fills of the two decision regions: the ends of matplotlib's Spectral colour map (which
/// micrograd's demo uses) mixed with white, light enough for the points to stand out.
const NEGATIVE_REGION: RGBColor = RGBColor(240, 190, 196);
const POSITIVE_REGION: RGBColor = RGBColor(196, 192, 226);
/// The two ends of Spectral, for the points, which get a dark outline like matplotlib's markers.
const NEGATIVE_POINT: RGBColor = RGBColor(158, 1, 66);
const POSITIVE_POINT: RGBColor = RGBColor(94, 79, 162);
const FONT: &str = "sans-serif";

/// Why [`decision_boundary`] could not produce its file.
///
/// ```
/// use micrograd_runtime::{data::make_moons, plot::decision_boundary};
///
/// let path = std::path::Path::new("no/such/directory/boundary.svg");
/// let error = decision_boundary(path, |x, _| x, &make_moons(10, 0.1, 0), &[]).unwrap_err();
/// assert!(error.to_string().contains("no/such/directory/boundary.svg"));
/// ```
#[derive(Debug)]
pub enum PlotError {
    /// plotters failed to lay out or draw the picture.
    Draw {
        /// The file the picture was meant for.
        path: PathBuf,
        /// plotters' description of the failure.
        message: String,
    },
    /// The SVG could not be written.
    Write {
        /// The file that could not be written.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::Draw { path, message } => {
                write!(f, "cannot draw the plot for {}: {message}", path.display())
            }
            PlotError::Write { path, source } => {
                write!(f, "cannot write the plot to {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for PlotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlotError::Draw { .. } => None,
            PlotError::Write { source, .. } => Some(source),
        }
    }
}

/// Writes micrograd's demo picture to `path` as SVG: on the left, the plane coloured by the
/// sign of `score(x, y)` over the data's bounding box (with a margin), and the points of `data`
/// coloured by label; on the right, `losses` against the step number.
///
/// Non-finite losses are left out of the curve; a NaN score counts as negative, as in
/// [`accuracy`](crate::data::accuracy).
///
/// ```
/// use micrograd_runtime::{data::make_moons, plot::decision_boundary};
///
/// let data = make_moons(100, 0.1, 1337);
/// let path = std::env::temp_dir().join("micrograd-runtime-doc-boundary.svg");
/// decision_boundary(&path, |x, y| y - 0.5 * x + 0.1, &data, &[1.0, 0.6, 0.4, 0.35])?;
/// assert!(std::fs::read_to_string(&path)?.contains("<circle"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`PlotError::Write`] if the file cannot be written (a missing directory, say), and
/// [`PlotError::Draw`] if plotters fails; both name `path`.
pub fn decision_boundary(
    path: &Path,
    score: impl Fn(f64, f64) -> f64,
    data: &Dataset,
    losses: &[f64],
) -> Result<(), PlotError> {
    let svg = render(&score, data, losses).map_err(|message| PlotError::Draw {
        path: path.to_path_buf(),
        message,
    })?;
    std::fs::write(path, svg).map_err(|source| PlotError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Draws into a string rather than straight to the file, so a write failure surfaces as the
/// `std::io::Error` it is, not as a drawing error.
fn render(
    score: &dyn Fn(f64, f64) -> f64,
    data: &Dataset,
    losses: &[f64],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let body = root
            .titled("micrograd: decision boundary and training loss", (FONT, 24))
            .map_err(|e| e.to_string())?;
        let (left, right) = body.split_horizontally(SIZE.0 / 2);
        draw_regions(&left, score, data)?;
        draw_losses(&right, losses)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn draw_regions(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    score: &dyn Fn(f64, f64) -> f64,
    data: &Dataset,
) -> Result<(), String> {
    let xs = padded_range(data.points.iter().map(|p| p[0]), 0.15);
    let ys = padded_range(data.points.iter().map(|p| p[1]), 0.15);
    let mut chart = ChartBuilder::on(area)
        .caption("decision regions", (FONT, 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(40)
        .build_cartesian_2d(xs.clone(), ys.clone())
        .map_err(|e| e.to_string())?;
    let cells = region_cells(score, &xs, &ys)
        .into_iter()
        .map(|(x, y, positive)| {
            let fill = class_colour(positive, POSITIVE_REGION, NEGATIVE_REGION);
            Rectangle::new([(x.start, y.start), (x.end, y.end)], fill.filled())
        });
    chart.draw_series(cells).map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("x")
        .y_desc("y")
        .draw()
        .map_err(|e| e.to_string())?;
    // Discs first and all outlines after, so an outline is never hidden by a neighbour's disc.
    let discs = data.points.iter().zip(&data.labels).map(|(p, label)| {
        let colour = class_colour(*label > 0.0, POSITIVE_POINT, NEGATIVE_POINT);
        Circle::new((p[0], p[1]), 4, colour.filled())
    });
    chart.draw_series(discs).map_err(|e| e.to_string())?;
    let outlines = data
        .points
        .iter()
        .map(|p| Circle::new((p[0], p[1]), 4, BLACK.stroke_width(1)));
    chart.draw_series(outlines).map_err(|e| e.to_string())?;
    Ok(())
}

fn class_colour(positive: bool, if_positive: RGBColor, if_negative: RGBColor) -> RGBColor {
    if positive { if_positive } else { if_negative }
}

/// The grid's cells as `(x interval, y interval, score > 0)`, with each row's neighbouring
/// cells of one sign merged into one rectangle, which keeps the SVG small.
fn region_cells(
    score: &dyn Fn(f64, f64) -> f64,
    xs: &Range<f64>,
    ys: &Range<f64>,
) -> Vec<(Range<f64>, Range<f64>, bool)> {
    let edge = |range: &Range<f64>, i: usize| {
        range.start + (range.end - range.start) * i as f64 / GRID as f64
    };
    let mut cells = Vec::new();
    for row in 0..GRID {
        let (y0, y1) = (edge(ys, row), edge(ys, row + 1));
        let y = 0.5 * (y0 + y1);
        let sign = |column: usize| score(0.5 * (edge(xs, column) + edge(xs, column + 1)), y) > 0.0;
        let mut run_start = 0;
        let mut run_sign = sign(0);
        for column in 1..=GRID {
            let next = (column < GRID).then(|| sign(column));
            if next != Some(run_sign) {
                cells.push((edge(xs, run_start)..edge(xs, column), y0..y1, run_sign));
                run_start = column;
                run_sign = next.unwrap_or(run_sign);
            }
        }
    }
    cells
}

fn draw_losses(area: &DrawingArea<SVGBackend<'_>, Shift>, losses: &[f64]) -> Result<(), String> {
    let curve: Vec<(f64, f64)> = (0..)
        .map(f64::from)
        .zip(losses.iter().copied())
        .filter(|(_, loss)| loss.is_finite())
        .collect();
    let steps = 0.0..(losses.len().saturating_sub(1).max(1)) as f64;
    let values = padded_range(curve.iter().map(|&(_, loss)| loss), 0.05);
    let mut chart = ChartBuilder::on(area)
        .caption("training loss", (FONT, 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(steps, values)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_label_formatter(&|step| format!("{step:.0}"))
        .x_desc("step")
        .y_desc("loss")
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(LineSeries::new(curve, POSITIVE_POINT.stroke_width(2)))
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// The span of the finite `values` widened by `fraction` of itself on each side; `0..1` when
/// there are none, and a unit-wide span around a single value.
fn padded_range(values: impl Iterator<Item = f64>, fraction: f64) -> Range<f64> {
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if low > high {
        return 0.0..1.0;
    }
    let pad = if high > low {
        fraction * (high - low)
    } else {
        0.5
    };
    (low - pad)..(high + pad)
}
