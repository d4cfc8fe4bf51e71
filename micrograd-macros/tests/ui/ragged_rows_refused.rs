use micrograd_runtime::prelude::*;

#[differentiable(wrt(w))]
fn total(w: &[Vec<f64>]) -> f64 {
    w[0][0]
}

// Rows of their own lengths, differentiated: sub-slices of the rows and the rows passed whole
// stay refused, one error each.
#[differentiable(wrt(w))]
fn tail(w: &[Vec<f64>]) -> f64 {
    let rest = &w[1..];
    rest[0][0]
}

#[differentiable(wrt(w))]
fn whole(w: &[Vec<f64>]) -> f64 {
    total(w)
}

fn main() {}
