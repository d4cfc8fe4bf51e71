use micrograd_runtime::prelude::*;

#[differentiable]
fn total(w: &[f64]) -> f64 {
    w[0] + w[1]
}

// A call as a statement is made for the array it writes; this one writes none.
#[differentiable]
fn f(w: &[f64]) -> f64 {
    total(w);
    w[0]
}

fn main() {}
