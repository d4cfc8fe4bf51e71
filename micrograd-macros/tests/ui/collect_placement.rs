use micrograd_runtime::prelude::*;

// `collect` makes a `Vec` of `f64`s, bound by a `let` outside loops.
#[differentiable]
fn f(x: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for _ in 0..n {
        let v: Vec<f64> = x.iter().map(|t| t * 2.0).collect();
        s += v[0];
    }
    let idx = (0..n).collect::<Vec<usize>>();
    let w: Vec<f64> = x.iter().map(|t| t * 2.0).collect();
    s + w[0] + idx.len() as f64 + x.iter().map(|t| t * 3.0).collect::<Vec<f64>>()[0]
}

fn main() {}
