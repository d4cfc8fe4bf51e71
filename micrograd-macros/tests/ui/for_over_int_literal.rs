use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut s = x;
    for n in [1, 2, 3] {
        s += x * (n as f64);
    }
    s
}

fn main() {}
