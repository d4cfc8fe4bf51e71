//! A local `f64` lent as `&mut e` to a `#[differentiable]` helper taking `y: &mut f64` (issue
//! 24): the helper writes it, the caller reads what it left, in a loop of 0, 1 or many
//! iterations and on both sides of a branch; `f_grad`, `f_pullback`, `f_jvp`, and through a
//! helper that also returns a value `f_hvp` and `f_hessian`. Against central differences and
//! num-dual on generic twins written by hand, the value bit for bit `f`'s.

use crate::common;

use common::oracle::{self, check};
use common::{assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// Returns `()`: its output is what it leaves in `y`.
#[differentiable(jvp)]
fn relax(x: f64, y: &mut f64) {
    if *y > 1.0 {
        *y = (*y).sqrt() * x;
    } else {
        *y = *y * x + x.sin();
    }
}

fn relax_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: &mut D) {
    *y = if y.re() > 1.0 {
        y.sqrt() * x
    } else {
        *y * x + x.sin()
    };
}

/// `e` carried through `n` calls that write it, read between them.
#[differentiable(jvp)]
fn iterate(x: f64, z: f64, n: usize) -> f64 {
    let mut e = z * 2.0;
    let mut s = 0.0;
    for i in 0..n {
        relax(x, &mut e);
        s += e * (i as f64 + 0.5);
    }
    e * x + s
}

fn iterate_twin<D: DualNum<Primitive = f64> + Copy>(x: D, z: D, n: usize) -> D {
    let mut e = z * D::from(2.0);
    let mut s = D::from(0.0);
    for i in 0..n {
        relax_twin(x, &mut e);
        s += e * D::from(i as f64 + 0.5);
    }
    e * x + s
}

/// Writes `y` and returns a value too, so its callers may ask for `hvp`.
#[differentiable(hvp)]
fn step(x: f64, y: &mut f64) -> f64 {
    *y = *y * x + x.sin();
    x * *y
}

fn step_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: &mut D) -> D {
    *y = *y * x + x.sin();
    x * *y
}

#[differentiable(hvp, hessian)]
fn twice(x: f64, z: f64) -> f64 {
    let mut e = z.cos();
    let r = step(x, &mut e);
    let q = step(z, &mut e);
    e * r + q
}

fn twice_twin<D: DualNum<Primitive = f64> + Copy>(x: D, z: D) -> D {
    let mut e = z.cos();
    let r = step_twin(x, &mut e);
    let q = step_twin(z, &mut e);
    e * r + q
}

#[test]
fn a_local_lent_to_a_writing_helper_in_a_loop() {
    // `e` starts at 2z: above 1 at z = 0.7 (the square root), below at z = 0.2.
    for n in [0, 1, 4] {
        for point in [[0.9, 0.7], [1.3, 0.2], [-0.6, 0.2]] {
            let f = |p: &[f64]| iterate(p[0], p[1], n);
            let twin = |p: &[Dual64]| iterate_twin(p[0], p[1], n);
            let (value, d_x, d_z) = iterate_grad(point[0], point[1], n);
            check!(
                "iterate",
                &point,
                (value, &[d_x, d_z]),
                against = [central(f), dual(twin)]
            );
            let (p_x, p_z) = iterate_pullback(point[0], point[1], n, -1.5);
            assert_near("iterate_pullback", p_x, -1.5 * d_x, 1e-12);
            assert_near("iterate_pullback", p_z, -1.5 * d_z, 1e-12);
            let v = [0.4, -1.1];
            let (value, tangent) = iterate_jvp(point[0], v[0], point[1], v[1], n);
            assert_same_value("iterate_jvp", value, f(&point), &point);
            let dual = iterate_twin(Dual64::new(point[0], v[0]), Dual64::new(point[1], v[1]), n);
            assert_near("iterate_jvp", tangent, dual.eps, 1e-12);
        }
    }
}

#[test]
fn a_local_lent_twice_to_a_helper_returning_a_value() {
    for point in [[0.9, 0.7], [-1.3, 0.4]] {
        let f = |p: &[f64]| twice(p[0], p[1]);
        let twin = |p: &[Dual64]| twice_twin(p[0], p[1]);
        let (value, d_x, d_z) = twice_grad(point[0], point[1]);
        check!(
            "twice",
            &point,
            (value, &[d_x, d_z]),
            against = [central(f), dual(twin)]
        );
        let (value, hessian) = twice_hessian(point[0], point[1]);
        assert_same_value("twice_hessian", value, f(&point), &point);
        oracle::Hessian::new("twice_hessian", &point, hessian.as_flattened())
            .dual(|q: &[HyperDual64]| twice_twin(q[0], q[1]));
    }
}
