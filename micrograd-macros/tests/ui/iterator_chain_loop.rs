use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in w.iter().map(|v| v * 2.0) {
        s += v;
    }
    s
}

fn main() {}
