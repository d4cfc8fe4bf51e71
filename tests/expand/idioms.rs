use micrograd_runtime::prelude::*;

#[differentiable]
fn pairs(xs: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for k in 0..n {
        let x = &xs[2 * k..2 * k + 2];
        let (a, b) = (x[0] * x[1], x[1]);
        s += a - b;
    }
    let v = [s, xs[0]];
    let [p, q] = v;
    match n {
        0 => p,
        1 | 2 => p * q,
        m if m > 5 => q,
        _ => p + q,
    }
}

#[differentiable]
fn fused(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c) * f64::mul_add(a, 2.0, b)
}

#[differentiable]
fn checked(xs: &[f64], k: usize, lo: f64) -> f64 {
    let x = &xs[1..3];
    x[k].clamp(lo, 1.0) + x[1]
}
