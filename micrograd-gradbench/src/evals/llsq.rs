//! `llsq`: the linear least-squares objective of cmpad's `llsq_obj`, and its gradient.
//!
//! y(x) = ½ Σᵢ (sᵢ - Σⱼ xⱼ tᵢʲ)², with tᵢ = -1 + 2i / (n - 1) and sᵢ = sign(tᵢ).

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input: the coefficients, the number of points, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The polynomial's coefficients, lowest degree first.
    pub x: Vec<f64>,
    /// The number of points tᵢ.
    pub n: usize,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The objective y(x) over `n` points evenly spaced in [-1, 1].
#[differentiable]
pub fn llsq(x: &[f64], n: usize) -> f64 {
    let mut sum = 0.0;
    for i in 0..n {
        let t = -1.0 + i as f64 * 2.0 / (n as f64 - 1.0);
        // sign(t), 0 at 0 (`f64::signum` gives 1 there)
        let s = if t > 0.0 {
            1.0
        } else if t < 0.0 {
            -1.0
        } else {
            0.0
        };
        // the polynomial by Horner's rule, fused: its reverse sweep needs t alone, where a
        // running power of t would be one more value per coefficient to keep for it
        let mut polynomial: f64 = 0.0;
        for &xj in x.iter().rev() {
            polynomial = polynomial.mul_add(t, xj);
        }
        let residual = s - polynomial;
        sum += residual * residual;
    }
    sum / 2.0
}

/// `primal` (the value) or `gradient` (from `llsq_grad`) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let Input { x, n, runs } = parse(input)?;
    match function {
        "primal" => {
            let (value, timings) = repeat(runs, || llsq(&x, n));
            done(value, timings)
        }
        "gradient" => {
            let mut d_x = vec![0.0; x.len()];
            let (_, timings) = repeat(runs, || {
                d_x.fill(0.0);
                llsq_grad(&x, &mut d_x, n)
            });
            done(d_x, timings)
        }
        _ => unknown("llsq", function),
    }
}
