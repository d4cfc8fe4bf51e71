use micrograd_runtime::prelude::*;

#[differentiable(graph, show_code, graph)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
