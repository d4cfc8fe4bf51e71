use micrograd_runtime::prelude::*;

#[differentiable]
#[differentiable(hvp)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {
    let _ = f_grad(0.5);
}
