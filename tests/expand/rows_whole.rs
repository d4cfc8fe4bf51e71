use micrograd_runtime::prelude::*;

// Local arrays of rows assigned whole: a fill, a literal of rows reading what it replaces, and
// another array of rows, each stored entry by entry into the flat row-major array.
#[differentiable]
fn rows(a: f64, b: f64) -> f64 {
    let mut l = [[a; 2]; 2];
    l = [[0.0; 2]; 2];
    l[1][0] = a * b;
    let mut m = [[a, b], [b, a]];
    m = [[m[1][1], l[1][0]], [m[0][1], m[0][0]]];
    l = m;
    l[0][0] * l[1][1] + l[0][1]
}
