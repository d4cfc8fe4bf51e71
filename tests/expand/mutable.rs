use micrograd_runtime::prelude::*;

/// `&mut [f64]` in forward mode and second order: `w` and its tangent are written as `f`
/// writes `w`, and `f_hessian` restores `w`'s entry values before each row.
#[differentiable(hessian)]
fn scale_in_place(w: &mut [f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).sin();
        s += w[i] * w[i];
    }
    s * a
}
