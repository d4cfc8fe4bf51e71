use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

// A `where` clause bounds the float type only.
#[differentiable]
fn f<T>(x: T) -> T
where
    T: Float,
    usize: Copy,
{
    x * x
}

fn main() {}
