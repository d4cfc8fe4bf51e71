use micrograd_runtime::prelude::*;

/// A 2x2 matrix by value: its partials come back as one `[[f64; 2]; 2]`.
#[differentiable(hessian, wrt(m, t))]
fn det(m: [[f64; 2]; 2], t: f64) -> f64 {
    (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * t
}
