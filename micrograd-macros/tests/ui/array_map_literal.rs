use micrograd_runtime::prelude::*;

// `.map(|x| ..)` is read on an array bound to a name (a local or an `[f64; N]` parameter);
// on an array literal the message says to collect.
#[differentiable]
fn f(x: f64) -> f64 {
    let squared = [x, 2.0 * x].map(|t| t * t);
    squared[0] + squared[1]
}

fn main() {}
