use micrograd_runtime::prelude::*;

// `cube` is not `#[differentiable]`; its hand-written pullback below has a typo (3x instead of
// 3x²). A `#[differentiable]` caller never picks it up by accident: the call does not build.
fn cube(x: f64) -> f64 {
    x * x * x
}

fn cube_pullback(x: f64, seed: f64) -> f64 {
    seed * 3.0 * x
}

#[differentiable]
fn f(x: f64) -> f64 {
    cube(x) + x
}

fn main() {
    let _ = cube_pullback(1.0, 1.0);
}
