use micrograd_runtime::prelude::*;

#[differentiable(hvp)]
fn scale_in_place(w: &mut [f64], a: f64) -> f64 {
    w[0] *= a;
    w[0]
}

fn main() {}
