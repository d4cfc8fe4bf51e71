use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f32 {
    x as f32
}

fn main() {}
