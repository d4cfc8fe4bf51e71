use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

// `T::epsilon()` differs between `f32` and `f64`: the constants a generic function reads are
// listed.
#[differentiable]
fn f<T: Float>(x: T) -> T {
    x + T::epsilon()
}

fn main() {}
