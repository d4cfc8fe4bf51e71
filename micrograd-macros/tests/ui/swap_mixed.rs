use micrograd_runtime::prelude::*;

// `std::mem::swap` exchanges two local arrays or two `f64`s, not an `f64` with an array.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut h = [0.0; 2];
    h[1] = x;
    let mut a = x;
    std::mem::swap(&mut a, &mut h[0]);
    a + h[0]
}

fn main() {}
