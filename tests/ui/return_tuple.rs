use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> (f64, f64) {
    (x, x * x)
}

fn main() {}
