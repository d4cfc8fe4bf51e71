use micrograd_runtime::prelude::*;

#[differentiable(crate = 42)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
