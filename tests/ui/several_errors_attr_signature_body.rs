use micrograd_runtime::prelude::*;

#[differentiable(foo)]
const fn f(x: f64) -> f64 {
    x.to_degrees()
}

fn main() {}
