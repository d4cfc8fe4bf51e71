use micrograd_runtime::prelude::*;

#[differentiable(jvp)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

// Second order does not go through a function returning several values.
#[differentiable(hvp)]
fn f(x: f64, y: f64) -> f64 {
    let [a, b] = polar(x, y);
    let [_, c] = polar(y, x);
    a * b * c
}

fn main() {}
