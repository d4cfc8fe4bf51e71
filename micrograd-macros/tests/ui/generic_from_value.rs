use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

// `T::from` of a float that is not a literal.
#[differentiable]
fn f<T: Float>(x: T) -> T {
    let y = x * x;
    x + T::from(y).unwrap()
}

fn main() {}
