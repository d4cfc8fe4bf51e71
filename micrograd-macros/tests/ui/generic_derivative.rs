use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

#[differentiable]
fn softplus_dx(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

// The rules of a function generic over its float are generic too: an `f64` rule is one
// "mismatched types" at the rule.
#[differentiable(derivative(x = softplus_dx))]
fn softplus<T: Float>(x: T) -> T {
    (T::one() + x.exp()).ln()
}

fn main() {}
