use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Params {
    w: Vec<f64>,
    k: f64,
}

// `p.k as f64` reads `p.k` as an integer (a cast of an `f64` to `f64` has a derivative, which
// the cast of an integer has not): an error at the field, never a derivative left out.
#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    let n = p.k as f64;
    p.w[0] * x * n
}

fn main() {}
