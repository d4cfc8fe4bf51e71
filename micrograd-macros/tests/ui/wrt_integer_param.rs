use micrograd_runtime::prelude::*;

#[differentiable(wrt(x, n))]
fn f(x: f64, n: i32) -> f64 {
    x.powi(n)
}

fn main() {}
