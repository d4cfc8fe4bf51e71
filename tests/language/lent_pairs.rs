//! Two local arrays lent as `&mut` in one call (issue 24), `g(&mut a, &mut b, x)`: the callee
//! reads and writes both, the caller reads them after, in a loop; `f_grad`, `f_jvp` and
//! `f_hessian` (whose tangent program lends each array and its tangent) against central
//! differences and num-dual on a generic twin written by hand, the value bit for bit `f`'s.

use crate::common;

use common::oracle::{self, check};
use common::{assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

#[differentiable(hvp)]
fn mix2(a: &mut [f64], b: &mut [f64], x: f64) -> f64 {
    let t = a[0];
    a[0] = a[1] * x + b[0];
    b[0] = if t > 0.0 { t * b[1].sin() } else { t * t };
    b[1] += x;
    a[0] * b[0]
}

fn mix2_twin<D: DualNum<Primitive = f64> + Copy>(a: &mut [D], b: &mut [D], x: D) -> D {
    let t = a[0];
    a[0] = a[1] * x + b[0];
    b[0] = if t.re() > 0.0 { t * b[1].sin() } else { t * t };
    b[1] += x;
    a[0] * b[0]
}

#[differentiable(hvp, hessian)]
fn two(x: f64, z: f64, n: usize) -> f64 {
    let mut a = [x, z * 2.0];
    let mut b = [z, x * z];
    let mut s = 0.0;
    for _ in 0..n {
        s += mix2(&mut a, &mut b, x);
    }
    s + a[0] * b[1] + a[1] - b[0]
}

fn two_twin<D: DualNum<Primitive = f64> + Copy>(x: D, z: D, n: usize) -> D {
    let mut a = [x, z * D::from(2.0)];
    let mut b = [z, x * z];
    let mut s = D::from(0.0);
    for _ in 0..n {
        s += mix2_twin(&mut a, &mut b, x);
    }
    s + a[0] * b[1] + a[1] - b[0]
}

#[test]
fn two_arrays_lent_in_one_call() {
    // `a[0]` starts at x, then is z (2x + 1) after one call: both signs, so both arms of the
    // helper's branch (x = -0.5 would put a later call on the kink, `a[0]` = 0).
    for n in [0, 1, 3] {
        for point in [[0.7, -0.4], [-0.6, 0.9]] {
            let f = |p: &[f64]| two(p[0], p[1], n);
            let twin = |p: &[Dual64]| two_twin(p[0], p[1], n);
            let (value, d_x, d_z) = two_grad(point[0], point[1], n);
            check!(
                "two",
                &point,
                (value, &[d_x, d_z]),
                against = [central(f), dual(twin)]
            );
            let (value, tangent) = two_jvp(point[0], 0.3, point[1], -1.2, n);
            assert_same_value("two_jvp", value, f(&point), &point);
            let dual = two_twin(Dual64::new(point[0], 0.3), Dual64::new(point[1], -1.2), n);
            assert_near("two_jvp", tangent, dual.eps, 1e-12);
            let (value, hessian) = two_hessian(point[0], point[1], n);
            assert_same_value("two_hessian", value, f(&point), &point);
            oracle::Hessian::new("two_hessian", &point, hessian.as_flattened())
                .dual(|q: &[HyperDual64]| two_twin(q[0], q[1], n));
        }
    }
}
