use micrograd_runtime::prelude::*;

#[differentiable(wrt(a))]
fn trace(a: &[[f64; 2]]) -> f64 {
    a[0][0] + a[1][1]
}

// Rows are passed whole (`trace(&m)`) or row by row, not in part.
#[differentiable]
fn f(x: f64) -> f64 {
    let m = [[x, 1.0], [2.0, x * x], [x, 3.0]];
    trace(&m) + trace(&m[1..])
}

fn main() {}
