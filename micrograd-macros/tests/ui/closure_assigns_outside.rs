use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    let mut count = 0.0;
    let s = w.iter().map(|x| { count += 1.0; x * 2.0 }).sum::<f64>();
    s / count
}

fn main() {}
