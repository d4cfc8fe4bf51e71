use micrograd_runtime::prelude::*;

#[differentiable]
fn square(x: f64) -> f64 {
    x * x
}

// The caller's forward mode calls the callee's: `square` needs `jvp` too.
#[differentiable(jvp)]
fn outer(x: f64) -> f64 {
    square(x) + x
}

fn main() {}
