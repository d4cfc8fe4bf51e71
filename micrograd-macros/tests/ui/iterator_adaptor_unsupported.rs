use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    w.iter().filter(|x| **x > 0.0).sum::<f64>()
}

fn main() {}
