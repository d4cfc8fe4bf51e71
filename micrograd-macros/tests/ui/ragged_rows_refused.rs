use micrograd_runtime::prelude::*;

#[differentiable(wrt(w))]
fn total(w: &[Vec<f64>]) -> f64 {
    w[0][0]
}

// Rows of their own lengths, differentiated: a sub-slice of the rows stays refused, at the
// sub-slice, also where it is passed to a call.
#[differentiable(wrt(w))]
fn tail(w: &[Vec<f64>]) -> f64 {
    let rest = &w[1..];
    rest[0][0]
}

#[differentiable(wrt(w))]
fn tail_to_call(w: &[Vec<f64>]) -> f64 {
    total(&w[1..])
}

#[differentiable(wrt(v, w))]
fn pair(v: &[Vec<f64>], w: &[Vec<f64>]) -> f64 {
    v[0][0] * w[0][0]
}

#[differentiable(wrt(w))]
fn twice(w: &[Vec<f64>]) -> f64 {
    pair(w, w)
}

fn main() {}
