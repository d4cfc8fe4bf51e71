use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let a = [x, 1.0];
    let mut b = a;
    b[0] = 2.0;
    a[0] + b[0]
}

fn main() {}
