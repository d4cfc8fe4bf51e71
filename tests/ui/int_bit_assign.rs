use micrograd_runtime::prelude::*;

// Bitwise operators and shifts are integer bookkeeping, printed as written; their compound
// assignments are refused, saying what to write instead.
#[differentiable]
fn f(x: f64, k: usize) -> f64 {
    let mut mask = k;
    mask |= 1 << 2;
    x * mask as f64
}

fn main() {}
