use micrograd_runtime::prelude::*;

// A tuple output holds `f64`s only.
#[differentiable]
fn f(x: f64) -> (f64, usize) {
    (x, 2)
}

fn main() {}
