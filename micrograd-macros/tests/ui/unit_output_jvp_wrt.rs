use micrograd_runtime::prelude::*;

// `f_jvp` of a function writing its outputs writes the tangents of the `&mut` parameters
// `wrt(..)` lists: listing none of them leaves it no tangent to write.
#[differentiable(jvp, wrt(x, s))]
fn f(x: &[f64], s: f64, extra: &mut [f64], out: &mut [f64]) {
    for i in 0..x.len() {
        extra[i] = s * x[i];
        out[i] = extra[i] * x[i];
    }
}

// Listing one of them is enough: `extra` is written as `f` writes it, with no tangent.
#[differentiable(jvp, wrt(x, out))]
fn g(x: &[f64], extra: &mut [f64], out: &mut [f64]) {
    for i in 0..x.len() {
        extra[i] = x[i] * x[i];
        out[i] = extra[i] + x[i];
    }
}

fn main() {}
