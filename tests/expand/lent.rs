use micrograd_runtime::prelude::*;

/// Writes `w` in place.
#[differentiable]
fn squash(w: &mut [f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).tanh();
        s += w[i];
    }
    s * a
}

/// A local array lent to `squash` in a loop, the call a statement: the forward sweep records
/// the entries each call is lent, and the reverse sweep hands them back to `squash_pullback`
/// with the adjoint of the entries after the call, which it turns into theirs before.
#[differentiable]
fn lends(x: f64, w: &mut [f64]) -> f64 {
    let mut h = [x, w[0], 0.5];
    for k in 0..3 {
        squash(&mut h, x + k as f64);
    }
    squash(w, h[1]) + h[0] * h[2]
}
