use micrograd_runtime::prelude::*;

#[differentiable]
fn ode_rhs(x: f64, y: &[f64], k: &mut [f64]) -> f64 {
    for i in 0..k.len() {
        k[i] = x * y[i];
    }
    0.0
}

// A `&mut [f64]` parameter passed as itself is lent, as the macro cannot see that the callee
// only reads it: with another array lent, the message says to pass `&y[..]`.
#[differentiable]
fn step(x: f64, y: &mut [f64]) -> f64 {
    let mut k1 = [0.0; 2];
    ode_rhs(x, y, &mut k1);
    k1[0] + k1[1] + y[0]
}

fn main() {}
