use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    let doubled = w.iter().map(|x| x * 2.0);
    w[0]
}

fn main() {}
