use micrograd_runtime::prelude::*;

#[differentiable(wrt(x), wrt(y))]
fn f(x: f64, y: f64) -> f64 {
    x * y
}

fn main() {}
