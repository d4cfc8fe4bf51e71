use micrograd_runtime::prelude::*;

const A: f64 = 1.5;
const B: f64 = 2.0;

#[differentiable]
fn f(x: f64) -> f64 {
    x * (A * B)
}

fn main() {}
