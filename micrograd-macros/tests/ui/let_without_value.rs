use micrograd_runtime::prelude::*;

// One error: the later uses of `y` report nothing more.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut y;
    y = x * 2.0;
    y += x;
    y
}

fn main() {}
