use micrograd_runtime::prelude::*;

#[differentiable]
fn det(m: &[[f64; 2]; 2]) -> f64 {
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

fn main() {}
