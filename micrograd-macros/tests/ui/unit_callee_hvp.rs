use micrograd_runtime::prelude::*;

/// Returns `()`: its outputs are what it writes into `out`.
#[differentiable(jvp)]
fn squares(x: &[f64], out: &mut [f64]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i];
    }
}

// `f_grad`, `f_pullback` and `f_jvp` go through the call; `hvp` does not yet: one error at the
// call, saying what to write.
#[differentiable(hvp)]
fn fit(x: &[f64]) -> f64 {
    let mut r = [0.0; 2];
    squares(x, &mut r);
    r[0] * r[1]
}

fn main() {}
