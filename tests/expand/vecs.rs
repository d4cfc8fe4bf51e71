use micrograd_runtime::prelude::*;

/// A local `Vec` of run-time length: `f_grad` allocates it where `f` does, and its adjoint, a
/// `Vec` of the same length, once; the paths `f64::max` and `f64::exp` stand for closures.
#[differentiable]
fn softmax_max(x: &[f64]) -> f64 {
    let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut e = vec![0.0; x.len()];
    for i in 0..x.len() {
        e[i] = x[i] - m;
    }
    let (s, c) = m.sin_cos();
    e.iter().copied().map(f64::exp).sum::<f64>() * s + c.to_degrees()
}
