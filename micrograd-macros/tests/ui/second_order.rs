// Differentiating a gradient again: said so, with the flavours to ask for instead.
use micrograd_runtime::prelude::*;

#[differentiable]
fn rosen(x: f64, y: f64) -> f64 {
    (1.0 - x).powi(2) + 100.0 * (y - x * x).powi(2)
}

#[differentiable]
fn slope(x: f64, y: f64) -> f64 {
    rosen_grad(x, y).1
}

fn main() {}
