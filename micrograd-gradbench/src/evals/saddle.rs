//! `saddle`: the saddle point of `(x₁² + y₁²) - (x₂² + y₂²)` by gradient descent, as
//! min over `p₁ = (x₁, y₁)` of max over `p₂ = (x₂, y₂)` (Pearlmutter and Siskind's nested-AD
//! benchmark).
//!
//! The inner argmax is gradient ascent written as a `#[differentiable]` loop whose steps call
//! `objective_grad` (reverse mode inside) or `objective_jvp` along each axis (forward mode
//! inside); the outer argmin differentiates that whole ascent with respect to `p₁`, `_grad`
//! (reverse outside) or `_jvp` (forward outside). The four functions `rr`, `rf`, `fr`, `ff`
//! name the outer mode, then the inner one; the final argmax over `p₂` uses the outer mode.

use super::descent::{argmax, argmin};
use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input: the starting point of every descent, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// Where both searches start.
    pub start: [f64; 2],
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The function whose saddle point is sought. Its gradient is taken in `p₂` only (the inner
/// ascent's variable); the outer descent differentiates it in `p₁` through that gradient.
#[differentiable(hvp, wrt(x2, y2))]
pub fn objective(x1: f64, y1: f64, x2: f64, y2: f64) -> f64 {
    (x1 * x1 + y1 * y1) - (x2 * x2 + y2 * y2)
}

/// max over `p₂` of `objective(p₁, p₂)`, by gradient ascent from `(s0, s1)` as
/// [`super::descent::argmax`] does it, each step's gradient from `objective_grad`.
#[differentiable(jvp, wrt(x1, y1))]
pub fn max_reverse_inside(x1: f64, y1: f64, s0: f64, s1: f64) -> f64 {
    let (mut x2, mut y2) = (s0, s1);
    // Ascent on the objective is descent on its negation.
    let mut fx = -objective(x1, y1, x2, y2);
    let (_, g0, g1) = objective_grad(x1, y1, x2, y2);
    let (mut gx, mut gy) = (-g0, -g1);
    let mut i = 0;
    let mut eta = 1e-5;
    loop {
        if (gx * gx + gy * gy).sqrt() <= 1e-5 {
            break;
        } else if i == 10 {
            eta *= 2.0;
            i = 0;
        } else {
            let next_x = x2 - eta * gx;
            let next_y = y2 - eta * gy;
            if ((x2 - next_x) * (x2 - next_x) + (y2 - next_y) * (y2 - next_y)).sqrt() <= 1e-5 {
                break;
            }
            let f_next = -objective(x1, y1, next_x, next_y);
            if f_next < fx {
                x2 = next_x;
                y2 = next_y;
                fx = f_next;
                let (_, g0, g1) = objective_grad(x1, y1, x2, y2);
                gx = -g0;
                gy = -g1;
                i += 1;
            } else {
                eta /= 2.0;
                i = 0;
            }
        }
    }
    objective(x1, y1, x2, y2)
}

/// [`max_reverse_inside`] with each step's gradient from `objective_jvp` along each axis.
#[differentiable(jvp, wrt(x1, y1))]
pub fn max_forward_inside(x1: f64, y1: f64, s0: f64, s1: f64) -> f64 {
    let (mut x2, mut y2) = (s0, s1);
    let mut fx = -objective(x1, y1, x2, y2);
    let (_, g0) = objective_jvp(x1, y1, x2, 1.0, y2, 0.0);
    let (_, g1) = objective_jvp(x1, y1, x2, 0.0, y2, 1.0);
    let (mut gx, mut gy) = (-g0, -g1);
    let mut i = 0;
    let mut eta = 1e-5;
    loop {
        if (gx * gx + gy * gy).sqrt() <= 1e-5 {
            break;
        } else if i == 10 {
            eta *= 2.0;
            i = 0;
        } else {
            let next_x = x2 - eta * gx;
            let next_y = y2 - eta * gy;
            if ((x2 - next_x) * (x2 - next_x) + (y2 - next_y) * (y2 - next_y)).sqrt() <= 1e-5 {
                break;
            }
            let f_next = -objective(x1, y1, next_x, next_y);
            if f_next < fx {
                x2 = next_x;
                y2 = next_y;
                fx = f_next;
                let (_, g0) = objective_jvp(x1, y1, x2, 1.0, y2, 0.0);
                let (_, g1) = objective_jvp(x1, y1, x2, 0.0, y2, 1.0);
                gx = -g0;
                gy = -g1;
                i += 1;
            } else {
                eta /= 2.0;
                i = 0;
            }
        }
    }
    objective(x1, y1, x2, y2)
}

/// The four functions: the outer mode, then the inner one.
pub const MODES: [&str; 4] = ["rr", "rf", "fr", "ff"];

/// The saddle point `(x₁, y₁, x₂, y₂)` found from `start` with the mode pair `function`.
pub fn solve(function: &str, start: [f64; 2]) -> Option<[f64; 4]> {
    let [s0, s1] = start;
    let p1 = match function {
        "rr" => argmin(
            |p| max_reverse_inside(p[0], p[1], s0, s1),
            |p| {
                let (_, d0, d1) = max_reverse_inside_grad(p[0], p[1], s0, s1);
                [d0, d1]
            },
            start,
        ),
        "rf" => argmin(
            |p| max_forward_inside(p[0], p[1], s0, s1),
            |p| {
                let (_, d0, d1) = max_forward_inside_grad(p[0], p[1], s0, s1);
                [d0, d1]
            },
            start,
        ),
        "fr" => argmin(
            |p| max_reverse_inside(p[0], p[1], s0, s1),
            |p| {
                let d0 = max_reverse_inside_jvp(p[0], 1.0, p[1], 0.0, s0, s1).1;
                let d1 = max_reverse_inside_jvp(p[0], 0.0, p[1], 1.0, s0, s1).1;
                [d0, d1]
            },
            start,
        ),
        "ff" => argmin(
            |p| max_forward_inside(p[0], p[1], s0, s1),
            |p| {
                let d0 = max_forward_inside_jvp(p[0], 1.0, p[1], 0.0, s0, s1).1;
                let d1 = max_forward_inside_jvp(p[0], 0.0, p[1], 1.0, s0, s1).1;
                [d0, d1]
            },
            start,
        ),
        _ => return None,
    };
    let [x1, y1] = p1;
    // The argmax at the found p₁, in the outer mode.
    let objective_at = |p: &[f64; 2]| objective(x1, y1, p[0], p[1]);
    let p2 = match function.as_bytes()[0] {
        b'r' => argmax(
            objective_at,
            |p| {
                let (_, d0, d1) = objective_grad(x1, y1, p[0], p[1]);
                [d0, d1]
            },
            start,
        ),
        _ => argmax(
            objective_at,
            |p| {
                let d0 = objective_jvp(x1, y1, p[0], 1.0, p[1], 0.0).1;
                let d1 = objective_jvp(x1, y1, p[0], 0.0, p[1], 1.0).1;
                [d0, d1]
            },
            start,
        ),
    };
    Some([x1, y1, p2[0], p2[1]])
}

/// `rr`, `rf`, `fr` or `ff` at `input`: the saddle point, `p₁` then `p₂`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let Input { start, runs } = parse(input)?;
    if !MODES.contains(&function) {
        return unknown("saddle", function);
    }
    let (point, timings) = repeat(runs, || solve(function, start));
    done(point, timings)
}
