use micrograd_runtime::prelude::*;

#[differentiable(wrt(w, rows))]
fn f(w: &[f64], rows: &[&[f64]]) -> f64 {
    w[0] * rows[0][0] + w[1] * rows[0][1]
}

fn main() {}
