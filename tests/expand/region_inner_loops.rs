use micrograd_runtime::prelude::*;

/// ‖Q x‖ through a nonlinearity, Q lower triangular and row-major: each row a dot product over
/// the entries before the diagonal (an inner loop that records nothing), the row's value
/// recorded for `sin`.
#[differentiable]
pub fn rows(q: &[f64], x: &[f64], d: usize) -> f64 {
    let mut norm = 0.0;
    for row in 0..d {
        let mut y = q[row * d + row] * x[row];
        for col in 0..row {
            y += q[row * d + col] * x[col];
        }
        norm += y.sin() * y;
    }
    norm
}

/// Three levels: the outer loop records `s` and its body runs the middle loop, which records
/// into a region while its innermost loop records nothing.
#[differentiable(wrt(w))]
pub fn nested(w: &[f64], x: &[f64], n: usize) -> f64 {
    let mut acc = 0.0;
    for i in 0..n {
        let s = (w[i] * x[i]).sin();
        for r in 0..n {
            let mut y = s;
            for c in 0..r {
                y += w[c] * x[c];
            }
            acc += (y * acc).tanh() + y.cos();
        }
        acc *= s.exp();
    }
    acc
}
