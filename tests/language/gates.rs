//! Gates (`micrograd-codegen/src/diff/guard.rs`): the reverse code of a ReLU, a hinge, an
//! `abs` or a clamp's bound that reads only that select's adjoint runs under the select's own
//! test (`if !(h <= 0.0) { .. }`) instead of adding zeros. Units on and off, hinges satisfied
//! and not, against central differences and the `Value` engine; the value bit for bit `f`'s.

use crate::common;

use common::{check_slice, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// A 2-3-1 ReLU network's mean hinge loss, its units written out (straight-line code after
/// each ReLU: the three adds of a first-layer unit are gated on its activation).
#[differentiable(wrt(p))]
fn units(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let mut total = 0.0;
    for s in 0..ys.len() {
        let (x0, x1) = (xs[2 * s], xs[2 * s + 1]);
        let mut h = [0.0; 3];
        for j in 0..3 {
            h[j] = (p[3 * j + 2] + p[3 * j] * x0 + p[3 * j + 1] * x1).relu();
        }
        let score = p[9] * h[0] + p[10] * h[1] + p[11] * h[2] + p[12];
        total += (1.0 - ys[s] * score).relu();
    }
    total / ys.len() as f64
}

fn units_value(p: &[Value], xs: &[f64], ys: &[f64]) -> Value {
    let mut total = Value::new(0.0);
    for (x, y) in xs.chunks(2).zip(ys) {
        let h: Vec<Value> = (0..3)
            .map(|j| (&p[3 * j + 2] + &p[3 * j] * x[0] + &p[3 * j + 1] * x[1]).relu())
            .collect();
        let score = &p[9] * &h[0] + &p[10] * &h[1] + &p[11] * &h[2] + &p[12];
        total += (1.0 - score * *y).relu();
    }
    total * (1.0 / ys.len() as f64)
}

/// A ReLU beside another value of the same iteration: the other value's partial does not
/// vanish where the ReLU is off, so its code, which the reverse sweep reaches after the ReLU's,
/// stays outside the gate.
#[differentiable]
fn beside(w: &[f64], xs: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        let b = w[1] * xs[i] + w[2];
        let a = (w[0] * xs[i]).relu();
        s += a * w[3] + b * b;
    }
    s
}

fn beside_value(w: &[Value], xs: &[f64]) -> Value {
    let mut s = Value::new(0.0);
    for x in xs {
        let b = &w[1] * *x + &w[2];
        s += (&w[0] * *x).relu() * &w[3] + &b * &b;
    }
    s
}

/// `abs` (its partial is zero at 0) and a clamp's upper bound (its partial is the adjoint where
/// the bound is hit, zero elsewhere: a gate on `a > hi`).
#[differentiable]
fn kinks(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        let x = i as f64 - 1.5;
        s += (w[0] * x - w[1]).abs() * w[2];
    }
    for i in 0..4 {
        let x = i as f64 - 1.5;
        s += (0.8 * x).clamp(-1.0, w[3]) * x;
    }
    s
}

const XS: [f64; 8] = [0.3, -1.2, 1.1, 0.4, -0.7, -0.9, 1.6, 0.2];
const YS: [f64; 4] = [1.0, -1.0, 1.0, -1.0];

#[test]
fn gated_units_against_differences_and_value() {
    // Weights that turn units off at some points (and some hinges satisfied), away from kinks.
    let points: [&[f64]; 3] = [
        &[
            0.8, -0.5, 0.1, -0.6, 0.9, -0.2, 0.3, 0.7, 0.05, 1.2, -0.9, 0.6, 0.1,
        ],
        &[
            -0.4, 0.3, -0.3, 0.5, 0.5, 0.4, 0.9, -0.8, -0.1, -0.7, 1.1, 0.8, -0.3,
        ],
        &[
            2.0, 1.5, 0.9, -1.7, 0.2, 0.6, 0.1, 1.9, -0.4, 2.5, 0.4, -1.6, 0.9,
        ],
    ];
    let f = |p: &[f64]| units(p, &XS, &YS);
    let g = |p: &[f64]| {
        let mut d_p = vec![0.0; p.len()];
        let value = units_grad(p, &mut d_p, &XS, &YS);
        [vec![value], d_p].concat()
    };
    let v = |p: &[Value]| units_value(p, &XS, &YS);
    check_with_value("units", &f, &g, &v, &points);
    // The points do exercise both sides of the gates.
    let off = |p: &[f64]| {
        XS.chunks(2)
            .flat_map(|x| (0..3).map(move |j| p[3 * j + 2] + p[3 * j] * x[0] + p[3 * j + 1] * x[1]))
            .filter(|z| *z <= 0.0)
            .count()
    };
    assert!(points.iter().all(|p| off(p) > 0 && off(p) < 12));
}

#[test]
fn code_after_a_relu_reading_another_adjoint_still_runs() {
    let xs = [0.5, -1.5, 2.0, -0.25];
    let f = |w: &[f64]| beside(w, &xs);
    let g = |w: &[f64]| {
        let (mut d_w, mut d_xs) = (vec![0.0; 4], vec![0.0; 4]);
        let value = beside_grad(w, &mut d_w, &xs, &mut d_xs);
        [vec![value], d_w].concat()
    };
    let v = |w: &[Value]| beside_value(w, &xs);
    let points: [&[f64]; 2] = [&[0.7, -0.4, 0.3, 1.3], &[-1.1, 0.9, -0.6, -0.8]];
    check_with_value("beside", &f, &g, &v, &points);
}

#[test]
fn abs_and_a_clamp_bound_against_differences() {
    for w in [[0.7, 0.2, 1.3, 0.5], [-1.2, -0.45, 0.8, 1.1]] {
        check_slice("kinks", kinks, kinks_grad, &w);
    }
}
