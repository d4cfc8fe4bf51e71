use micrograd_runtime::prelude::*;

/// A `&f64` parameter (issue 24): read once into an `f64`, its partial returned in the tuple.
#[differentiable]
fn sq(x: &f64) -> f64 {
    x * *x
}

/// A caller passing `&y` and its own `&f64` on.
#[differentiable]
fn caller(a: &f64, b: f64) -> f64 {
    let y = b * 0.5;
    sq(&y) + sq(a)
}
