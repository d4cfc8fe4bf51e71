// A supported method used wrongly: the message names the real problem and never offers the
// method it rejects as a supported one.
use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64, n: i32, w: &[f64]) -> f64 {
    x.powi() + n.powi(2) + w.sqrt() + x.tanh(2.0) + x.max()
}

fn main() {}
