use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64, n: usize) -> f64 {
    match n {
        0 => x,
        _ => x * x,
    }
}

fn main() {}
