use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let y = 3.0 * {
        if x > 0.0 {
            return x;
        }
        x * 2.0
    };
    y
}

fn main() {}
