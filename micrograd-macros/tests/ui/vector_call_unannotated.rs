use micrograd_runtime::prelude::*;

#[differentiable]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

// The caller cannot see that `polar` returns two values: the binding says so.
#[differentiable]
fn f(x: f64, y: f64) -> f64 {
    let r = polar(x, y);
    r[0] * r[1]
}

fn main() {}
