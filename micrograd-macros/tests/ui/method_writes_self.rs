use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Line {
    w: f64,
    b: f64,
}

impl Line {
    // `&mut self` is read as `&self`: a write to a field is one error at it.
    #[differentiable]
    fn at(&mut self, x: f64) -> f64 {
        self.b = self.w * x;
        self.w * x + self.b
    }
}

fn main() {
    let line = Line { w: 1.0, b: 0.5 };
    let _ = line.at(2.0);
}
