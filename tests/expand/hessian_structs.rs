use micrograd_runtime::prelude::*;

/// The Hessian of a parameter struct: its entries in declaration order, then `a`, then `x`;
/// the struct's tangent and shadow are made once, each row's unit tangent copied in and its
/// `H v` copied out.
#[differentiable(hessian)]
fn line(p: &Line, a: f64, x: &[f64]) -> f64 {
    p.w[0] * x[0] * a + p.b
}
