use micrograd_runtime::prelude::*;

// The data forms issue 24 leaves refused, each one error naming the type and what to write:
// tuples of floats differentiated whole (by reference and by value), rows in `f_jacobian` of
// written outputs, a matrix by value in `f_jacobian`.
#[differentiable(wrt(p))]
fn pairs(p: &[(f64, f64)], x: f64) -> f64 {
    p[0].0 * p[0].1 * x
}

#[differentiable(wrt(p))]
fn pairs_by_value(p: [(f64, f64); 2], x: f64) -> f64 {
    p[0].0 * p[1].1 * x
}

#[differentiable(jacobian, wrt(w, out))]
fn rows_written(w: &[[f64; 2]], out: &mut [f64]) {
    for i in 0..w.len() {
        out[i] = w[i][0] * w[i][1];
    }
}

#[differentiable(jacobian, wrt(w, out))]
fn ragged_written(w: &[Vec<f64>], out: &mut [f64]) {
    for i in 0..w.len() {
        out[i] = w[i][0];
    }
}

#[differentiable(jacobian, wrt(m))]
fn matrix_by_value(m: [[f64; 2]; 2]) -> [f64; 2] {
    [m[0][0] * m[1][1], m[0][1] + m[1][0]]
}

fn main() {}
