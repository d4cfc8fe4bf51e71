use micrograd_runtime::prelude::*;

// A `Vec` has its length from the start: `push` and its kin are refused, at the `Vec` made
// empty, or at the method when the `Vec` came from `vec!`.
#[differentiable]
fn f(x: &[f64]) -> f64 {
    let mut sq = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        sq.push(x[i] * x[i]);
    }
    let mut r = Vec::new();
    r.push(x[0]);
    let mut v = vec![0.0; 2];
    v.push(x[1]);
    sq.iter().sum::<f64>() + r[0] + v[2]
}

fn main() {}
