//! micrograd's demo picture as one SVG file: a classifier's decision regions with its data on
//! top, beside the training loss and accuracy.
//!
//! The SVG is written as text, with no drawing or font library: the viewer renders the text.
//! The regions are a small image of the classifier's score, shaded deeper where the score is
//! larger and smoothed by the viewer's scaling; the decision boundary over it is the score's zero
//! level, traced by marching squares on the same grid. Both axes of the regions have the same
//! scale, so the moons keep their shape.
//!
//! ```
//! use micrograd_runtime::data::make_moons;
//! use micrograd_runtime::plot::{Curves, decision_boundary_svg};
//!
//! let data = make_moons(50, 0.1, 1);
//! // Any classifier's score: here a straight line.
//! let svg = decision_boundary_svg(|x, y| 0.25 - y + 0.1 * x, &data, Curves::default());
//! assert!(svg.starts_with("<svg") && svg.contains("data:image/png;base64,"));
//! ```

mod contour;
mod curves;
mod png;
mod svg;

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::data::Dataset;
use contour::Samples;
use svg::{Frame, SMALL, Svg};

/// Width and height of the picture in pixels.
const SIZE: (f64, f64) = (1200.0, 575.0);
/// The region panel's box; the data ranges grow to fill it at equal scale.
const REGIONS: (f64, f64, f64, f64) = (80.0, 70.0, 600.0, 400.0);
/// Pixels between the grid's nodes: the score is evaluated at about 27,000 points.
const GRID_STEP: f64 = 3.0;
/// Light and strong shades of each class, `-1` then `+1` (ColorBrewer's RdBu).
const REGION_SHADES: [[u8; 3]; 2] = [[244, 165, 130], [146, 197, 222]];
const POINT_COLOURS: [&str; 2] = ["#CA0020", "#0571B0"];
const BOUNDARY: &str = "#222222";
/// Levels of shading per class in the image's palette.
const LEVELS: usize = 64;

/// Why [`decision_boundary`] could not write its file.
///
/// ```
/// use micrograd_runtime::data::make_moons;
/// use micrograd_runtime::plot::{Curves, decision_boundary};
///
/// let path = "no/such/directory/boundary.svg";
/// let data = make_moons(10, 0.1, 0);
/// let error = decision_boundary(path, |x, _| x, &data, Curves::default()).unwrap_err();
/// assert!(error.to_string().contains("no/such/directory/boundary.svg"));
/// ```
#[derive(Debug)]
pub enum PlotError {
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
            PlotError::Write { path, source } => {
                write!(f, "cannot write the plot to {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for PlotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlotError::Write { source, .. } => Some(source),
        }
    }
}

/// The training curves to draw: the loss and the accuracy (a fraction) of each step. Either may
/// be empty; the title reports the last step of each.
///
/// ```
/// use micrograd_runtime::plot::Curves;
///
/// let (losses, accuracies) = (vec![0.9, 0.5, 0.2], vec![0.5, 0.8, 0.95]);
/// let curves = Curves { losses: &losses, accuracies: &accuracies };
/// assert_eq!(curves.title(), "after 3 steps: loss 0.2000, accuracy 95%");
/// let halves = Curves { losses: &[], accuracies: &[0.875] };
/// assert_eq!(halves.title(), "after 1 step: accuracy 87.5%");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Curves<'a> {
    /// The loss of each step.
    pub losses: &'a [f64],
    /// The fraction of points classified correctly at each step, in `[0, 1]`.
    pub accuracies: &'a [f64],
}

impl Curves<'_> {
    /// What the picture's title says of training: the final loss (four significant digits)
    /// and accuracy.
    ///
    /// ```
    /// use micrograd_runtime::plot::Curves;
    ///
    /// let curves = Curves { losses: &[1.0, 0.012345], accuracies: &[0.5, 1.0] };
    /// assert_eq!(curves.title(), "after 2 steps: loss 0.01235, accuracy 100%");
    /// ```
    pub fn title(&self) -> String {
        let steps = self.losses.len().max(self.accuracies.len());
        let mut parts = Vec::new();
        if let Some(loss) = self.losses.last() {
            parts.push(format!("loss {}", significant(*loss, 4)));
        }
        if let Some(accuracy) = self.accuracies.last() {
            parts.push(format!("accuracy {}%", percent(*accuracy)));
        }
        if parts.is_empty() {
            return String::new();
        }
        let noun = if steps == 1 { "step" } else { "steps" };
        format!("after {steps} {noun}: {}", parts.join(", "))
    }
}

