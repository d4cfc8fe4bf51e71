use micrograd_runtime::prelude::*;

/// A 2-4-1 ReLU network with mean hinge loss, one function: per-sample arrays live inside
/// the loop, so the reverse sweep re-reads them instead of taping every read.
#[differentiable(wrt(w1, b1, w2, b2))]
fn network(w1: &[f64], b1: &[f64], w2: &[f64], b2: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let n = ys.len();
    let mut total = 0.0;
    for s in 0..n {
        let mut h = [0.0; 4];
        for j in 0..4 {
            let mut act = b1[j];
            for k in 0..2 {
                act += w1[j * 2 + k] * xs[s * 2 + k];
            }
            h[j] = act.relu();
        }
        let mut score = b2;
        for j in 0..4 {
            score += w2[j] * h[j];
        }
        total += (1.0 - ys[s] * score).relu();
    }
    total / n as f64
}
