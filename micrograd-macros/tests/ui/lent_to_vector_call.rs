use micrograd_runtime::prelude::*;

#[differentiable]
fn halves(w: &mut [f64]) -> [f64; 2] {
    w[0] *= 0.5;
    [w[0], w[1]]
}

// Each output's pullback would write the array again.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut h = [x, x * x];
    let [a, b] = halves(&mut h);
    a * b
}

fn main() {}
