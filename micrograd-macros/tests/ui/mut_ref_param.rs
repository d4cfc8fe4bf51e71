use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &mut Vec<f64>) -> f64 {
    w[0]
}

fn main() {}
