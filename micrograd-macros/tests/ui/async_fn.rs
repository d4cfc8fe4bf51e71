use micrograd_runtime::prelude::*;

#[differentiable]
async fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
