use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64], mask: &[bool]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        if mask[i] {
            s += w[i];
        }
    }
    s
}

fn main() {}
