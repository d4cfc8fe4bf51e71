use micrograd_runtime::prelude::*;

#[differentiable]
fn pair(x: f64) -> (f64, f64) {
    (x * x, x.sin())
}

// `r` is read by its fields and assigned whole: the macro cannot see the tuple's width.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut r = pair(x);
    r = pair(r.1);
    r.0 + r.1
}

fn main() {}
