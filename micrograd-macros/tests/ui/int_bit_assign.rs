use micrograd_runtime::prelude::*;

// Bitwise compound assignments are integer bookkeeping (`mask |= 1 << j`, accepted); on a
// `bool` they are refused, saying to write the short-circuit operator instead.
#[differentiable]
fn f(x: f64, k: usize) -> f64 {
    let mut mask = k;
    mask |= 1 << 2;
    let mut positive = false;
    positive |= x > 0.0;
    if positive { x * mask as f64 } else { x }
}

fn main() {}
