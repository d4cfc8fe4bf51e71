use micrograd_runtime::prelude::*;

#[differentiable]
fn triple(x: f64) -> (f64, f64, f64) {
    (x * x, x.sin(), x.cos())
}

// The macro cannot see the tuple's width, so it cannot count outputs from the end.
#[differentiable]
fn f(x: f64) -> f64 {
    let (.., c) = triple(x);
    c
}

fn main() {}
