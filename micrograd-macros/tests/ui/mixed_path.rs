use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f32, w: &[f32]) -> f32 {
    x * f64::EPSILON + w.iter().sum::<f32>()
}

fn main() {}
