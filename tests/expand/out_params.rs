use micrograd_runtime::prelude::*;

/// A residual written into `out`, its squared norm into `err`.
#[differentiable(jvp)]
fn residual(x: &[f64], a: f64, out: &mut [f64], err: &mut f64) {
    *err = 0.0;
    for i in 0..x.len() {
        out[i] = a * x[i] * x[i] - 1.0;
        *err += out[i] * out[i];
    }
}

/// One output written through a reference: `f_grad` is its gradient.
#[differentiable]
fn objective(w: &[f64], b: f64, err: &mut f64) {
    let mut s = b;
    for i in 0..w.len() {
        s += w[i] * w[i];
    }
    *err = s.sqrt();
}

/// Squares written into `out`.
#[differentiable(jvp)]
fn squares(x: &[f64], out: &mut [f64]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i];
    }
}

/// A call of `squares` made for what it writes into a local array: the caller's pullback goes
/// through `squares_pullback`, which takes no seed, and its tangent through `__squares_tangent`,
/// which returns nothing.
#[differentiable(jvp)]
fn fit(x: &[f64], a: f64) -> f64 {
    let mut r = vec![0.0; x.len()];
    squares(x, &mut r);
    let mut s = a;
    for i in 0..r.len() {
        s += a * r[i];
    }
    s
}
