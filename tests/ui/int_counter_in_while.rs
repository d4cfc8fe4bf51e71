use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64, n: usize) -> f64 {
    let mut y = x;
    let mut i = 0;
    while i < n {
        y = y * 0.5;
        i += 1;
    }
    y
}

fn main() {}
