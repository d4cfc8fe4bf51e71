use micrograd_runtime::prelude::*;

#[differentiable]
fn g(w: &[f64]) -> f64 {
    w[0]
}

// A local array of float tuples is read and written in `f`; it is not passed to calls whole,
// and its tuples hold floats only.
#[differentiable]
fn f(a: f64, b: f64) -> f64 {
    let pts = [(a, 0.0), (b, 1.0)];
    let labelled = [(0, a), (1, b)];
    g(&pts) + pts[1].0 + labelled[0].1
}

fn main() {}
