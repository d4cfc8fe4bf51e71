use micrograd_runtime::prelude::*;

// `f_jacobian` of a function writing its outputs differentiates the `&mut` parameters
// `wrt(..)` lists: listing none of them leaves it nothing to differentiate.
#[differentiable(jacobian, wrt(x))]
fn f(x: &[f64], out: &mut [f64]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i];
    }
}

// Nor does it take an array by value yet.
#[differentiable(jacobian)]
fn g(a: [f64; 2], out: &mut [f64]) {
    out[0] = a[0] * a[1];
}

fn main() {}
