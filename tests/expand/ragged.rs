use micrograd_runtime::prelude::*;

/// A matrix-vector product over rows of their own lengths (issue 24): `a: &[Vec<f64>]`, listed
/// in `wrt(..)`, and its shadow `d_a: &mut [Vec<f64>]` are read in place, `a[i][j]` as written,
/// through `micrograd_runtime::ragged::Ragged`.
#[differentiable(wrt(a, x))]
fn matvec(a: &[Vec<f64>], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        let mut y = 0.0;
        for j in 0..a[i].len() {
            y += a[i][j] * x[j];
        }
        s += y * y;
    }
    s
}

#[differentiable(hvp, hessian)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>()
}

/// Rows passed to a helper, a `for` over the rows and one over a row's entries, with `f_hvp`
/// and `f_hessian`.
#[differentiable(hvp, hessian, wrt(w, x))]
fn rows_through_helper(w: &[Vec<f64>], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += dot(&w[i], x);
        for &v in &w[i] {
            s += v * x[0];
        }
    }
    for row in w {
        s += row.iter().map(|v| v.sin()).sum::<f64>();
    }
    s
}
