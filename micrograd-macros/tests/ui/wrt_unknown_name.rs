use micrograd_runtime::prelude::*;

#[differentiable(wrt(y))]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
