use micrograd_runtime::prelude::*;

#[differentiable(foo)]
async fn f(x: f64) -> f64 {
    x.rem_euclid(2.0)
}

fn main() {}
