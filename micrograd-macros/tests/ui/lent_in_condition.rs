use micrograd_runtime::prelude::*;

#[differentiable]
fn squash(w: &mut [f64], a: f64) -> f64 {
    w[0] = (w[0] * a).tanh();
    w[0] + w[1]
}

// The reverse sweep does not run a `while` condition, nor the right side of `&&` / `||`.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut h = [x, 1.0];
    while squash(&mut h, x) > 1.5 {
        h[1] *= 0.5;
    }
    if x > 0.0 && squash(&mut h, 2.0) > 1.0 {
        return h[0];
    }
    h[0] * x
}

fn main() {}
