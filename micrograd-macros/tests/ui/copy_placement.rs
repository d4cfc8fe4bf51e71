use micrograd_runtime::prelude::*;

// A copy of a slice of a run-time length is a `Vec`, made outside loops; one of a constant
// length is a local array, made anywhere.
#[differentiable]
fn f(x: &[f64], p: [f64; 2], n: usize) -> f64 {
    let mut s = 0.0;
    for _ in 0..n {
        let mut y = x.to_vec();
        y[0] += 1.0;
        let mut q = p;
        q[0] *= 2.0;
        s += y[0] + q[0];
    }
    let z = s.to_vec();
    s + z[0]
}

fn main() {}
