use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Params {
    w: Vec<f64>,
    b: f64,
}

#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    let q = p;
    x * p.b + p.w[0]
}

fn main() {}
