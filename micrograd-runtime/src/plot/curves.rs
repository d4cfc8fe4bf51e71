//! The training curves beside the regions: the loss on a log scale above the accuracy, over
//! the same steps.

use super::Curves;
use super::bounds;
use super::svg::{self, Frame, Svg};

const LOSS_COLOUR: &str = "#5E3C99";
const ACCURACY_COLOUR: &str = "#1B7837";

/// Left edge and width of both frames, in pixels.
const LEFT: f64 = 800.0;
const WIDTH: f64 = 360.0;

/// The loss (log scale) above the accuracy, both over the steps `0..=last`.
pub(super) fn draw(svg: &mut Svg, curves: Curves<'_>) {
    let steps = curves.losses.len().max(curves.accuracies.len());
    let last = steps.saturating_sub(1).max(1) as f64;
    let ticks = step_ticks(last);
    draw_loss(svg, curves.losses, last, &ticks);
    draw_accuracy(svg, curves.accuracies, last, &ticks);
}

fn draw_loss(svg: &mut Svg, losses: &[f64], last: f64, step_ticks: &[(f64, String)]) {
    let logs: Vec<f64> = losses.iter().map(|l| l.ln()).collect();
    let span = bounds(logs.iter().copied());
    let pad = 0.05 * (span.end - span.start);
    let frame = Frame {
        left: LEFT,
        top: 70.0,
        width: WIDTH,
        height: 200.0,
        x: 0.0..last,
        y: (span.start - pad)..(span.end + pad),
    };
    plot_curve(svg, &frame, &logs, LOSS_COLOUR);
    frame.border(svg);
    frame.x_axis(svg, step_ticks, "");
    frame.y_axis(svg, &svg::log_ticks(&frame.y), "loss (log scale)", 58.0);
}

/// Percentages from the tens below the lowest accuracy (at most 90%) to 100%.
fn draw_accuracy(svg: &mut Svg, accuracies: &[f64], last: f64, step_ticks: &[(f64, String)]) {
    let percents: Vec<f64> = accuracies.iter().map(|a| 100.0 * a).collect();
    let lowest = percents
        .iter()
        .copied()
        .fold(100.0, f64::min)
        .clamp(0.0, 90.0);
    let frame = Frame {
        left: LEFT,
        top: 320.0,
        width: WIDTH,
        height: 150.0,
        x: 0.0..last,
        y: (10.0 * (lowest / 10.0).floor() - 2.0)..102.0,
    };
    plot_curve(svg, &frame, &percents, ACCURACY_COLOUR);
    frame.border(svg);
    frame.x_axis(svg, step_ticks, "step");
    let percent_ticks: Vec<(f64, String)> = svg::ticks(&frame.y, 5)
        .into_iter()
        .map(|(v, t)| (v, format!("{t}%")))
        .collect();
    frame.y_axis(svg, &percent_ticks, "accuracy", 58.0);
}

/// Round steps, and the last step itself unless a round one is close to it: the axis ends at
/// the last step and says so.
fn step_ticks(last: f64) -> Vec<(f64, String)> {
    let mut ticks = svg::ticks(&(0.0..last), 5);
    let spacing = ticks.get(1).map_or(last, |t| t.0) - ticks.first().map_or(0.0, |t| t.0);
    if ticks.last().is_none_or(|t| last - t.0 > spacing / 2.0) {
        ticks.push((last, format!("{last}")));
    }
    ticks
}

/// `values[k]` at step `k`, skipping non-finite values (a gap, not a fall to the axis).
fn plot_curve(svg: &mut Svg, frame: &Frame, values: &[f64], colour: &str) {
    let mut run = Vec::new();
    for (k, v) in values.iter().enumerate() {
        if v.is_finite() {
            run.push((frame.px(k as f64), frame.py(*v)));
        } else if !run.is_empty() {
            svg.polyline(&std::mem::take(&mut run), colour, 2.5);
        }
    }
    if !run.is_empty() {
        svg.polyline(&run, colour, 2.5);
    }
}
