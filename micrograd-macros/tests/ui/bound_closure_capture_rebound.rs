use micrograd_runtime::prelude::*;

// A closure bound by `let` is inlined at each call: a name it reads, bound again before the
// call, would change what it reads, so the macro asks for another name.
#[differentiable]
fn f(x: f64) -> f64 {
    let k = 2.0;
    let scaled = |t: f64| k * t;
    let k = 3.0;
    scaled(x) + k
}

fn main() {}
