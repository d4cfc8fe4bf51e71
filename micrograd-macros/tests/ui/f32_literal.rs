use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    x * 2.0f32
}

fn main() {}
