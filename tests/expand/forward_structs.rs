use micrograd_runtime::prelude::*;

/// A parameter struct in forward mode and second order: its tangent `v_l: &Layer` follows it,
/// and `f_hvp` adds `H v` into the shadow `d_l: &mut Layer`.
#[differentiable(hvp)]
fn neuron(l: &Layer, x: &[f64]) -> f64 {
    let mut s = l.b;
    for i in 0..l.w.len() {
        s += l.w[i] * x[i];
    }
    s.tanh()
}
