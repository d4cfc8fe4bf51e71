use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) {
    let _ = x * x;
}

fn main() {}
