use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let y = 2.0 * loop {
        if x > 1.0 {
            return x;
        }
        break x * 2.0;
    };
    y
}

fn main() {}
