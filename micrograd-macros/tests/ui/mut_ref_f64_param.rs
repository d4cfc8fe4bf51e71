use micrograd_runtime::prelude::*;

#[differentiable]
fn g(x: f64, y: &mut f64) -> f64 {
    *y = x;
    x
}

// A `&mut f64` is written in place, but not yet passed on to another function.
#[differentiable]
fn f(x: f64, y: &mut f64) -> f64 {
    g(x, y) + g(x, &mut *y)
}

fn main() {}
