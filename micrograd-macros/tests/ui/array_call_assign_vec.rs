use micrograd_runtime::prelude::*;

#[differentiable]
fn step(h: &[f64]) -> [f64; 2] {
    [h[0] * h[1], h[0] + h[1]]
}

// A `Vec` does not say how many outputs `step` returns: one error at `h`.
#[differentiable]
fn f(x: &[f64]) -> f64 {
    let mut h = vec![x[0], x[1]];
    h = step(&h);
    h[0]
}

fn main() {}
