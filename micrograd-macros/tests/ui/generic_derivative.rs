use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

#[differentiable]
fn softplus_dx(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

// Custom derivatives are `f64` rules: not for a generic float.
#[differentiable(derivative(x = softplus_dx))]
fn softplus<T: Float>(x: T) -> T {
    (T::one() + x.exp()).ln()
}

fn main() {}
