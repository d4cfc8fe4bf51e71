use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    for i in 0..w.len() {
        if w[i] > 0.0 {
            return w[i];
        }
    }
    0.0
}

fn main() {}
