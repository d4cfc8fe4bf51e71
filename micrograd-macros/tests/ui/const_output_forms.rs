use micrograd_runtime::prelude::*;

const M: usize = 2;

// A returned array of a `const` length is counted when it runs: returned at the end.
#[differentiable]
fn early(x: f64) -> [f64; M] {
    let mut r = [0.0; M];
    if x > 0.0 {
        return r;
    }
    r[0] = x;
    r
}

// .. as a local array or an array literal.
#[differentiable]
fn branched(x: f64) -> [f64; M] {
    if x > 0.0 { [x, 1.0] } else { [1.0, x] }
}

// Its second order is not generated yet.
#[differentiable(hvp)]
fn second(x: f64) -> [f64; M] {
    [x * x, x]
}

fn main() {}
