use micrograd_runtime::prelude::*;

// A `&mut f64` has `f_hvp`, not yet `f_hessian`.
#[differentiable(hessian)]
fn f(x: f64, y: &mut f64) -> f64 {
    *y *= x;
    *y + x
}

fn main() {}
