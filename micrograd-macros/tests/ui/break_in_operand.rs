use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut y = x;
    for _ in 0..4 {
        y = y * if y > 1.0 { break } else { 2.0 };
    }
    y
}

fn main() {}
