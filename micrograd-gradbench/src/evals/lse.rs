//! `lse`: LogSumExp with the max subtracted first, and its gradient.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input: the vector, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The vector whose LogSumExp is asked for.
    pub x: Vec<f64>,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// log Σ exp(xᵢ), computed as a + log Σ exp(xᵢ - a) with a = max x, so no exponential overflows.
///
/// The shift `a` is detached, as JAX's `logsumexp` stops the gradient at its max: the value is
/// the same for any `a`, so its derivative along `a` is zero (1 - Σ softmax, rounding alone),
/// and the reverse sweep neither records the fold of `f64::max` nor walks it back.
#[differentiable]
pub fn logsumexp(x: &[f64]) -> f64 {
    let a = x.iter().copied().fold(f64::NEG_INFINITY, f64::max).detach();
    let s = x.iter().map(|&xi| (xi - a).exp()).sum::<f64>();
    a + s.ln()
}

/// `primal` (the value) or `gradient` (from `logsumexp_grad`) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let Input { x, runs } = parse(input)?;
    match function {
        "primal" => {
            let (value, timings) = repeat(runs, || logsumexp(&x));
            done(value, timings)
        }
        "gradient" => {
            let mut d_x = vec![0.0; x.len()];
            let (_, timings) = repeat(runs, || {
                d_x.fill(0.0);
                logsumexp_grad(&x, &mut d_x)
            });
            done(d_x, timings)
        }
        _ => unknown("lse", function),
    }
}
