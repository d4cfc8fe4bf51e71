use micrograd_runtime::prelude::*;

// The signature's first float is `f32`: the `f64` of `b` is the one error, and the body's
// `as f64` (which follows from it) is not reported again.
#[differentiable]
fn f(w: &[f32], b: f64) -> f32 {
    w[0] * b as f64
}

fn main() {}
