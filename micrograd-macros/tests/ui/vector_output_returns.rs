use micrograd_runtime::prelude::*;

// A returned vector has as many entries as the signature says, on every path.
#[differentiable]
fn h(x: f64, y: f64) -> [f64; 3] {
    if x > y {
        return [x, y, x];
    }
    for _ in 0..3 {
        return [y, x];
    }
    [x, x * x, y]
}

// `break` carries one `f64` out of a `loop`; return the vector from inside it.
#[differentiable]
fn l(x: f64) -> (f64, f64) {
    loop {
        break (x, x);
    }
}

// Each arm of a returned `match` returns a tuple.
#[differentiable]
fn m(x: f64, k: usize) -> (f64, f64) {
    match k {
        0 => (x, x),
        _ => x,
    }
}

// A returned `if` needs an `else`.
#[differentiable]
fn i(x: f64) -> [f64; 2] {
    if x > 0.0 { [x, x] }
}

fn main() {}
