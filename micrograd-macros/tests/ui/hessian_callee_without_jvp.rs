use micrograd_runtime::prelude::*;

#[differentiable]
fn square(x: f64) -> f64 {
    x * x
}

// `square` has neither forward mode nor second order, and the caller's Hessian needs both:
// still one error at the call, naming the first option missing.
#[differentiable(hessian)]
fn outer(x: f64, y: f64) -> f64 {
    square(x) * y
}

fn main() {}
