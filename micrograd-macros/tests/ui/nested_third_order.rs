use micrograd_runtime::prelude::*;

#[differentiable(hvp)]
fn bowl(x: f64, y: f64) -> f64 {
    x * x * y + 3.0 * y * y
}

// The Hessian of a function of a gradient is a third derivative of `bowl`, which is not
// generated: `hvp` here is one error, at the call.
#[differentiable(hvp)]
fn outer(x: f64, y: f64) -> f64 {
    let (_, gx, gy) = bowl_grad(x, y);
    gx * gy
}

fn main() {}
