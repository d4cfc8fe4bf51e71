use micrograd_runtime::prelude::*;

#[derive(Differentiable, Clone, Debug)]
struct Model {
    weight: f64,
}

impl Model {
    // A misspelled field: rustc's error at the user's field, in the generated code too.
    #[differentiable]
    fn loss(&self, x: f64) -> f64 {
        self.wieght * x
    }
}

#[differentiable]
fn f(m: &Model, x: f64) -> f64 {
    m.wieght * x
}

fn main() {}
