use micrograd_runtime::prelude::*;

#[differentiable(hvp)]
fn squash(w: &mut [f64], a: f64) -> f64 {
    w[0] = (w[0] * a).tanh();
    w[0] + w[1]
}

// `graph` does not go through a call lent an array as `&mut` (`hessian` does).
#[differentiable(hessian, graph)]
fn f(x: f64) -> f64 {
    let mut h = [x, 1.0];
    squash(&mut h, x);
    h[0] * x
}

fn main() {}
