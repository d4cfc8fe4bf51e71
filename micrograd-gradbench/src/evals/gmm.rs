//! `gmm`: the log posterior of a Gaussian mixture with a Wishart prior on the precision
//! matrices (ADBench's objective, with GradBench's fixes), and its gradient.
//!
//! Component k has the weight softmax(α)ₖ, the mean μₖ and the precision QₖᵀQₖ, where Qₖ is
//! lower triangular with exp(qₖ) on its diagonal and lₖ below it, column by column.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::f64::consts::PI;

/// The eval's input: the parameters, the data and the prior, each row a `Vec`.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The dimension D of the space.
    pub d: usize,
    /// The number of components K.
    pub k: usize,
    /// The number of points N.
    pub n: usize,
    /// The weights' parametrization, K entries.
    pub alpha: Vec<f64>,
    /// The means, K rows of D.
    pub mu: Vec<Vec<f64>>,
    /// The logarithms of Q's diagonals, K rows of D.
    pub q: Vec<Vec<f64>>,
    /// Q's strictly lower triangles, column by column, K rows of D(D-1)/2.
    pub l: Vec<Vec<f64>>,
    /// The points, N rows of D.
    pub x: Vec<Vec<f64>>,
    /// The Wishart prior's additional degrees of freedom.
    pub m: usize,
    /// The Wishart prior's precision.
    pub gamma: f64,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The gradient, in the input's layout: one row per component.
#[derive(Debug, Serialize)]
pub struct Gradient {
    /// ∂F/∂α.
    pub alpha: Vec<f64>,
    /// ∂F/∂μ, K rows of D.
    pub mu: Vec<Vec<f64>>,
    /// ∂F/∂q, K rows of D.
    pub q: Vec<Vec<f64>>,
    /// ∂F/∂l, K rows of D(D-1)/2.
    pub l: Vec<Vec<f64>>,
}

/// log Σ exp(vᵢ), with the max subtracted first: detached, as in `lse` (the value is the same
/// for any shift, so no gradient goes through it, and the reverse sweep does not walk its fold).
#[differentiable]
pub fn logsumexp(v: &[f64]) -> f64 {
    let a = v.iter().copied().fold(f64::NEG_INFINITY, f64::max).detach();
    let s = v.iter().map(|&vi| (vi - a).exp()).sum::<f64>();
    a + s.ln()
}

/// The log posterior F. `mu`, `q` and `l` are their rows laid end to end (a differentiated
/// `&[Vec<f64>]` is not taken yet), the points `x` one row each (data); `log_gamma_d` is
/// log Γ_D(n/2) with n = D + m + 1, a constant of the prior.
#[differentiable(wrt(alpha, mu, q, l))]
#[allow(clippy::too_many_arguments)]
pub fn gmm_objective(
    alpha: &[f64],
    mu: &[f64],
    q: &[f64],
    l: &[f64],
    x: &[Vec<f64>],
    d: usize,
    m: usize,
    gamma: f64,
    log_gamma_d: f64,
) -> f64 {
    let k = alpha.len();
    let n = x.len();
    let tri = d * (d - 1) / 2;
    let q_diag: Vec<f64> = q.iter().map(|&v| v.exp()).collect();
    let sum_q: Vec<f64> = q.chunks(d).map(|c| c.iter().sum::<f64>()).collect();

    // Qₖ's strictly lower triangle row by row (l holds it column by column), so that each entry
    // of Qₖ (xᵢ - μₖ) is one dot product over a contiguous row: sums in a register, no column
    // updates of short, vectorized and guarded loops
    let mut l_rows = vec![0.0; k * tri];
    for c in 0..k {
        for col in 0..d {
            for row in col + 1..d {
                l_rows[c * tri + (row * row - row) / 2 + col] =
                    l[c * tri + col * (2 * d - col - 1) / 2 + row - col - 1];
            }
        }
    }

    // βᵢₖ = αₖ + Σⱼ qₖⱼ - ½ ‖Qₖ (xᵢ - μₖ)‖²
    let mut beta = vec![0.0; n * k];
    for c in 0..k {
        let mu_c = &mu[c * d..][..d];
        let q_c = &q_diag[c * d..][..d];
        let l_c = &l_rows[c * tri..][..tri];
        for i in 0..n {
            let xi = &x[i];
            let mut norm = 0.0;
            for row in 0..d {
                let start = (row * row - row) / 2;
                let l_row = &l_c[start..start + row];
                let mut y = q_c[row] * (xi[row] - mu_c[row]);
                for col in 0..row {
                    y += l_row[col] * (xi[col] - mu_c[col]);
                }
                norm += y * y;
            }
            beta[i * k + c] = alpha[c] + sum_q[c] - 0.5 * norm;
        }
    }
    let mut likelihood = 0.0;
    for i in 0..n {
        likelihood += logsumexp(&beta[i * k..(i + 1) * k]);
    }

    // log of the Wishart prior's density at each precision matrix, summed
    let mut prior = 0.0;
    for c in 0..k {
        let mut frobenius = 0.0;
        for j in 0..d {
            frobenius += q_diag[c * d + j] * q_diag[c * d + j];
        }
        for j in 0..tri {
            frobenius += l[c * tri + j] * l[c * tri + j];
        }
        prior += 0.5 * gamma * gamma * frobenius - m as f64 * sum_q[c];
    }
    let dof = (d + m + 1) as f64;
    let prior_constant = dof * d as f64 * (gamma.ln() - 0.5 * 2f64.ln()) - log_gamma_d;

    -(n as f64) * (d as f64 * 0.5 * (2.0 * PI).ln() + logsumexp(alpha)) + likelihood - prior
        + k as f64 * prior_constant
}

