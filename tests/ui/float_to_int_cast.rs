use micrograd_runtime::prelude::*;

// One error: the integer built from it reports nothing more.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut r: i64 = 0;
    let n = (x * x) as i64;
    r += n;
    r as f64 + x
}

fn main() {}
