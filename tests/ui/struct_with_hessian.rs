use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Line {
    w: [f64; 2],
    b: f64,
}

#[differentiable(hessian)]
fn line(p: &Line, x: f64) -> f64 {
    p.w[0] * x + p.w[1] + p.b
}

fn main() {}
