use micrograd_runtime::prelude::*;

const WEIGHTS: [f64; 3] = [0.5, 0.25, 0.25];

// A `const` array is read through a parameter: iterating it where it is defined is refused,
// once, saying how to hand it in.
#[differentiable]
fn f(x: f64) -> f64 {
    WEIGHTS.iter().map(|w| w * x).sum::<f64>()
}

fn main() {}
