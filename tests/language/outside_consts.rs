//! Names the function does not define (issue 25): constants and statics of the module and
//! items brought in by `use`, whose type the macro cannot see, read as floats where their use
//! says so (Rust converts nothing implicitly: a name in arithmetic with a float, or bound where
//! a float is needed, is one). Each guess is printed pinned to `f64`, so a wrong one is
//! rustc's error at the name (tests/ui/outside_const_not_a_float.rs). Against central
//! differences and the `Value` engine, the value bit for bit `f`'s, in every flavour.

use crate::common;

use common::{assert_near, check1};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use std::f64::consts::PI;

const K: f64 = 3.0;
static S: f64 = 0.5;
const N: usize = 3;

/// `K * K` alone says nothing; beside `x` it is a float (it was read as integers).
#[differentiable(hessian)]
fn scaled(x: f64) -> f64 {
    x * (K * K) + K * K * x.tanh()
}

/// Bound where a float is needed: `let k2: f64 = K * K;` (it gave a new error).
#[differentiable(hessian)]
fn annotated(x: f64) -> f64 {
    let k2: f64 = K * K;
    x * k2 - S
}

/// `let pi = PI;` after `use std::f64::consts::PI`: `pi` stands for `PI`, typed by its uses.
#[differentiable(hessian)]
fn circle(r: f64) -> f64 {
    let pi = PI;
    let half = S;
    pi * r * r * half
}

/// Integer constants stay integers where their use says so.
#[differentiable]
fn counted(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    let n = N;
    for i in 0..n {
        s += w[i] * K + x * (i as f64);
    }
    s
}

fn value_scaled(x: f64) -> f64 {
    let x = Value::new(x);
    let y = &x * (K * K) + (K * K) * &x.tanh();
    y.backward();
    x.grad()
}

#[test]
fn outside_constants_against_references() {
    let points = [-1.5, 0.25, 2.0];
    check1("scaled", scaled, scaled_grad, &points);
    check1("annotated", annotated, annotated_grad, &points);
    check1("circle", circle, circle_grad, &points);
    for x in points {
        assert_near("scaled vs Value", scaled_grad(x).1, value_scaled(x), 1e-12);
        let (value, d) = circle_grad(x);
        assert_eq!(value.to_bits(), circle(x).to_bits());
        assert_near("circle closed form", d, PI * x, 1e-12);
        let (value, hessian) = circle_hessian(x);
        assert_eq!(value.to_bits(), circle(x).to_bits());
        assert_near("circle hessian", hessian[0][0], PI, 1e-12);
        let (value, hessian) = scaled_hessian(x);
        assert_eq!(value.to_bits(), scaled(x).to_bits());
        let t = x.tanh();
        assert_near(
            "scaled hessian",
            hessian[0][0],
            -2.0 * K * K * t * (1.0 - t * t),
            1e-12,
        );
        let (value, tangent) = annotated_jvp(x, 2.0);
        assert_eq!(value.to_bits(), annotated(x).to_bits());
        assert_near("annotated jvp", tangent, 2.0 * K * K, 1e-12);
    }
    let w = [0.5, -1.0, 2.0, 7.0];
    let mut d_w = [0.0; 4];
    let (value, d_x) = counted_grad(&w, &mut d_w, 1.5);
    assert_eq!(value.to_bits(), counted(&w, 1.5).to_bits());
    assert_eq!(d_w, [K, K, K, 0.0]);
    assert_near("counted d_x", d_x, 3.0, 1e-12);
}

const MAX: usize = 2;

/// An integer-valued `if` of outside constants.
#[differentiable]
fn smaller(w: &[f64]) -> f64 {
    let m = if MAX < N { MAX } else { N };
    let mut s = 0.0;
    for i in 0..m {
        s += w[i] * w[i];
    }
    s
}

#[test]
fn an_integer_valued_if() {
    let w = [1.5, -2.0, 3.0];
    let mut d_w = [0.0; 3];
    let value = smaller_grad(&w, &mut d_w);
    assert_eq!(value.to_bits(), smaller(&w).to_bits());
    assert_eq!(d_w, [3.0, -4.0, 0.0]);
}

const J: f64 = -0.75;

/// An `if` of outside names under a condition with no float, used with a float: a float
/// (it was read as an integer, then `x * v` was refused).
#[differentiable(hessian)]
fn picked(x: f64, n: usize) -> f64 {
    let v = if n > 2 { K } else { J };
    x * v + x * x * v
}

/// Used with a local bound after it, through a method.
#[differentiable]
fn picked_later(x: f64, w: &[f64]) -> f64 {
    let v = if w.len() > 2 { K } else { J };
    let y = x.sin();
    y * v + w[0]
}

#[test]
fn an_if_of_outside_names_typed_by_its_use() {
    for n in [1, 3] {
        let v = if n > 2 { K } else { J };
        for x in [-1.5, 0.25, 2.0] {
            let (value, d) = picked_grad(x, n);
            assert_eq!(value.to_bits(), picked(x, n).to_bits());
            assert_near("picked", d, common::derivative(|x| picked(x, n), x), 1e-6);
            assert_near("picked closed form", d, v + 2.0 * x * v, 1e-12);
            assert_near(
                "picked hessian",
                picked_hessian(x, n).1[0][0],
                2.0 * v,
                1e-12,
            );
        }
    }
    for w in [[1.0, 2.0].as_slice(), &[1.0, 2.0, 3.0]] {
        let v = if w.len() > 2 { K } else { J };
        for x in [-1.5, 0.25, 2.0] {
            let mut d_w = vec![0.0; w.len()];
            let (value, d) = picked_later_grad(x, w, &mut d_w);
            assert_eq!(value.to_bits(), picked_later(x, w).to_bits());
            let numeric = common::derivative(|x| picked_later(x, w), x);
            assert_near("picked_later", d, numeric, 1e-6);
            assert_near("picked_later closed form", d, x.cos() * v, 1e-12);
        }
    }
}
