use micrograd_runtime::prelude::*;

#[differentiable(wrt(w, pts))]
fn f(w: &[f64], pts: &[[f64; 2]]) -> f64 {
    w[0] * pts[0][0] + w[1] * pts[0][1]
}

fn main() {}
