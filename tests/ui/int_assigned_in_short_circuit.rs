use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut k: usize = 1;
    if x > 0.0 || {
        k = k + 1;
        x * 2.0
    } > 1.0
    {
        return x * (k as f64);
    }
    x
}

fn main() {}
