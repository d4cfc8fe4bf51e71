use micrograd_runtime::prelude::*;

#[differentiable]
fn total(w: &[f64]) -> f64 {
    w[0] + w[1]
}

#[differentiable]
fn f(w: &mut [f64]) -> f64 {
    w[0] = w[1] * 2.0;
    total(w) + total(&w[1..])
}

fn main() {}
