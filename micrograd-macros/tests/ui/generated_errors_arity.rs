use micrograd_runtime::prelude::*;

#[differentiable(hessian)]
fn helper(x: f64) -> f64 {
    x * x
}

// A helper given one argument too many: every error of the generated code at the user's call.
#[differentiable]
fn f(x: f64) -> f64 {
    helper(x, x) * x
}

fn main() {}
