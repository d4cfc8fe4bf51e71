use micrograd_runtime::prelude::*;

struct Line {
    w: [f64; 2],
    b: f64,
}

#[differentiable]
fn line(p: &Line, x: f64) -> f64 {
    p.w[0] * x + p.w[1] + p.b
}

fn main() {
    let p = Line { w: [1.0, 2.0], b: 0.5 };
    let _ = line(&p, 1.0);
}