/// log Γ(a) for a ≥ 1/2, by Lanczos' approximation (g = 7, nine terms; relative error near
/// 1e-15). Only the constant of the prior needs it.
pub fn ln_gamma(a: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let z = a - 1.0;
    let sum = C[0] + (1..9).map(|i| C[i] / (z + i as f64)).sum::<f64>();
    let t = z + G + 0.5;
    0.5 * (2.0 * PI).ln() + (z + 0.5) * t.ln() - t + sum.ln()
}

/// log Γ_D(a), the multivariate gamma function: D(D-1)/4 log π + Σⱼ log Γ(a + (1 - j)/2).
pub fn ln_multigamma(a: f64, d: usize) -> f64 {
    let d_f = d as f64;
    0.25 * d_f * (d_f - 1.0) * PI.ln()
        + (1..=d)
            .map(|j| ln_gamma(a + 0.5 * (1.0 - j as f64)))
            .sum::<f64>()
}

/// `objective` (F) or `jacobian` (its gradient, from `gmm_objective_grad`) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let input: Input = parse(input)?;
    let (d, k) = (input.d, input.k);
    let tri = d * (d - 1) / 2;
    let flat = |rows: &[Vec<f64>], width: usize, count: usize| -> Result<Vec<f64>, String> {
        if rows.len() != count || rows.iter().any(|r| r.len() != width) {
            return Err(format!("expected {count} rows of {width}"));
        }
        Ok(rows.concat())
    };
    let alpha = input.alpha;
    let mu = flat(&input.mu, d, k)?;
    let q = flat(&input.q, d, k)?;
    let l = flat(&input.l, tri, k)?;
    let x = input.x;
    if x.len() != input.n || x.iter().any(|r| r.len() != d) {
        return Err(format!("expected {} points of {d}", input.n));
    }
    if alpha.len() != k || d == 0 {
        return Err(format!("expected {k} weights and a positive dimension"));
    }
    let (m, gamma) = (input.m, input.gamma);
    let log_gamma_d = ln_multigamma(0.5 * (d + m + 1) as f64, d);
    match function {
        "objective" => {
            let (value, timings) = repeat(input.runs, || {
                gmm_objective(&alpha, &mu, &q, &l, &x, d, m, gamma, log_gamma_d)
            });
            done(value, timings)
        }
        "jacobian" => {
            let mut d_alpha = vec![0.0; alpha.len()];
            let mut d_mu = vec![0.0; mu.len()];
            let mut d_q = vec![0.0; q.len()];
            let mut d_l = vec![0.0; l.len()];
            let (_, timings) = repeat(input.runs, || {
                for shadow in [&mut d_alpha, &mut d_mu, &mut d_q, &mut d_l] {
                    shadow.fill(0.0);
                }
                gmm_objective_grad(
                    &alpha,
                    &mut d_alpha,
                    &mu,
                    &mut d_mu,
                    &q,
                    &mut d_q,
                    &l,
                    &mut d_l,
                    &x,
                    d,
                    m,
                    gamma,
                    log_gamma_d,
                )
            });
            let rows = |flat: &[f64], width: usize| -> Vec<Vec<f64>> {
                (0..k)
                    .map(|c| flat[c * width..(c + 1) * width].to_vec())
                    .collect()
            };
            let gradient = Gradient {
                mu: rows(&d_mu, d),
                q: rows(&d_q, d),
                l: rows(&d_l, tri),
                alpha: d_alpha,
            };
            done(gradient, timings)
        }
        _ => unknown("gmm", function),
    }
}
