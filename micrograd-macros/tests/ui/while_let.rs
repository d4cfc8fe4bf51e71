use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while let Some(v) = w.get(i) {
        s += v * s;
        i += 1;
    }
    s
}

fn main() {}
