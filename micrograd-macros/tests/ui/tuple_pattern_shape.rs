use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let (a, b, c) = (x, x * x);
    a + b * c
}

fn main() {}
