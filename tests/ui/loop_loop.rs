use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    loop {
        return x;
    }
}

fn main() {}
