use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

// One float type per function.
#[differentiable]
fn mixed<T: Float, U: Float>(x: T, y: U) -> T {
    x * T::from(y).unwrap()
}

fn main() {}
