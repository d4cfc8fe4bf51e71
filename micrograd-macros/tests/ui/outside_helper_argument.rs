use micrograd_runtime::prelude::*;

// A name the function does not define, passed alone to a helper whose signature the macro
// cannot see, with no use saying what it is: the macro asks for an annotation. (`let mut k =
// K;` and `g(k, x)` beside a float argument are read as floats: `typing.rs`'s `Infer::guess`.)
const K: f64 = 2.0;

#[differentiable]
fn g(a: f64) -> f64 {
    a * a
}

#[differentiable]
fn f(x: f64) -> f64 {
    let k = K;
    x * 2.0 + g(k)
}

fn main() {}
