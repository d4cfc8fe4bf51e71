use micrograd_runtime::prelude::*;

#[differentiable]
fn rule(x: f64, y: f64, n: usize) -> f64 {
    x * y + n as f64
}

// `y` has no rule, `z` is no parameter, and `n` is an integer: three errors in one build.
#[differentiable(derivative(x = rule, z = rule, n = rule))]
fn f(x: f64, y: f64, n: usize) -> f64 {
    x * y * n as f64
}

fn main() {}
