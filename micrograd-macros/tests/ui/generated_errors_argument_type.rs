use micrograd_runtime::prelude::*;

#[differentiable(hessian)]
fn helper(x: f64) -> f64 {
    x * x
}

// A helper given an integer: rustc's error in `f`, and the generated code's at the same call,
// never at the attribute.
#[differentiable(hessian)]
fn f(x: f64, n: usize) -> f64 {
    helper(n) * x
}

fn main() {}
