//! `x: &f64` parameters (issue 24), differentiated as an `f64` is: the partial an entry of the
//! returned tuple, the tangent a plain `f64`, the body reading `x` and `*x` alike, a caller
//! passing `&y` and `&(expr)`. Against central differences and num-dual on generic twins.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

#[differentiable(hvp, hessian)]
fn sq(x: &f64) -> f64 {
    x * x
}

/// `x` and `*x`, a method, a comparison and a math function on a `&f64`, beside an `f64`.
#[differentiable(hvp, hessian)]
fn mixed(x: &f64, y: f64) -> f64 {
    let s = if *x < y { x.sin() * y } else { (*x).exp() - y };
    s + x.powi(3) * y + f64::max(*x, 0.25) * y.ln()
}

fn mixed_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let s = if x.re() < y.re() {
        x.sin() * y
    } else {
        x.exp() - y
    };
    let m = if x.re() > 0.25 { x } else { D::from(0.25) };
    s + x.powi(3) * y + m * y.ln()
}

/// A caller passing `&y`, `&(expr)` and its own `&f64` on.
#[differentiable(hvp, hessian)]
fn caller(a: &f64, b: f64) -> f64 {
    let y = b * 0.5 + 1.0;
    sq(&y) + mixed(a, b) + sq(&(y * *a)) + mixed(&b, y)
}

fn caller_plain(a: f64, b: f64) -> f64 {
    let y = b * 0.5 + 1.0;
    sq(&y) + mixed(&a, b) + sq(&(y * a)) + mixed(&b, y)
}

fn caller_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> D {
    let y = b * D::from(0.5) + D::from(1.0);
    y * y + mixed_twin(a, b) + (y * a) * (y * a) + mixed_twin(b, y)
}

/// `wrt` choosing a `&f64` and an `f64` and leaving another `&f64` out.
#[differentiable(wrt(x, z))]
fn chosen(x: &f64, c: &f64, z: f64) -> f64 {
    x * c * z + (x / z).cos() + c.sin()
}

const POINTS: [(f64, f64); 4] = [(0.3, 1.7), (1.2, 0.8), (-0.6, 2.5), (2.0, 0.4)];

#[test]
fn sq_and_its_flavours() {
    for x in [-1.5, 0.0, 0.7, 3.0] {
        let (value, d_x) = sq_grad(&x);
        assert_same_value("sq_grad", value, sq(&x), &[x]);
        assert_near("sq_grad", d_x, common::derivative(|x| sq(&x), x), 1e-6);
        let (value, tangent) = sq_jvp(&x, 0.5);
        assert_same_value("sq_jvp", value, sq(&x), &[x]);
        assert_near("sq_jvp", tangent, 0.5 * 2.0 * x, 1e-12);
        let (value, hv) = sq_hvp(&x, 0.5);
        assert_same_value("sq_hvp", value, sq(&x), &[x]);
        assert_near("sq_hvp", hv, 1.0, 1e-12);
        let (value, h) = sq_hessian(&x);
        assert_same_value("sq_hessian", value, sq(&x), &[x]);
        assert_near("sq_hessian", h[0][0], 2.0, 1e-12);
    }
}

