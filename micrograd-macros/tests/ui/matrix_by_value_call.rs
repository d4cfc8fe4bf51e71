use micrograd_runtime::prelude::*;

#[differentiable(wrt(m))]
fn corner(m: &[[f64; 2]; 2]) -> f64 {
    m[0][1] * m[1][0]
}

// A matrix is lent to a helper by reference, `corner(&m)`, not moved into it.
#[differentiable(wrt(m))]
fn f(m: [[f64; 2]; 2]) -> f64 {
    corner(m) + m[0][0]
}

fn main() {}
