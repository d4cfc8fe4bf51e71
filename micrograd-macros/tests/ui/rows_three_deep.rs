use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut t = [[[0.0; 2]; 2]; 2];
    t[0][1][1] = x;
    t[0][1][1] * x
}

fn main() {}
