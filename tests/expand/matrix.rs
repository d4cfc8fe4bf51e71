use micrograd_runtime::prelude::*;

/// A matrix-vector product (issue 24): `a: &[[f64; 3]]`, listed in `wrt(..)`, and its shadow
/// `d_a: &mut [[f64; 3]]` are read as row-major slices of floats, `a[i][j]` the entry `i * 3 + j`.
#[differentiable(wrt(a, x))]
fn matvec(a: &[[f64; 3]], x: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        let mut y = 0.0;
        for j in 0..3 {
            y += a[i][j] * x[j];
        }
        s += y * y;
    }
    s
}

/// A local `[[a, b], [c, d]]`: four entries, row by row.
#[differentiable]
fn det(x: f64, y: f64) -> f64 {
    let m = [[x, y], [1.0, x * y]];
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}
