use micrograd_runtime::prelude::*;

// An `f32` function: the first `f64` in its body is the one error.
#[differentiable]
fn f(x: f32) -> f32 {
    let k: f64 = 2.0;
    x * k * std::f64::consts::PI + 1.0f64
}

fn main() {}
