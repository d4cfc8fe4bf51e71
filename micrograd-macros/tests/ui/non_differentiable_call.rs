use micrograd_runtime::prelude::*;

fn g(x: f64) -> f64 {
    x * x
}

#[differentiable]
fn f(x: f64) -> f64 {
    g(x) + 1.0
}

fn main() {}
