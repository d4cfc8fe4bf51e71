use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

// A type parameter may shadow a primitive's name; the body would then read as `f64`.
#[differentiable(hvp)]
#[allow(non_camel_case_types)]
fn f<f64: Float>(x: f64) -> f64 {
    x.tanh()
}

fn main() {}
