use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let n = x as usize;
    n as f64
}

fn main() {}
