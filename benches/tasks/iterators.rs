//! T6 `iterators`: the same functions written with iterator chains and closures and with index
//! loops, whose generated gradients should cost the same (issue 12: within 1.1x).
//!
//! - a dot product `Σ wᵢ xᵢ` of two slices of length `n`;
//! - a logistic loss over `m` rows of `d` features, `(1/m) Σ_r ln(1 + exp(-y_r w·x_r))`.

use micrograd_runtime::prelude::*;

/// The sizes of the dot product.
pub const SIZES: [usize; 2] = [100, 10_000];

/// Rows and features of the logistic loss.
pub const ROWS: usize = 200;
/// Features per row.
pub const FEATURES: usize = 8;

/// The dot product with `zip`, `map` and `sum`.
#[differentiable(wrt(w))]
pub fn dot_iter(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>()
}

/// The dot product with an index loop: the same function (starting from -0.0, as `Sum` does,
/// and stopping at the shorter slice, as `zip` does).
#[differentiable(wrt(w))]
pub fn dot_loop(w: &[f64], x: &[f64]) -> f64 {
    let mut s = -0.0;
    for i in 0..w.len().min(x.len()) {
        s += w[i] * x[i];
    }
    s
}

/// The logistic loss with `chunks`, `zip`, closures and nested sums.
#[differentiable(wrt(w))]
pub fn logistic_iter(w: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    xs.chunks(w.len())
        .zip(ys)
        .map(|(x, &y)| {
            let z = x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
            (1.0 + (-y * z).exp()).ln()
        })
        .sum::<f64>()
        / ys.len() as f64
}

/// The logistic loss with index loops.
#[differentiable(wrt(w))]
pub fn logistic_loop(w: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let d = w.len();
    let mut total = -0.0;
    for r in 0..ys.len() {
        let mut z = -0.0;
        for j in 0..d {
            z += xs[r * d + j] * w[j];
        }
        total += (1.0 + (-ys[r] * z).exp()).ln();
    }
    total / ys.len() as f64
}

/// `(w, x)` for the dot product of length `n`.
pub fn dot_inputs(n: usize) -> (Vec<f64>, Vec<f64>) {
    (
        super::uniform(n, 11 + n as u64, -1.0, 1.0),
        super::uniform(n, 13 + n as u64, -1.0, 1.0),
    )
}

/// `(w, xs, ys)` for the logistic loss, labels ±1.
pub fn logistic_inputs() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let w = super::uniform(FEATURES, 17, -0.5, 0.5);
    let xs = super::uniform(ROWS * FEATURES, 19, -1.0, 1.0);
    let ys = super::uniform(ROWS, 23, -1.0, 1.0)
        .into_iter()
        .map(|y| if y < 0.0 { -1.0 } else { 1.0 })
        .collect();
    (w, xs, ys)
}

/// Asserts that both spellings give the same values bit for bit and the same gradients.
pub fn check() {
    for n in SIZES {
        let (w, x) = dot_inputs(n);
        let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
        let (va, vb) = (dot_iter_grad(&w, &mut a, &x), dot_loop_grad(&w, &mut b, &x));
        assert_eq!(va.to_bits(), vb.to_bits(), "dot values");
        super::assert_close("dot_iter", &a, &b);
    }
    let (w, xs, ys) = logistic_inputs();
    let (mut a, mut b) = (vec![0.0; FEATURES], vec![0.0; FEATURES]);
    let va = logistic_iter_grad(&w, &mut a, &xs, &ys);
    let vb = logistic_loop_grad(&w, &mut b, &xs, &ys);
    assert_eq!(va.to_bits(), vb.to_bits(), "logistic values");
    super::assert_close("logistic_iter", &a, &b);
}
