use micrograd_runtime::prelude::*;

#[differentiable]
fn dot(w: &[f64], x: &[f64]) -> f64 {
    w[0] * x[0] + w[1] * x[1]
}

#[differentiable]
fn f(w: &[f64], pts: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    for i in 0..pts.len() {
        s += dot(w, &pts[i]);
    }
    s
}

fn main() {}
