use micrograd_runtime::prelude::*;

#[differentiable]
fn pair(x: f64) -> (f64, f64) {
    (x * x, x)
}

// A helper's tuple taken for one `f64`: the errors at the user's call, never at the attribute.
#[differentiable]
fn f(x: f64) -> f64 {
    let y: f64 = pair(x);
    f64::max(y, x)
}

fn main() {}
