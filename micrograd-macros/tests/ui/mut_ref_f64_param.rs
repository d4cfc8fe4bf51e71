use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: &mut f64) -> f64 {
    *x
}

fn main() {}
