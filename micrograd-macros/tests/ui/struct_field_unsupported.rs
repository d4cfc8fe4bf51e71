use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Params {
    w: Vec<f64>,
    name: String,
}

fn main() {}
