use micrograd_runtime::prelude::*;

// `let mut k = K;` takes its type from the uses of `k` (`k += x` makes it a float); where none
// says (`k = K;` says nothing), the message asks for an annotation.
const K: f64 = 2.0;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut k = K;
    k = K;
    x * 2.0
}

fn main() {}
