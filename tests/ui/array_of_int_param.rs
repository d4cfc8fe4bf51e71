use micrograd_runtime::prelude::*;

#[differentiable]
fn f(w: &Vec<i32>, v: [i32; 2]) -> f64 {
    w[0] as f64 + v[0] as f64
}

fn main() {}
