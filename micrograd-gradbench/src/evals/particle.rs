//! `particle`: the control `w` that makes a charged particle, pushed by two fixed charges,
//! cross the x axis at the origin (Pearlmutter and Siskind's nested-AD benchmark).
//!
//! The force on the particle is minus the gradient of the potential in the position, so the
//! Euler integration of its path calls `potential_grad` (reverse mode inside) or
//! `potential_jvp` along each axis (forward mode inside); the argmin over `w` differentiates
//! the whole path, `_grad` (reverse outside) or `_jvp` (forward outside). The four functions
//! `rr`, `rf`, `fr`, `ff` name the outer mode, then the inner one.

use super::descent::argmin;
use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input: the starting control, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// Where the search for `w` starts.
    pub w: f64,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The electric potential at `(x0, x1)` of unit charges at `(10, 10 - w)` and `(10, 0)`.
/// Its gradient is taken in the position only; callers differentiate it in `w` too.
#[differentiable(hvp, wrt(x0, x1))]
pub fn potential(x0: f64, x1: f64, w: f64) -> f64 {
    let near = ((10.0 - x0).powi(2) + (10.0 - w - x1).powi(2)).sqrt();
    let far = ((10.0 - x0).powi(2) + (0.0 - x1).powi(2)).sqrt();
    1.0 / near + 1.0 / far
}

/// Where the particle crosses the x axis, squared: Euler steps of 0.1 from `(0, 8)` at velocity
/// `(0.75, 0)`, the acceleration minus the potential's gradient from `potential_grad`, and
/// the crossing interpolated linearly within the last step.
#[differentiable(jvp)]
pub fn miss_reverse_inside(w: f64) -> f64 {
    let (mut x0, mut x1) = (0.0, 8.0);
    let (mut v0, mut v1) = (0.75, 0.0);
    let dt = 0.1;
    loop {
        let (_, p0, p1) = potential_grad(x0, x1, w);
        x0 += dt * v0;
        x1 += dt * v1;
        if x1 <= 0.0 {
            let dt_f = -x1 / v1;
            let crossing = x0 + dt_f * v0;
            return crossing * crossing;
        }
        v0 -= dt * p0;
        v1 -= dt * p1;
    }
}

/// [`miss_reverse_inside`] with the potential's gradient from `potential_jvp` along each axis.
#[differentiable(jvp)]
pub fn miss_forward_inside(w: f64) -> f64 {
    let (mut x0, mut x1) = (0.0, 8.0);
    let (mut v0, mut v1) = (0.75, 0.0);
    let dt = 0.1;
    loop {
        let (_, p0) = potential_jvp(x0, 1.0, x1, 0.0, w);
        let (_, p1) = potential_jvp(x0, 0.0, x1, 1.0, w);
        x0 += dt * v0;
        x1 += dt * v1;
        if x1 <= 0.0 {
            let dt_f = -x1 / v1;
            let crossing = x0 + dt_f * v0;
            return crossing * crossing;
        }
        v0 -= dt * p0;
        v1 -= dt * p1;
    }
}

/// The four functions: the outer mode, then the inner one.
pub const MODES: [&str; 4] = ["rr", "rf", "fr", "ff"];

/// The control found by gradient descent from `w` with the mode pair `function` (`rr`, `rf`,
/// `fr` or `ff`: outer mode, then inner).
pub fn solve(function: &str, w: f64) -> Option<f64> {
    let [w] = match function {
        "rr" => argmin(
            |w| miss_reverse_inside(w[0]),
            |w| [miss_reverse_inside_grad(w[0]).1],
            [w],
        ),
        "rf" => argmin(
            |w| miss_forward_inside(w[0]),
            |w| [miss_forward_inside_grad(w[0]).1],
            [w],
        ),
        "fr" => argmin(
            |w| miss_reverse_inside(w[0]),
            |w| [miss_reverse_inside_jvp(w[0], 1.0).1],
            [w],
        ),
        "ff" => argmin(
            |w| miss_forward_inside(w[0]),
            |w| [miss_forward_inside_jvp(w[0], 1.0).1],
            [w],
        ),
        _ => return None,
    };
    Some(w)
}

/// `rr`, `rf`, `fr` or `ff` at `input`: the final control.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let Input { w, runs } = parse(input)?;
    if !MODES.contains(&function) {
        return unknown("particle", function);
    }
    let (w, timings) = repeat(runs, || solve(function, w));
    done(w, timings)
}
