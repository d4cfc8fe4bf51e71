use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

// `T::default()` is no constant the macro knows of `T`: the constants a generic function reads
// are listed (`T::epsilon()` among them since session 14).
#[differentiable]
fn f<T: Float + Default>(x: T) -> T {
    x + T::default()
}

fn main() {}
