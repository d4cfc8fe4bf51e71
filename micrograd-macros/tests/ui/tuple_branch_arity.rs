use micrograd_runtime::prelude::*;

// A branch taken apart by `let (a, b) = ..` ends every arm in a tuple of as many values as the
// pattern names; an arm of another arity is refused at its tuple.
#[differentiable]
fn f(x: f64, y: f64) -> f64 {
    let (lo, hi) = if x < y { (x, y) } else { (y, x, x) };
    let [p, q] = match 1 {
        0 => [x, y],
        _ => [y],
    };
    lo + hi + p + q
}

// Not taken apart by a `let` of its arity, the branch is refused at its tuples.
#[differentiable]
fn g(x: f64, y: f64) -> f64 {
    let t = if x < y { (x, y) } else { (y, x) };
    let s = match 0 {
        0 => (x, y),
        _ => (y, x),
    };
    t.0 + t.1 + s.0
}

fn main() {}
