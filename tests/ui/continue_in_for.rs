use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        if w[i] < 0.0 {
            continue;
        }
        s += w[i];
    }
    s
}

fn main() {}
