use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let square = |y: f64| y * y;
    square(x)
}

fn main() {}
