use micrograd_runtime::prelude::*;

/// Forward mode: a branch, a loop over a slice, a `tanh`.
#[differentiable(jvp)]
fn jvp_case(a: f64, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += a * w[i];
    }
    let y = if s > 0.0 { s.tanh() } else { s.relu() };
    y * a
}

/// Reverse over forward: `f_hvp` and the tangent flavors a caller would use.
#[differentiable(hvp)]
fn hvp_case(x: f64, y: f64) -> f64 {
    let r = x * y + x.powi(2);
    r.sin()
}

/// The dense Hessian, one `f_hvp` per row, written into a buffer.
#[differentiable(hessian)]
fn hessian_case(a: f64, w: &[f64]) -> f64 {
    let mut s = a * a;
    for i in 0..w.len() {
        s += (a * w[i]).sin();
    }
    s
}
