use micrograd_runtime::prelude::*;

/// A linear classifier's hinge loss over points and their labels: `pts` and `labels` are data,
/// read as written, with no shadow.
#[differentiable]
fn hinge(w: &[f64], b: f64, pts: &[[f64; 2]], labels: &[usize]) -> f64 {
    let mut s = 0.0;
    for i in 0..pts.len() {
        let y = labels[i] as f64 * 2.0 - 1.0;
        let z = w[0] * pts[i][0] + w[1] * pts[i][1] + b;
        s += (1.0 - y * z).max(0.0);
    }
    s
}
