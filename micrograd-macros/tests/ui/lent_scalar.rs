use micrograd_runtime::prelude::*;

#[differentiable]
fn total(w: &mut [f64]) -> f64 {
    w[0] + w[1]
}

// `&mut` lends a local array or a `&mut [f64]` parameter, not an `f64`.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut y = x * 2.0;
    total(&mut y)
}

fn main() {}
