use micrograd_runtime::prelude::*;

#[differentiable]
fn g(w: &[f64]) -> f64 {
    w[0]
}

// `vec!` is the value of a `let`, filled with a float; inside loops, of a constant length.
#[differentiable]
fn f(x: &[f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let mut h = vec![0.0; i + 1];
        h[i] = x[i];
        s += g(&h);
    }
    let mut k = 0;
    while k < 2 {
        let v = vec![a, 2.0 * a];
        let u = vec![0.0; k];
        s += v[1] + u[0];
        k += 1;
    }
    let w = vec![k; x.len()];
    s + g(&vec![a, s]) + w[0] as f64
}

fn main() {}
