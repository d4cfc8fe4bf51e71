use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    let mut s = 0.0;
    let items = w.iter();
    for v in items {
        s += v * s;
    }
    s
}

fn main() {}
