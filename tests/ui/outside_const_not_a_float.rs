use micrograd_runtime::prelude::*;

// A name the function does not define, used with a float, is read as one and printed pinned
// to `f64`: when it is not one, rustc says so at the name, and no integer is ever converted.
const J: i32 = 2;

#[differentiable]
fn f(x: f64) -> f64 {
    x * J
}

fn main() {}
