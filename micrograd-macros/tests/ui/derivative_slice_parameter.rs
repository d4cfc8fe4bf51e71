use micrograd_runtime::prelude::*;

#[differentiable]
fn rule(x: f64, w: &[f64]) -> f64 {
    x * w[0]
}

// A rule returns one `f64` partial, so slices are refused.
#[differentiable(derivative(x = rule))]
fn f(x: f64, w: &[f64]) -> f64 {
    x * w.iter().sum::<f64>()
}

fn main() {}
