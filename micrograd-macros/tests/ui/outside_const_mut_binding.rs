use micrograd_runtime::prelude::*;

// A name the function does not define, bound to a variable that changes, needs its type where
// it is bound (the macro does not yet read it from the later `k += x`): the message says so.
const K: f64 = 2.0;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut k = K;
    k += x;
    k
}

fn main() {}
