use micrograd_runtime::prelude::*;

#[differentiable]
fn swap_scaled(a: &mut [f64], b: &mut [f64], k: f64) -> f64 {
    let t = a[0];
    a[0] = b[0] * k;
    b[0] = t * k;
    a[0] + b[0]
}

// A `&mut [f64]` parameter passed as itself beside another lent array: does the callee write it?
#[differentiable]
fn f(x: f64, w: &mut [f64]) -> f64 {
    let mut h = [x, 1.0];
    swap_scaled(&mut h, w, x) + h[0]
}

fn main() {}
