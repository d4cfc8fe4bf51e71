//! `T::epsilon()`, `T::max_value()`, `T::min_value()` and `T::min_positive_value()` in a
//! function generic over `T: Float` (issue 25; refused until session 14, as their values differ
//! between `f32` and `f64`): constants, no derivative, printed as the call,
//! `<T as Float>::epsilon()`, so each instance reads its own type's. `f_grad` at `f64` against
//! the closed form, central differences and num-dual on a twin; at `f32` against central
//! differences of the `f64` instance, and `1 + ε` of `f32` itself (bit for bit: `f64`'s ε
//! there would round away); `f_hvp` against central differences of `f_grad`; each value bit for
//! bit `f`'s. The `f64::EPSILON`-style constants of a function written for `f64` beside them.

#![deny(warnings)]

use crate::common;

use common::oracle::check;
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

/// A norm kept off zero by ε, the lower clamp `T::min_value()` (never reached here) and a
/// ratio of the extremes that underflows to zero.
#[differentiable(hvp)]
fn soft_norm<T: Float>(x: &[T]) -> T {
    let eps = T::epsilon();
    let mut s = T::zero();
    for i in 0..x.len() {
        s = s + x[i] * x[i];
    }
    let floor = T::min_positive_value() / T::max_value();
    let lo = x[0].max(T::min_value());
    (s + eps).sqrt() + lo * T::from(2.0).unwrap() + floor * x[1]
}

fn soft_norm_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for v in x {
        s += *v * *v;
    }
    (s + D::from(f64::EPSILON)).sqrt() + x[0] * D::from(2.0)
}

/// `x (1 + ε)`: at `f32`, `1 + f32::EPSILON`, which `f64`'s ε would leave `1.0`.
#[differentiable]
fn spacing<T: Float>(x: T) -> T {
    x * (T::one() + T::epsilon())
}

/// The same constants as a function written for `f64` reads them.
#[differentiable]
fn limits_f64(x: f64, y: f64) -> f64 {
    let e = f64::EPSILON;
    (x * x + y * y + e).sqrt() + x * (f64::MIN_POSITIVE / f64::MAX) + y.max(f64::MIN)
}

#[test]
fn limits_at_f64_against_the_closed_form_central_differences_and_num_dual() {
    for x in [[0.3_f64, -1.2, 0.8], [2.0, 1.0, -3.0]] {
        let mut d_x = [0.0; 3];
        let value = soft_norm_grad(&x, &mut d_x);
        let r = (x.iter().map(|v| v * v).sum::<f64>() + f64::EPSILON).sqrt();
        for i in 0..3 {
            let closed = x[i] / r + if i == 0 { 2.0 } else { 0.0 };
            common::assert_near(&format!("d_x[{i}]"), d_x[i], closed, 1e-14);
        }
        check!(
            "soft_norm::<f64>",
            &x,
            (value, &d_x),
            against = [central(|p: &[f64]| soft_norm(p)), dual(soft_norm_twin),]
        );
        let v = [1.0, -0.5, 0.25];
        let mut hv = [0.0; 3];
        let value = soft_norm_hvp(&x, &v, &mut hv);
        assert_eq!(value.to_bits(), soft_norm(&x).to_bits());
        for i in 0..3 {
            let g = |t: f64| {
                let p: Vec<f64> = x.iter().zip(&v).map(|(a, b)| a + t * b).collect();
                let mut d = [0.0; 3];
                soft_norm_grad(&p, &mut d);
                d[i]
            };
            let reference = common::derivative(g, 0.0);
            common::assert_near(&format!("(H v)[{i}]"), hv[i], reference, 1e-7);
        }
    }
    let (value, d_x, d_y) = limits_f64_grad(0.6, -0.8);
    check!(
        "limits_f64",
        &[0.6, -0.8],
        (value, &[d_x, d_y]),
        against = [central(|p: &[f64]| limits_f64(p[0], p[1])),]
    );
}

#[test]
fn limits_at_f32_are_f32s_own() {
    let x = [0.3_f32, -1.2, 0.8];
    let mut d_x = [0.0_f32; 3];
    let value = soft_norm_grad(&x, &mut d_x);
    assert_eq!(value.to_bits(), soft_norm(&x).to_bits());
    let wide: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    for (i, d) in d_x.iter().enumerate() {
        common::assert_f32_partial(
            "soft_norm_grad::<f32>",
            |p: &[f64]| soft_norm(p),
            &wide,
            i,
            *d,
        );
    }
    let (value, d) = spacing_grad(1.0_f32);
    assert_eq!(value.to_bits(), spacing(1.0_f32).to_bits());
    assert_eq!(value, 1.0 + f32::EPSILON);
    assert_eq!(d, 1.0 + f32::EPSILON);
    let (value, d) = spacing_grad(1.0_f64);
    assert_eq!((value, d), (1.0 + f64::EPSILON, 1.0 + f64::EPSILON));
}
