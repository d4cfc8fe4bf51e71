use micrograd_runtime::prelude::*;

/// A state started at `b` in every entry, then updated in a loop.
#[differentiable]
fn cell(b: f64, x: &[f64]) -> f64 {
    let mut h = [b; 3];
    for t in 0..x.len() {
        for i in 0..3 {
            h[i] = (h[i] + x[t]).tanh();
        }
    }
    h[0] * h[2]
}

/// A state reset to a fill and replaced whole by a literal of its entries.
#[differentiable]
fn rotate(a: f64, n: usize) -> f64 {
    let mut h = [a, 1.0];
    for _ in 0..n {
        h = [h[1], h[0] * a];
    }
    h = [h[0] + h[1]; 2];
    h[0] * h[1]
}
