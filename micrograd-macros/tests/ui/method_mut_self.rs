use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Line {
    w: f64,
    b: f64,
}

impl Line {
    #[differentiable]
    fn at(&mut self, x: f64) -> f64 {
        self.w * x + self.b
    }
}

fn main() {
    let mut line = Line { w: 1.0, b: 0.5 };
    let _ = line.at(2.0);
}
