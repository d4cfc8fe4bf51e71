use micrograd_runtime::prelude::*;

#[differentiable]
fn bowl(x: f64, y: f64) -> f64 {
    x * x + 3.0 * y * y
}

// Differentiating a call of `bowl_grad` takes `bowl`'s second derivatives, which `bowl`
// has with `hvp` only. One error, at the call.
#[differentiable]
fn outer(x: f64, y: f64) -> f64 {
    let (_, gx, gy) = bowl_grad(x, y);
    gx * gy
}

fn main() {}
