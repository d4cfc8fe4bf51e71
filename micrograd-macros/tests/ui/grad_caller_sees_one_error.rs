use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    (|y: f64| y * y)(x)
}

fn main() {
    let (y, dy_dx) = f_grad(3.0);
    assert_eq!((y, dy_dx), (9.0, 6.0));
}
