use micrograd_runtime::prelude::*;

#[differentiable(jvp)]
fn square(x: f64) -> f64 {
    x * x
}

// The caller's Hessian-vector product goes through the callee's second order: `square` has
// forward mode but needs `hvp` too. One error, at the call.
#[differentiable(hvp)]
fn outer(x: f64) -> f64 {
    square(x) + x
}

fn main() {}
