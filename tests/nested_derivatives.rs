//! Nested derivatives: a `#[differentiable]` function calling another's `g_grad` or `g_jvp`,
//! differentiated through it in every mode.

mod common;

use micrograd_runtime::prelude::*;

#[differentiable(hvp)]
fn potential(x0: f64, x1: f64, w: f64) -> f64 {
    let a = ((x0 - 10.0).powi(2) + (x1 - 10.0 + w).powi(2)).sqrt();
    let b = ((x0 - 10.0).powi(2) + x1.powi(2)).sqrt();
    1.0 / a + 1.0 / b + w * x0 * x1
}

#[differentiable(jvp)]
fn force_rev(x0: f64, x1: f64, w: f64) -> f64 {
    let (_, g0, g1, _) = potential_grad(x0, x1, w);
    g0 * g0 + 3.0 * g1 * x0
}

#[test]
fn smoke() {
    let (v, d0, d1, dw) = force_rev_grad(1.0, 2.0, 0.5);
    println!("{v} {d0} {d1} {dw}");
    let f = |p: &[f64]| force_rev(p[0], p[1], p[2]);
    common::assert_gradient("force_rev", f, &[1.0, 2.0, 0.5], &[d0, d1, dw]);
    let (_, t) = force_rev_jvp(1.0, 0.3, 2.0, -0.2, 0.5, 0.7);
    assert!((t - (0.3 * d0 - 0.2 * d1 + 0.7 * dw)).abs() < 1e-12);
}
