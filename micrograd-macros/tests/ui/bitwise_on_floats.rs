use micrograd_runtime::prelude::*;

// `&`, `|`, `^`, `<<` and `>>` take integers; on floats or `bool`s they are refused at the
// operator.
#[differentiable]
fn f(x: f64, y: f64) -> f64 {
    let z = x & y;
    if (x > 0.0) | (y > 0.0) { z } else { -z }
}

fn main() {}
