use micrograd_runtime::prelude::*;

// A local array is assigned whole from a fill or a literal (`h = [0.0; 3];`); an array of rows
// is not: it is written entry by entry.
#[differentiable]
fn f(a: f64) -> f64 {
    let mut h = [a; 3];
    h = [h[2], h[1], h[0]];
    let mut l = [[a; 2]; 2];
    l = [[0.0; 2]; 2];
    h[0] + l[1][1]
}

fn main() {}
