use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for x in w.iter().enumerate() {
        s += x.1;
    }
    s
}

fn main() {}
