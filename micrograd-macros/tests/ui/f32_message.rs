use micrograd_runtime::prelude::*;

// Messages in an `f32` function name `f32`, and the stub `f_grad` beside the error has the
// `f32` signature, so the caller below sees no second error.
#[differentiable]
fn f(x: f32, n: usize) -> f32 {
    x * n
}

fn main() {
    let _: (f32, f32) = f_grad(1.0, 2);
}
