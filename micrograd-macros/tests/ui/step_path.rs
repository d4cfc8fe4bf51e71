use micrograd_runtime::prelude::*;

fn double(x: f64) -> f64 {
    2.0 * x
}

// A path where a closure goes must name a method of `f64` that takes what the adaptor passes.
#[differentiable]
fn f(w: &[f64]) -> f64 {
    let a = w.iter().copied().map(double).sum::<f64>();
    let b = w.iter().copied().fold(0.0, f64::exp);
    let c = w.iter().copied().map(f64::rem_euclid).sum::<f64>();
    a + b + c
}

fn main() {}
