use micrograd_runtime::prelude::*;
use std::ops::Mul;

// A generic the macro cannot read as a float: one error, saying to bound it by `Float`.
#[differentiable]
fn square<T: Copy + Mul<Output = T>>(x: T) -> T {
    x * x
}

fn main() {}
