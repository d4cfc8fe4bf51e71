use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

// `f_graph` draws `f64` `Value`s: not for a generic float.
#[differentiable(graph)]
fn f<T: Float>(x: T) -> T {
    x.tanh()
}

fn main() {}
