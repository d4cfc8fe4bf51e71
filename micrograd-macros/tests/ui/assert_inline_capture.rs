use micrograd_runtime::prelude::*;

// A message naming a variable inside its format string would read it by a name the
// generated code does not keep: the macro asks for it after the string.
#[differentiable]
fn f(x: f64) -> f64 {
    assert!(x > 0.0, "x = {x}");
    x * x
}

fn main() {}
