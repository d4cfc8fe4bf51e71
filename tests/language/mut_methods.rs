//! `&mut self` methods (issue 25): the body reads `self` as a `&self` method's does, so the
//! method and every generated method take `&self` (a write to a field is one error, ui
//! `method_writes_self`), the shadow `d_self: &mut Self` right after the receiver; a `&mut self`
//! method calls another (`self.score(x)`) and a `&self` one. Every flavour against central
//! differences of the plain method and num-dual on a generic twin, the value bit for bit the
//! method's.
#![deny(warnings)]

use crate::common;

use common::oracle::{self, check};
use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

/// A unit `scale · tanh(w · x + b)` that a stateful API would take by `&mut self`.
#[derive(Differentiable, Clone, Debug)]
struct Unit {
    w: [f64; 2],
    b: f64,
    scale: f64,
    calls: usize,
}

impl Unit {
    #[differentiable(hessian)]
    fn score(&mut self, x: &[f64]) -> f64 {
        self.scale * (self.w[0] * x[0] + self.w[1] * x[1] + self.b).tanh()
    }

    #[differentiable(hessian)]
    fn shift(&self, x: f64) -> f64 {
        self.b * x * x
    }

    /// Calls a `&mut self` method and a `&self` one; `wrt(self)`: the data are constants.
    #[differentiable(wrt(self), hessian)]
    fn loss(&mut self, data: &[[f64; 2]], labels: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..data.len() {
            let x = [data[i][0], data[i][1]];
            let e = self.score(&x) - labels[i] + self.shift(x[0]);
            s += e * e;
        }
        s / data.len() as f64
    }

    /// `self: &mut Self`, spelled out, and `wrt(x)`: the unit a constant.
    #[allow(
        clippy::needless_arbitrary_self_type,
        reason = "the receiver spelled out is the form under test"
    )]
    #[differentiable(wrt(x), jvp)]
    fn spelled(self: &mut Self, x: f64) -> f64 {
        self.w[1] * x.sin() + self.scale * x
    }

    fn flat(&self) -> [f64; 4] {
        [self.w[0], self.w[1], self.b, self.scale]
    }

    fn with(p: &[f64]) -> Unit {
        Unit {
            w: [p[0], p[1]],
            b: p[2],
            scale: p[3],
            calls: 7,
        }
    }
}

/// `Unit::loss` over any dual number, its parameters flattened.
fn loss_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let mut s = D::from(0.0);
    for (x, label) in DATA.iter().zip(LABELS) {
        let z = p[0] * D::from(x[0]) + p[1] * D::from(x[1]) + p[2];
        let e = p[3] * z.tanh() - D::from(label) + p[2] * D::from(x[0] * x[0]);
        s += e * e;
    }
    s / D::from(DATA.len() as f64)
}

const DATA: [[f64; 2]; 3] = [[0.5, 1.0], [-1.2, 0.3], [2.0, -0.7]];
const LABELS: [f64; 3] = [0.4, -0.6, 1.1];

fn unit() -> Unit {
    Unit::with(&[0.7, -0.4, 0.15, 1.3])
}

#[test]
fn loss_grad_against_central_differences_and_num_dual() {
    let u = unit();
    let mut d_u = u.zeroed_like();
    let value = u.loss_grad(&mut d_u, &DATA, &LABELS);
    let f = |p: &[f64]| Unit::with(p).loss(&DATA, &LABELS);
    check!(
        "loss",
        &u.flat(),
        (value, &d_u.flat()),
        against = [central(f), dual(loss_twin)]
    );
    // Integers are copied into the shadow, untouched.
    assert_eq!(d_u.calls, 7);
    let mut d_p = u.zeroed_like();
    u.loss_pullback(&mut d_p, &DATA, &LABELS, &mut [], -1.5);
    for (p, g) in d_p.flat().iter().zip(d_u.flat()) {
        assert_near("loss_pullback", *p, -1.5 * g, 1e-14);
    }
}

#[test]
fn loss_jvp_hvp_and_hessian_against_num_dual() {
    let u = unit();
    let v = Unit::with(&[0.3, -1.1, 0.8, -0.5]);
    let exact = u.clone().loss(&DATA, &LABELS);
    let (_, gradient) = oracle::dual_gradient(loss_twin, &u.flat());
    let (value, directional) = u.loss_jvp(&v, &DATA, &LABELS);
    assert_eq!(value.to_bits(), exact.to_bits(), "loss_jvp value");
    let along: f64 = gradient.iter().zip(v.flat()).map(|(g, v)| g * v).sum();
    assert_near("loss_jvp", directional, along, 1e-13);
    let hessian = oracle::dual_hessian(loss_twin, &u.flat());
    let mut hv = u.zeroed_like();
    let value = u.loss_hvp(&v, &mut hv, &DATA, &LABELS);
    assert_eq!(value.to_bits(), exact.to_bits(), "loss_hvp value");
    for (i, row) in hessian.iter().enumerate() {
        let expected: f64 = row.iter().zip(v.flat()).map(|(h, v)| h * v).sum();
        assert_near(&format!("loss_hvp [{i}]"), hv.flat()[i], expected, 1e-12);
    }
    let mut hess = [0.0; 16];
    u.loss_hessian(&DATA, &LABELS, &mut hess);
    oracle::Hessian::new("loss_hessian", &u.flat(), &hess).dual(loss_twin);
}

#[test]
fn score_differentiates_self_and_x() {
    let u = unit();
    let x = [0.6, -0.9];
    let mut d_u = u.zeroed_like();
    let mut d_x = [0.0; 2];
    let value = u.score_grad(&mut d_u, &x, &mut d_x);
    let point = [u.flat().as_slice(), &x].concat();
    let f = |p: &[f64]| Unit::with(p).score(&p[4..]);
    let twin = |p: &[num_dual::Dual64]| p[3] * (p[0] * p[4] + p[1] * p[5] + p[2]).tanh();
    let gradient = [d_u.flat().as_slice(), &d_x].concat();
    check!(
        "score",
        &point,
        (value, &gradient),
        against = [central(f), dual(twin)]
    );
}

#[test]
fn spelled_receiver_with_wrt_x() {
    let u = unit();
    let x = 0.8;
    let (value, d_x) = u.spelled_grad(x);
    assert_eq!(value.to_bits(), u.spelled(x).to_bits());
    let plain = unit();
    assert_partial("spelled", |p: &[f64]| plain.spelled(p[0]), &[x], 0, d_x);
    let (value, v) = u.spelled_jvp(x, 2.0);
    assert_eq!(value.to_bits(), u.spelled(x).to_bits());
    assert_near("spelled_jvp", v, 2.0 * (u.w[1] * x.cos() + u.scale), 1e-15);
}
