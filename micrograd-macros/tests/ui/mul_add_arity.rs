use micrograd_runtime::prelude::*;

#[differentiable]
fn f(a: f64, b: f64) -> f64 {
    a.mul_add(b)
}

fn main() {}
