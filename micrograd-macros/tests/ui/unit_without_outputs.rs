use micrograd_runtime::prelude::*;

// `()` with nothing written through a reference has no output at all.
#[differentiable]
fn f(x: &[f64], total: f64) -> () {
    let _ = x[0] * total;
}

fn main() {}
