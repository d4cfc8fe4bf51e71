use micrograd_runtime::prelude::*;

/// A counted `while`: the counter is recorded once per iteration, since the reversed
/// iteration reads `w[i]`.
#[differentiable]
fn counted(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < w.len() {
        s = s * x + w[i] * w[i];
        i += 1;
    }
    s
}

/// Horner's rule from the top coefficient down, with an `i32` counter read by `powi`.
#[differentiable]
fn horner(w: &[f64], x: f64) -> f64 {
    let mut y = 0.0;
    let mut k: i32 = w.len() as i32;
    while k > 0 {
        k -= 1;
        y = y * x + w[k as usize] * x.powi(k);
    }
    y
}
