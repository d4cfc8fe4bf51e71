use micrograd_runtime::prelude::*;

// A local array is assigned whole from a fill or a literal (`h = [0.0; 3];`), an array of rows
// from a fill or a literal of rows (`l = [[0.0; 2]; 2];`); not from a list of other arrays.
#[differentiable]
fn f(a: f64) -> f64 {
    let mut h = [a; 2];
    h = [h[1], h[0]];
    let mut l = [[a; 2]; 2];
    l = [[0.0; 2]; 2];
    l = [h, h];
    h[0] + l[1][1]
}

fn main() {}
