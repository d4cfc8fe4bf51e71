use micrograd_runtime::prelude::*;

#[differentiable]
fn f<T: Into<f64>>(x: T) -> f64 {
    x.into()
}

fn main() {}
