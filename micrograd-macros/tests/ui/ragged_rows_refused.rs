use micrograd_runtime::prelude::*;

#[differentiable(wrt(w))]
fn total(w: &[Vec<f64>]) -> f64 {
    w[0][0]
}

#[differentiable]
fn sum(w: &[f64]) -> f64 {
    w.iter().sum::<f64>()
}

// Rows of their own lengths, differentiated: sub-slices of the rows, the rows passed whole,
// and `f_jacobian` stay refused, one error each.
#[differentiable(wrt(w))]
fn tail(w: &[Vec<f64>]) -> f64 {
    let rest = &w[1..];
    rest[0][0]
}

#[differentiable(wrt(w))]
fn whole(w: &[Vec<f64>]) -> f64 {
    total(w)
}

#[differentiable(jacobian, wrt(w))]
fn pair(w: &[Vec<f64>]) -> [f64; 2] {
    [w[0][0] * w[1][0], sum(&w[1])]
}

fn main() {}
