use micrograd_runtime::prelude::*;

// Integer methods are printed as written, with as many arguments as Rust gives them.
#[differentiable]
fn f(x: f64, k: i32) -> f64 {
    let a = k.abs(2) + k.max(1, 2);
    x * a as f64
}

fn main() {}
