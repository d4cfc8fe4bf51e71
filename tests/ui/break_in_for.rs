use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut y = x;
    for _ in 0..10 {
        if y > 10.0 {
            break;
        }
        y = y * 2.0;
    }
    y
}

fn main() {}
