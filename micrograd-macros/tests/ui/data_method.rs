use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64, scale: Option<f64>) -> f64 {
    x * scale.unwrap_or(1.0)
}

fn main() {}
