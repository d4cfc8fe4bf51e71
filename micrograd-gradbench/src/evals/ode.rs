//! `ode`: cmpad's `an_ode`, solved by `s` steps of fourth-order Runge-Kutta over [0, 2], and
//! the gradient of the solution's last entry with respect to the coefficients.
//!
//! y₀' = x₀ and yᵢ' = xᵢ yᵢ₋₁ for i > 0, with y(0) = 0.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input: the coefficients, the number of steps, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The coefficients xᵢ.
    pub x: Vec<f64>,
    /// The number of Runge-Kutta steps.
    pub s: usize,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// Solves the ODE from y(0) = 0 to t = 2 in `s` steps, writing y(2) into `y`, and returns its
/// last entry.
///
/// The right-hand side is written out at each of the four stages: the helper
/// `ode_rhs(x, y, dy)` the stages would share is refused, since the arrays it reads change
/// after the call (the next stage writes `y_tmp`, the step's end `y`).
#[differentiable]
pub fn runge_kutta(x: &[f64], s: usize, y: &mut [f64]) -> f64 {
    let n = x.len();
    let h = 2.0 / s as f64;
    let mut k1 = vec![0.0; n];
    let mut k2 = vec![0.0; n];
    let mut k3 = vec![0.0; n];
    let mut k4 = vec![0.0; n];
    let mut y_tmp = vec![0.0; n];
    for i in 0..n {
        y[i] = 0.0;
    }
    for _ in 0..s {
        k1[0] = x[0];
        for i in 1..n {
            k1[i] = x[i] * y[i - 1];
        }
        for i in 0..n {
            y_tmp[i] = y[i] + h * k1[i] / 2.0;
        }
        k2[0] = x[0];
        for i in 1..n {
            k2[i] = x[i] * y_tmp[i - 1];
        }
        for i in 0..n {
            y_tmp[i] = y[i] + h * k2[i] / 2.0;
        }
        k3[0] = x[0];
        for i in 1..n {
            k3[i] = x[i] * y_tmp[i - 1];
        }
        for i in 0..n {
            y_tmp[i] = y[i] + h * k3[i];
        }
        k4[0] = x[0];
        for i in 1..n {
            k4[i] = x[i] * y_tmp[i - 1];
        }
        for i in 0..n {
            y[i] += h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
        }
    }
    y[n - 1]
}

/// `primal` (y(2), from `runge_kutta`) or `gradient` (of y(2)'s last entry, from
/// `runge_kutta_grad`) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let Input { x, s, runs } = parse(input)?;
    if x.is_empty() || s == 0 {
        return Err("x must not be empty, nor s zero".into());
    }
    let mut y = vec![0.0; x.len()];
    match function {
        "primal" => {
            let (_, timings) = repeat(runs, || runge_kutta(&x, s, &mut y));
            done(y, timings)
        }
        "gradient" => {
            let mut d_x = vec![0.0; x.len()];
            let mut d_y = vec![0.0; x.len()];
            let (_, timings) = repeat(runs, || {
                d_x.fill(0.0);
                d_y.fill(0.0);
                runge_kutta_grad(&x, &mut d_x, s, &mut y, &mut d_y)
            });
            done(d_x, timings)
        }
        _ => unknown("ode", function),
    }
}
