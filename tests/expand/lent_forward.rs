use micrograd_runtime::prelude::*;

/// Writes `w` in place and reads it back.
#[differentiable(hvp)]
fn squash(w: &mut [f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).tanh();
        s += w[i];
    }
    s * a
}

/// A local array lent to `squash` in forward mode and second order: its tangent is lent
/// beside it, and `squash_tangent` runs instead of `squash`, once, returning the value and the
/// tangent; `lends_hvp` records the entries of both and hands them to
/// `squash_tangent_pullback` with the adjoints of both results.
#[differentiable(jvp, hvp)]
fn lends(x: f64, y: f64) -> f64 {
    let mut h = [x, y];
    let s = squash(&mut h, y);
    s * h[0] + h[1]
}
