use micrograd_runtime::prelude::*;

// A function writing its outputs has `f_pullback` and `f_jvp`, not yet the second order.
#[differentiable(hvp)]
fn f(x: &[f64], out: &mut [f64]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i];
    }
}

fn main() {}
