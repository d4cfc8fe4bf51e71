use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f32) -> f64 {
    x as f64
}

fn main() {}
