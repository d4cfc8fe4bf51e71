use micrograd_runtime::prelude::*;

#[differentiable]
fn f<const ON: bool>(x: f64) -> f64 {
    if ON { x } else { -x }
}

fn main() {}
