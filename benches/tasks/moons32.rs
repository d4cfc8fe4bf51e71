//! T3 in `f32`: micrograd's demo loss (`moons::moons_loss`, same network, layout and data)
//! written in `f32` throughout. `benches/gradients.rs` times its gradient against the `f64`
//! one; `tests/flavours/f32_network.rs` checks it and trains with it.
//!
//! The loss is written once over a float type, so that the test can instantiate its `f64`
//! twin as the reference: `demo_loss!(name, f32)`.

use micrograd_runtime::prelude::*;

/// Defines `#[differentiable(wrt(p))] pub fn $name(p, xs, ys) -> $T`: the mean hinge loss
/// `(1 - y·score).relu()` of the 2-16-16-1 ReLU network over the points, plus `1e-4 · Σ p²`.
macro_rules! demo_loss {
    ($name:ident, $T:ident) => {
        #[doc = concat!("micrograd's demo loss in `", stringify!($T), "`.")]
        #[differentiable(wrt(p))]
        pub fn $name(p: &[$T], xs: &[$T], ys: &[$T]) -> $T {
            let mut total = 0.0;
            for s in 0..ys.len() {
                let x0 = xs[2 * s];
                let x1 = xs[2 * s + 1];
                let mut h1 = [0.0; 16];
                for j in 0..16 {
                    h1[j] = (p[3 * j + 2] + p[3 * j] * x0 + p[3 * j + 1] * x1).relu();
                }
                let mut h2 = [0.0; 16];
                for k in 0..16 {
                    let mut a = p[48 + 17 * k + 16];
                    for j in 0..16 {
                        a += p[48 + 17 * k + j] * h1[j];
                    }
                    h2[k] = a.relu();
                }
                let mut score = p[336];
                for k in 0..16 {
                    score += p[320 + k] * h2[k];
                }
                total += (1.0 - ys[s] * score).relu();
            }
            let mut reg = 0.0;
            for i in 0..p.len() {
                reg += p[i] * p[i];
            }
            total / ys.len() as $T + 1e-4 * reg
        }
    };
}

demo_loss!(moons_loss32, f32);

/// `v` rounded to `f32`.
pub fn narrow(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}
