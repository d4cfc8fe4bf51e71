use micrograd_runtime::prelude::*;

#[differentiable(wrt(self))]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {
    let _ = f(1.0);
}
