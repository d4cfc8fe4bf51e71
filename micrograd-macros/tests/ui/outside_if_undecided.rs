use micrograd_runtime::prelude::*;

// An `if` whose arms are names the function does not define, under a condition with no
// float, whose uses say nothing of its type: the macro asks for an annotation.
const K: f64 = 3.0;
const J: f64 = 2.0;

#[differentiable]
fn f(x: f64, n: usize) -> f64 {
    let v = if n > 2 { K } else { J };
    let _u = v;
    x + 1.0
}

fn main() {}
