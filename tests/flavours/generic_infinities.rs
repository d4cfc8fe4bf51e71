//! `T::neg_infinity()`, `T::infinity()` and `T::nan()` in a function generic over `T: Float`
//! (issue 25; they were refused with `T::epsilon()`, whose value differs between `f32` and
//! `f64`, where these are the same in both): a log-sum-exp whose maximum folds from
//! `T::neg_infinity()`, and a minimum from `T::infinity()`. `f_grad` at `f64` against the
//! closed form (the softmax) and central differences, at `f32` against central differences
//! of the `f64` instance; `f_hvp` at `f64` against central differences of `f_grad`; each value
//! bit for bit `f`'s.

#![deny(warnings)]

use crate::common;

use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

/// log Σ exp(x_i), shifted by the largest entry, plus the smallest entry (a NaN entry, never
/// present here, would be skipped by `max`/`min`).
#[differentiable(hvp)]
fn lse<T: Float>(x: &[T]) -> T {
    let mut m = T::neg_infinity();
    let mut lo = T::infinity();
    for i in 0..x.len() {
        m = m.max(x[i]);
        lo = lo.min(x[i]);
    }
    let mut s = T::zero();
    for i in 0..x.len() {
        s = s + (x[i] - m).exp();
    }
    let floor = if s.is_nan() { T::nan() } else { T::zero() };
    m + s.ln() + lo * T::from(0.5).unwrap() + floor
}

#[test]
fn a_log_sum_exp_from_neg_infinity_at_f64_against_the_softmax() {
    for x in [[0.3_f64, -1.2, 0.8, 0.5], [2.0, 1.0, -3.0, 0.25]] {
        let mut d_x = [0.0; 4];
        let value = lse_grad(&x, &mut d_x);
        assert_eq!(value.to_bits(), lse(&x).to_bits());
        let z: f64 = x.iter().map(|v| v.exp()).sum();
        let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
        for i in 0..4 {
            let softmax = x[i].exp() / z + if x[i] == lo { 0.5 } else { 0.0 };
            common::assert_near(&format!("d_x[{i}]"), d_x[i], softmax, 1e-14);
        }
        common::assert_gradient("lse_grad::<f64>", |p: &[f64]| lse(p), &x, &d_x);
        // H v against central differences of the gradient along v.
        let v = [1.0, -0.5, 0.25, 2.0];
        let mut hv = [0.0; 4];
        let value = lse_hvp(&x, &v, &mut hv);
        assert_eq!(value.to_bits(), lse(&x).to_bits());
        for i in 0..4 {
            let g = |t: f64| {
                let p: Vec<f64> = x.iter().zip(&v).map(|(a, b)| a + t * b).collect();
                let mut d = [0.0; 4];
                lse_grad(&p, &mut d);
                d[i]
            };
            common::assert_near(
                &format!("(H v)[{i}]"),
                hv[i],
                common::derivative(g, 0.0),
                1e-7,
            );
        }
    }
}

#[test]
fn a_log_sum_exp_from_neg_infinity_at_f32_against_central_differences() {
    let x = [0.3_f32, -1.2, 0.8, 0.5];
    let mut d_x = [0.0_f32; 4];
    let value = lse_grad(&x, &mut d_x);
    assert_eq!(value.to_bits(), lse(&x).to_bits());
    let wide: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    for (i, d) in d_x.iter().enumerate() {
        common::assert_f32_partial("lse_grad::<f32>", |p: &[f64]| lse(p), &wide, i, *d);
    }
}
