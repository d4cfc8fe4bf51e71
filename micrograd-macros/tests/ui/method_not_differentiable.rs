use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Line {
    w: f64,
    b: f64,
}

impl Line {
    fn slope(&self) -> f64 {
        self.w
    }

    #[differentiable]
    fn at(&self, x: f64) -> f64 {
        self.slope() * x + self.b
    }
}

fn main() {
    let _ = Line { w: 1.0, b: 0.5 }.at(2.0);
}
