use micrograd_runtime::prelude::*;

#[differentiable]
fn bump(x: f64, y: &mut f64) {
    *y += x;
}

// `&mut` lends a local `f64` by its name, not the value of an expression.
#[differentiable]
fn f(x: f64) -> f64 {
    let y = x * 2.0;
    bump(x, &mut (y * 2.0));
    y
}

fn main() {}