/// The gradient against central differences, the JVP against num-dual's first derivatives,
/// the HVP and the Hessian against num-dual's hyper-duals, the value bit for bit `f`'s.
#[allow(clippy::too_many_arguments)] // a flavour or a reference each
fn check(
    name: &str,
    f: fn(f64, f64) -> f64,
    grad: impl Fn(f64, f64) -> (f64, f64, f64),
    jvp: impl Fn(f64, f64, f64, f64) -> (f64, f64),
    hvp: impl Fn(f64, f64, f64, f64) -> (f64, f64, f64),
    hessian: impl Fn(f64, f64) -> (f64, [[f64; 2]; 2]),
    twin: fn(Dual64, Dual64) -> Dual64,
    twin2: fn(HyperDual64, HyperDual64) -> HyperDual64,
) {
    for (a, b) in POINTS {
        let (value, d_a, d_b) = grad(a, b);
        assert_same_value(name, value, f(a, b), &[a, b]);
        assert_gradient(name, |p| f(p[0], p[1]), &[a, b], &[d_a, d_b]);
        let (va, vb) = (0.7, -1.3);
        let (value, tangent) = jvp(a, va, b, vb);
        assert_same_value(name, value, f(a, b), &[a, b]);
        let dual = twin(Dual64::new(a, va), Dual64::new(b, vb));
        assert_near(name, tangent, dual.eps, 1e-12);
        let mut hess = [[0.0; 2]; 2];
        for (i, j) in [(0, 0), (0, 1), (1, 1)] {
            let var = |k: usize, a: f64| {
                HyperDual64::new(a, (k == i) as u8 as f64, (k == j) as u8 as f64, 0.0)
            };
            hess[i][j] = twin2(var(0, a), var(1, b)).eps1eps2;
            hess[j][i] = hess[i][j];
        }
        let (value, hv_a, hv_b) = hvp(a, va, b, vb);
        assert_same_value(name, value, f(a, b), &[a, b]);
        assert_near(name, hv_a, hess[0][0] * va + hess[0][1] * vb, 1e-10);
        assert_near(name, hv_b, hess[1][0] * va + hess[1][1] * vb, 1e-10);
        let (value, h) = hessian(a, b);
        assert_same_value(name, value, f(a, b), &[a, b]);
        for i in 0..2 {
            for j in 0..2 {
                assert_near(name, h[i][j], hess[i][j], 1e-10);
            }
        }
    }
}

#[test]
fn mixed_against_num_dual() {
    check(
        "mixed",
        |a, b| mixed(&a, b),
        |a, b| mixed_grad(&a, b),
        |a, va, b, vb| mixed_jvp(&a, va, b, vb),
        |a, va, b, vb| mixed_hvp(&a, va, b, vb),
        |a, b| mixed_hessian(&a, b),
        mixed_twin,
        mixed_twin,
    );
}

#[test]
fn caller_through_ref_arguments() {
    check(
        "caller",
        caller_plain,
        |a, b| caller_grad(&a, b),
        |a, va, b, vb| caller_jvp(&a, va, b, vb),
        |a, va, b, vb| caller_hvp(&a, va, b, vb),
        |a, b| caller_hessian(&a, b),
        caller_twin,
        caller_twin,
    );
}

#[test]
fn wrt_mixes_ref_and_value() {
    let f = |p: &[f64]| chosen(&p[0], &p[1], p[2]);
    for (x, c, z) in [(0.3, 1.1, 1.7), (-1.2, 0.4, 0.9)] {
        let (value, d_x, d_z) = chosen_grad(&x, &c, z);
        assert_same_value("chosen", value, chosen(&x, &c, z), &[x, c, z]);
        common::assert_partial("chosen", f, &[x, c, z], 0, d_x);
        common::assert_partial("chosen", f, &[x, c, z], 2, d_z);
    }
}

#[differentiable]
fn half(x: f64) -> f64 {
    0.5 * x
}

/// What a call returned, passed on by reference: `&(v)` says it is one `f64`.
#[differentiable]
fn through_result(x: &f64) -> f64 {
    let v = half(*x);
    sq(&(v)) * x
}

#[test]
fn call_result_by_reference() {
    for x in [0.4, -1.1] {
        let (value, d_x) = through_result_grad(&x);
        assert_same_value("through_result", value, through_result(&x), &[x]);
        assert_near(
            "through_result",
            d_x,
            common::derivative(|x| through_result(&x), x),
            1e-6,
        );
    }
}

/// A `&f64` parameter copied by `let` and passed on: the copy is a `&f64` too.
#[differentiable]
fn through_copy(a: &f64, b: f64) -> f64 {
    let z = a;
    let w = z;
    sq(z) * b + sq(w)
}

#[test]
fn a_copied_reference_is_passed_on_borrowed() {
    for (a, b) in [(0.4, 1.5), (-1.1, 0.3)] {
        let (value, d_a, d_b) = through_copy_grad(&a, b);
        assert_same_value("through_copy", value, through_copy(&a, b), &[a, b]);
        let f = |p: &[f64]| through_copy(&p[0], p[1]);
        assert_gradient("through_copy", f, &[a, b], &[d_a, d_b]);
    }
}