/// Writes micrograd's demo picture to `path` as SVG; see [`decision_boundary_svg`].
///
/// ```
/// use micrograd_runtime::data::make_moons;
/// use micrograd_runtime::plot::{Curves, decision_boundary};
///
/// let data = make_moons(100, 0.1, 1337);
/// let (losses, accuracies) = ([1.0, 0.6, 0.4, 0.35], [0.5, 0.7, 0.8, 0.85]);
/// let path = std::env::temp_dir().join("micrograd-runtime-doc-boundary.svg");
/// let curves = Curves { losses: &losses, accuracies: &accuracies };
/// decision_boundary(&path, |x, y| 0.25 - y + 0.1 * x, &data, curves)?;
/// assert!(std::fs::read_to_string(&path)?.contains("<circle"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`PlotError::Write`], naming `path`, if the file cannot be written (a missing directory, say).
pub fn decision_boundary(
    path: impl AsRef<Path>,
    score: impl Fn(f64, f64) -> f64,
    data: &Dataset,
    curves: Curves<'_>,
) -> Result<(), PlotError> {
    let path = path.as_ref();
    std::fs::write(path, decision_boundary_svg(score, data, curves)).map_err(|source| {
        PlotError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// micrograd's demo picture as SVG text. On the left, the plane around `data` shaded by the sign
/// of `score(x, y)` (deeper where the score is larger), the decision boundary `score = 0` as a
/// line, and the points coloured by label; on the right, the loss (log scale) and the accuracy
/// against the step. A score of 0 or NaN counts as the `-1` side, as in
/// [`accuracy`](crate::data::accuracy); non-finite losses are left out of the curve.
///
/// ```
/// use micrograd_runtime::data::make_moons;
/// use micrograd_runtime::plot::{Curves, decision_boundary_svg};
///
/// let data = make_moons(50, 0.1, 7);
/// let svg = decision_boundary_svg(|x, y| 0.25 - y + 0.1 * x, &data, Curves::default());
/// assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
/// assert_eq!(svg.matches("<circle").count(), 50 + 2); // the points and the legend's two
/// ```
pub fn decision_boundary_svg(
    score: impl Fn(f64, f64) -> f64,
    data: &Dataset,
    curves: Curves<'_>,
) -> String {
    let mut svg = Svg::new(SIZE.0, SIZE.1);
    let title = format!("Decision boundary {}", curves.title());
    svg.text((SIZE.0 / 2.0, 38.0), 22.0, "middle", &title);
    let frame = region_frame(data);
    draw_regions(&mut svg, &frame, &score);
    draw_points(&mut svg, &frame, data);
    legend(&mut svg, frame.left, SIZE.1 - 22.0);
    curves::draw(&mut svg, curves);
    svg.finish()
}

/// The region panel's frame: the data's bounding box with a margin, widened along one axis so
/// that a unit of x and a unit of y take the same number of pixels.
fn region_frame(data: &Dataset) -> Frame {
    let (left, top, width, height) = REGIONS;
    let x = bounds(data.points.iter().map(|p| p[0]));
    let y = bounds(data.points.iter().map(|p| p[1]));
    let margin = 0.08 * (x.end - x.start).max(y.end - y.start);
    let span = |r: &Range<f64>| r.end - r.start + 2.0 * margin;
    let pixels_per_unit = (width / span(&x)).min(height / span(&y));
    let centred = |r: &Range<f64>, pixels: f64| {
        let (middle, half) = ((r.start + r.end) / 2.0, pixels / pixels_per_unit / 2.0);
        (middle - half)..(middle + half)
    };
    Frame {
        left,
        top,
        width,
        height,
        x: centred(&x, width),
        y: centred(&y, height),
    }
}

/// The smallest range holding the finite `values`; `-1..1` when there are none, and a unit
/// span around a single value.
fn bounds(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    match (low, high) {
        _ if low > high => -1.0..1.0,
        _ if low == high => (low - 0.5)..(high + 0.5),
        _ => low..high,
    }
}

/// The shaded regions as an embedded image with one pixel per grid node, and the zero level.
fn draw_regions(svg: &mut Svg, frame: &Frame, score: &dyn Fn(f64, f64) -> f64) {
    let columns = (frame.width / GRID_STEP).round() as usize + 1;
    let rows = (frame.height / GRID_STEP).round() as usize + 1;
    let node = |i: usize, j: usize| {
        let x = frame.x.start + (frame.x.end - frame.x.start) * i as f64 / (columns - 1) as f64;
        let y = frame.y.end - (frame.y.end - frame.y.start) * j as f64 / (rows - 1) as f64;
        (x, y)
    };
    // Row 0 is the top, as an image's rows are.
    let values = (0..rows)
        .flat_map(|j| (0..columns).map(move |i| (i, j)))
        .map(|(i, j)| {
            let (x, y) = node(i, j);
            score(x, y)
        })
        .collect();
    let samples = Samples {
        columns,
        rows,
        values,
    };
    let (dx, dy) = (
        frame.width / (columns - 1) as f64,
        frame.height / (rows - 1) as f64,
    );
    // Each pixel is centred on its node, so the image reaches half a pixel past the frame.
    svg.raw(format!(
        r#"<clipPath id="regions"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
        frame.left, frame.top, frame.width, frame.height
    ));
    svg.raw(format!(
        r#"<image clip-path="url(#regions)" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" preserveAspectRatio="none" href="data:image/png;base64,{}"/>"#,
        frame.left - dx / 2.0,
        frame.top - dy / 2.0,
        frame.width + dx,
        frame.height + dy,
        png::base64(&shaded_image(&samples))
    ));
    for line in contour::zero_level(&samples) {
        let points: Vec<(f64, f64)> = line
            .iter()
            .map(|&(i, j)| (frame.left + i * dx, frame.top + j * dy))
            .collect();
        svg.polyline(&points, BOUNDARY, 2.5);
    }
}

/// The PNG of the regions: each class's shade, from light at the boundary to strong where
/// `|score|` passes the hinge's margin of 1.
fn shaded_image(samples: &Samples) -> Vec<u8> {
    let mut palette = Vec::with_capacity(2 * LEVELS);
    for shade in REGION_SHADES {
        for level in 0..LEVELS {
            let strength = 0.1 + 0.6 * level as f64 / (LEVELS - 1) as f64;
            palette.push(shade.map(|c| mix(255.0, f64::from(c), strength)));
        }
    }
    let pixels: Vec<u8> = samples
        .values
        .iter()
        .map(|&s| {
            let class = usize::from(s > 0.0);
            let confidence = if s.is_finite() { s.abs().tanh() } else { 0.0 };
            (class * LEVELS + (confidence * (LEVELS - 1) as f64).round() as usize) as u8
        })
        .collect();
    png::encode(&png::Indexed {
        width: samples.columns,
        height: samples.rows,
        palette: &palette,
        pixels: &pixels,
    })
}

fn mix(from: f64, to: f64, t: f64) -> u8 {
    (from + (to - from) * t).round() as u8
}

fn draw_points(svg: &mut Svg, frame: &Frame, data: &Dataset) {
    for (p, label) in data.points.iter().zip(&data.labels) {
        let colour = POINT_COLOURS[usize::from(*label > 0.0)];
        svg.raw(format!(
            r#"<circle cx="{:.1}" cy="{:.1}" r="5.5" fill="{colour}" stroke="white" stroke-width="1.2"/>"#,
            frame.px(p[0]),
            frame.py(p[1])
        ));
    }
    frame.border(svg);
    frame.x_axis(svg, &svg::ticks(&frame.x, 8), "x");
    frame.y_axis(svg, &svg::ticks(&frame.y, 6), "y", 48.0);
}

/// The two classes' markers and the boundary's line, in one row at `(left, y)`.
fn legend(svg: &mut Svg, left: f64, y: f64) {
    let mut x = left;
    for (colour, label) in POINT_COLOURS.iter().zip(["label −1", "label +1"]) {
        svg.raw(format!(
            r#"<circle cx="{:.1}" cy="{:.1}" r="6" fill="{colour}" stroke="white" stroke-width="1.2"/>"#,
            x + 6.0,
            y - 5.0
        ));
        svg.text((x + 18.0, y), SMALL, "start", label);
        x += 110.0;
    }
    svg.line((x, y - 5.0), (x + 30.0, y - 5.0), BOUNDARY, 2.5);
    svg.text(
        (x + 38.0, y),
        SMALL,
        "start",
        "decision boundary (score = 0)",
    );
}

/// A fraction as a percentage: `100`, `87.5`.
fn percent(fraction: f64) -> String {
    let value = fraction * 100.0;
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

/// `x` with `digits` significant digits, without an exponent: `0.01098`, `100`.
fn significant(x: f64, digits: i32) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x}");
    }
    let decimals = (digits - 1 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}
