use micrograd_runtime::prelude::*;

// A vector output is returned once, at the end: not from a branch or a loop.
#[differentiable]
fn f(x: f64, y: f64) -> [f64; 2] {
    if x > y {
        return [x, y];
    }
    for _ in 0..3 {
        return [y, x];
    }
    [x * y, x + y]
}

// Nor as the value of an `if`.
#[differentiable]
fn g(x: f64, y: f64) -> (f64, f64) {
    if x > y { (x, y) } else { (y, x) }
}

// And with as many entries as the signature says.
#[differentiable]
fn h(x: f64) -> [f64; 3] {
    [x, x * x]
}

fn main() {}
