//! Nested derivatives of a generic function (issue 25): a `#[differentiable]` caller, generic
//! over `T: Float` or written in `f64`, calls `g_grad` of a function generic over its float
//! (`g` built with `hvp`), and the caller's own gradient goes through `g_grad_pullback` at
//! `f64` and `f32`. Against central differences and num-dual on a twin of the caller with the
//! inner gradient written out by hand (`∂g/∂x = 2xy`, `∂g/∂y = x²`).

#![deny(warnings)]

use crate::common;

use common::assert_near;
use common::oracle::check;
use micrograd_runtime::Record;
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

#[differentiable(hvp)]
pub fn g<T: Float>(x: T, y: T) -> T {
    x * x * y + (x * y).sin()
}

/// Generic itself: it states `T: Record`, which `g_grad` asks of a generic caller.
#[differentiable]
pub fn caller<T: Float + Record>(x: T, y: T) -> T {
    let (v, dx, dy) = g_grad(x, y);
    v + dx * dy
}

#[differentiable]
pub fn caller64(x: f64, y: f64) -> f64 {
    let (v, dx, dy) = g_grad(x, y);
    v * dx - dy
}

fn parts<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> (D, D, D) {
    let v = x * x * y + (x * y).sin();
    let dx = x * y * D::from(2.0) + y * (x * y).cos();
    let dy = x * x + x * (x * y).cos();
    (v, dx, dy)
}

#[test]
fn a_generic_callee_s_gradient_differentiated_at_f64() {
    for point in [[1.5, 0.5], [-0.7, 2.0], [0.0, 1.0]] {
        let (value, d_x, d_y) = caller_grad(point[0], point[1]);
        check!(
            "caller",
            &point,
            (value, &[d_x, d_y]),
            against = [
                central(|p: &[f64]| caller(p[0], p[1])),
                dual(|p: &[num_dual::Dual64]| {
                    let (v, dx, dy) = parts(p[0], p[1]);
                    v + dx * dy
                }),
            ]
        );
        let (value, d_x, d_y) = caller64_grad(point[0], point[1]);
        check!(
            "caller64",
            &point,
            (value, &[d_x, d_y]),
            against = [
                central(|p: &[f64]| caller64(p[0], p[1])),
                dual(|p: &[num_dual::Dual64]| {
                    let (v, dx, dy) = parts(p[0], p[1]);
                    v * dx - dy
                }),
            ]
        );
    }
}

#[test]
fn and_at_f32() {
    let (x, y) = (1.5f32, 0.5f32);
    let (value, d_x, d_y) = caller_grad(x, y);
    assert_eq!(value.to_bits(), caller(x, y).to_bits());
    let (_, reference) = common::oracle::dual_gradient(
        |p: &[num_dual::Dual64]| {
            let (v, dx, dy) = parts(p[0], p[1]);
            v + dx * dy
        },
        &[1.5, 0.5],
    );
    assert_near("caller f32 d_x", f64::from(d_x), reference[0], 1e-5);
    assert_near("caller f32 d_y", f64::from(d_y), reference[1], 1e-5);
}
