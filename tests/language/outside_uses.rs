//! Names the function does not define, typed where the random generator found them refused
//! (issue 25, session 10): beside a float in a comparison (`(K2 * K3) < x`), as the receiver of
//! a float's method (`(PI * K1).tanh()`), bound by `let mut` and assigned floats later, an
//! exiting `match` value (`let v = match n { 1 => return x, _ => PI };`) read in a closure,
//! and an integer-valued `if` with an entry of an array of integers as an arm. Against central
//! differences and hand-written derivatives, the value bit for bit `f`'s.

use crate::common;

use common::{assert_near, check_slice, check1, derivative};
use micrograd_runtime::prelude::*;
use std::f64::consts::PI;

const K1: f64 = 1.5;
const K2: f64 = -0.75;
const K3: f64 = 0.25;

/// `K2 * K3` alone reads as integers; compared with a float, it is one.
#[differentiable(hessian)]
fn compared(x: f64) -> f64 {
    if (K2 * K3) < (if x.is_sign_positive() { x } else { -x }) {
        x * x
    } else {
        x
    }
}

/// Only a float has `tanh`.
#[differentiable(hessian)]
fn receiver(x: f64) -> f64 {
    let s = (PI * K1).tanh();
    s * x * x
}

/// A float-only method's receiver makes the outside names deep inside it floats: here a
/// block whose value is a sum of calls of a closure returning `k` (found by the fuzzer's seeds
/// from the random generator: "`relu` is called on an integer here").
#[differentiable(hessian)]
fn deep_receiver(x: f64) -> f64 {
    let k = K1;
    let s = ({
        let cl = |_t: f64| k;
        cl(x) + cl(1.0)
    })
    .relu();
    s * x * x
}

/// `let mut` needs its type where it is bound: the assignments after it say.
#[differentiable(hessian)]
fn mutable(x: f64) -> f64 {
    let mut a = K1;
    a = x - a;
    let mut b = PI;
    b += x * x;
    a + b
}

/// `let k = K1 * K2;` (two outside names read as integers) whose uses say it is a float, and
/// `powi` of such a product.
#[differentiable(hessian)]
fn product(x: f64, n: usize) -> f64 {
    let k = K1 * K2;
    let mut j = K3 * K1;
    j *= x;
    (k * x).sigmoid() + (K2 * K1).powi(n as i32) * x + k.tanh() + j
}

/// Taken apart by `let`, an argument of a closure's `f64` parameter, a method integers have
/// too (`abs`), a use through `f64::min` and `powi`, and `let pi = PI;` passed to a call.
#[differentiable(hessian)]
fn assorted(x: f64) -> f64 {
    let (a, b) = (
        {
            let y = x * 2.0;
            y * K1 * 0.5
        },
        K3 * K3,
    );
    let cl = |t: f64, u: f64| t * u + x;
    let c = K1 * K2;
    let d = K2 * K3;
    let pi = PI;
    a * b
        + cl(K2, x)
        + x / ((K1 * K3).abs() + 1.0)
        + f64::min(c, 0.0) * x
        + d.powi(2) * x
        + receiver(pi) * x
        + pi * x
}

/// An exiting `match`'s value read inside a closure of `fold`.
#[differentiable]
fn exiting(w: &[f64], x: f64) -> f64 {
    let v = match w.len() {
        1 => return x,
        _ => PI,
    };
    x * w.iter().fold(0.75_f64, |acc, &y| acc * 0.5 + (y - v) * 2.0)
}

/// An integer `if` with an entry of an array of integers as an arm.
#[differentiable]
fn picked(w: &[f64], x: f64, labels: &[usize]) -> f64 {
    let m = if w[0] >= -1.25 {
        [2, 4, 3, 1][w.len() % 4]
    } else {
        4 ^ w.len()
    };
    let n = if x > 0.0 { labels[0] % 2 } else { 2 % 2 };
    x * (m as f64) + w[m % w.len()] + w[n % w.len()] * x
}

#[test]
fn outside_names_typed_by_use() {
    let points = [-1.5, 0.25, 2.0];
    check1("compared", compared, compared_grad, &points);
    check1("receiver", receiver, receiver_grad, &points);
    check1("deep_receiver", deep_receiver, deep_receiver_grad, &points);
    for x in points {
        // (2 K1).relu() x²: 2 (2 K1) x, K1 being positive.
        let closed = 2.0 * (2.0 * K1) * x;
        assert_near(
            "deep_receiver closed form",
            deep_receiver_grad(x).1,
            closed,
            1e-12,
        );
    }
    check1("mutable", mutable, mutable_grad, &points);
    check1("assorted", assorted, assorted_grad, &points);
    for x in points {
        let closed = K1 * K3 * K3
            + K2
            + 1.0
            + 1.0 / (K1 * K3 + 1.0)
            + K1 * K2
            + (K2 * K3).powi(2)
            + receiver(PI)
            + PI;
        assert_near("assorted closed form", assorted_grad(x).1, closed, 1e-12);
        let (value, hessian) = assorted_hessian(x);
        assert_eq!(value.to_bits(), assorted(x).to_bits());
        assert_near("assorted hessian", hessian[0][0], 0.0, 1e-12);
    }
    for n in 0..3 {
        check1(
            "product",
            |x| product(x, 2),
            |x| product_grad(x, 2),
            &points,
        );
        for x in points {
            let s = (K1 * K2 * x).sigmoid();
            let closed = K1 * K2 * s * (1.0 - s) + (K2 * K1).powi(n) + K3 * K1;
            assert_near(
                "product closed form",
                product_grad(x, n as usize).1,
                closed,
                1e-12,
            );
        }
    }
    for x in points {
        assert_near(
            "receiver closed form",
            receiver_grad(x).1,
            2.0 * (PI * K1).tanh() * x,
            1e-12,
        );
        assert_near(
            "mutable closed form",
            mutable_grad(x).1,
            1.0 + 2.0 * x,
            1e-12,
        );
        let (value, hessian) = compared_hessian(x);
        assert_eq!(value.to_bits(), compared(x).to_bits());
        let second = if x.abs() > K2 * K3 { 2.0 } else { 0.0 };
        assert_near("compared hessian", hessian[0][0], second, 1e-12);
        let (value, hessian) = mutable_hessian(x);
        assert_eq!(value.to_bits(), mutable(x).to_bits());
        assert_near("mutable hessian", hessian[0][0], 2.0, 1e-12);
        for w in [vec![0.5], vec![0.5, -1.0, 2.0], vec![-2.0, 1.0]] {
            let mut d_w = vec![0.0; w.len()];
            let (value, d_x) = exiting_grad(&w, &mut d_w, x);
            assert_eq!(value.to_bits(), exiting(&w, x).to_bits());
            assert_near("exiting d_x", d_x, derivative(|x| exiting(&w, x), x), 1e-6);
            check_slice(
                "exiting",
                |w| exiting(w, x),
                |w, d| exiting_grad(w, d, x).0,
                &w,
            );
            let mut d_w = vec![0.0; w.len()];
            let labels = [3];
            let (value, d_x) = picked_grad(&w, &mut d_w, x, &labels);
            assert_eq!(value.to_bits(), picked(&w, x, &labels).to_bits());
            let numeric = derivative(|x| picked(&w, x, &labels), x);
            assert_near("picked d_x", d_x, numeric, 1e-6);
            let g = |w: &[f64], d: &mut [f64]| picked_grad(w, d, x, &labels).0;
            check_slice("picked", |w| picked(w, x, &labels), g, &w);
        }
    }
}
