use micrograd_runtime::prelude::*;

/// A neuron written in `f32` throughout: its types, literals, casts and constants print as
/// `f32`, and the constants the reverse sweep folds (`0.1 * 0.3`) are folded in `f32`.
#[differentiable]
fn neuron32(w: &[f32], x: &[f32], b: f32, n: usize) -> f32 {
    let mut s: f32 = b;
    for i in 0..n {
        s += w[i] * x[i];
    }
    let scaled = s * 0.1 * 0.3 + f32::EPSILON;
    let wave = (scaled * std::f32::consts::PI).sin() + scaled.exp2();
    (wave / n as f32).relu() + 2f32 * b.powi(3)
}
