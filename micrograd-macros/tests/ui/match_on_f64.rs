use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    match x * 2.0 {
        y => y * y,
    }
}

fn main() {}
