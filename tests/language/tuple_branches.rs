//! Branches whose arms end in tuples or array literals, taken apart by `let`:
//! `let (lo, hi) = if x < y { (x, y) } else { (y, x) };`, `else if` chains, `match` on an
//! integer, nested branches, arms with statements before their tuple, `_` and `mut` positions,
//! an arm that returns, one inside a loop and an integer position. Each against central
//! differences and the `Value` engine, the value bit for bit `f`'s, at points in every arm.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable]
fn ordered(x: f64, y: f64) -> f64 {
    let (lo, hi) = if x < y { (x, y) } else { (y, x) };
    lo * 2.0 + hi.tanh() * lo
}

fn ordered_value(x: &Value, y: &Value) -> Value {
    let (lo, hi) = if x.data() < y.data() { (x, y) } else { (y, x) };
    lo * 2.0 + hi.tanh() * lo
}

#[differentiable]
fn chained(x: f64, y: f64) -> f64 {
    let [p, q] = if x < -1.0 {
        [x * x, y]
    } else if x < 1.0 {
        [y, x]
    } else {
        [x + y, x * y]
    };
    p * q + p
}

fn chained_value(x: &Value, y: &Value) -> Value {
    let [p, q] = if x.data() < -1.0 {
        [x * x, y.clone()]
    } else if x.data() < 1.0 {
        [y.clone(), x.clone()]
    } else {
        [x + y, x * y]
    };
    &p * &q + &p
}

#[differentiable]
fn picked(x: f64, y: f64, k: i64) -> f64 {
    let (a, b, c) = match k {
        0 => (x, y, x * y),
        1 | 2 => {
            let t = x.tanh();
            (t, t * y, 1.0)
        }
        _ => (y.exp(), x, y),
    };
    a * b + c
}

fn picked_value(x: &Value, y: &Value, k: i64) -> Value {
    let (a, b, c) = match k {
        0 => (x.clone(), y.clone(), x * y),
        1 | 2 => {
            let t = x.tanh();
            let b = &t * y;
            (t, b, Value::new(1.0))
        }
        _ => (y.exp(), x.clone(), y.clone()),
    };
    a * b + c
}

#[differentiable]
fn nested(x: f64, y: f64) -> f64 {
    let (mut u, v) = if x > 0.0 {
        let s = x * y;
        if y > 0.0 { (s, x) } else { (y, s.tanh()) }
    } else {
        match x < -1.0 {
            true => (x, 2.0),
            false => {
                let w = y * y;
                (w, x + w)
            }
        }
    };
    u += v * 0.5;
    u * v
}

fn nested_value(x: &Value, y: &Value) -> Value {
    let (u, v) = if x.data() > 0.0 {
        let s = x * y;
        if y.data() > 0.0 {
            (s, x.clone())
        } else {
            (y.clone(), s.tanh())
        }
    } else if x.data() < -1.0 {
        (x.clone(), Value::new(2.0))
    } else {
        let w = y * y;
        let v = x + &w;
        (w, v)
    };
    let u = u + &v * 0.5;
    u * v
}

#[differentiable]
fn skipped(x: f64, y: f64) -> f64 {
    let (_, b) = if x < y {
        (x.exp(), y * y)
    } else {
        (y, x * 3.0)
    };
    b + x
}

fn skipped_value(x: &Value, y: &Value) -> Value {
    let b = if x.data() < y.data() { y * y } else { x * 3.0 };
    b + x
}

#[differentiable]
fn exiting(x: f64, y: f64) -> f64 {
    let (a, b) = if x > 2.0 {
        return x * y;
    } else if y > 0.0 {
        (x, y)
    } else {
        (y, x * x)
    };
    a * b + a
}

fn exiting_value(x: &Value, y: &Value) -> Value {
    if x.data() > 2.0 {
        return x * y;
    }
    let (a, b) = if y.data() > 0.0 {
        (x.clone(), y.clone())
    } else {
        (y.clone(), x * x)
    };
    &a * &b + &a
}

#[differentiable]
fn looped(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let (a, b) = if s < x { (s + y, x) } else { (x, s * 0.5) };
        s = a * 0.5 + b * (i as f64);
    }
    s
}

fn looped_value(x: &Value, y: &Value) -> Value {
    let mut s = Value::new(0.0);
    for i in 0..3 {
        let (a, b) = if s.data() < x.data() {
            (&s + y, x.clone())
        } else {
            (x.clone(), &s * 0.5)
        };
        s = a * 0.5 + b * (i as f64);
    }
    s
}

#[differentiable]
fn counted(x: f64, y: f64) -> f64 {
    let (i, z) = if x < y { (2, x) } else { (3, y) };
    z * i as f64 + z * z
}

fn counted_value(x: &Value, y: &Value) -> Value {
    let (i, z) = if x.data() < y.data() { (2, x) } else { (3, y) };
    z * i as f64 + z * z
}

/// `g` against `f` (the value bit for bit, the gradient against central differences) and
/// against `v` on the `Value` engine, at each point.
fn check(
    name: &str,
    f: &dyn Fn(f64, f64) -> f64,
    g: &dyn Fn(f64, f64) -> (f64, f64, f64),
    v: &dyn Fn(&Value, &Value) -> Value,
    points: &[[f64; 2]],
) {
    for &[a, b] in points {
        let (value, da, db) = g(a, b);
        assert_same_value(name, value, f(a, b), &[a, b]);
        assert_gradient(name, |p| f(p[0], p[1]), &[a, b], &[da, db]);
        let (x, y) = (Value::new(a), Value::new(b));
        let reference = v(&x, &y);
        reference.backward();
        assert_near(&format!("{name} (Value)"), reference.data(), value, 1e-12);
        assert_near(&format!("{name} d/dx (Value)"), x.grad(), da, 1e-9);
        assert_near(&format!("{name} d/dy (Value)"), y.grad(), db, 1e-9);
    }
}

#[test]
fn two_arms() {
    let points = [[0.3, 1.1], [1.4, -0.6]];
    check("ordered", &ordered, &ordered_grad, &ordered_value, &points);
    check("skipped", &skipped, &skipped_grad, &skipped_value, &points);
    check("counted", &counted, &counted_grad, &counted_value, &points);
}

#[test]
fn else_if_chain_of_arrays() {
    let points = [[-1.7, 0.4], [0.2, -0.9], [1.6, 0.7]];
    check("chained", &chained, &chained_grad, &chained_value, &points);
}

#[test]
fn match_on_an_integer() {
    for k in [0, 1, 2, 5] {
        let f = |x, y| picked(x, y, k);
        let g = |x, y| picked_grad(x, y, k);
        let v = |x: &Value, y: &Value| picked_value(x, y, k);
        check("picked", &f, &g, &v, &[[0.4, -0.8], [-1.3, 0.6]]);
    }
}

#[test]
fn nested_branches() {
    let points = [[0.5, 0.8], [0.7, -0.4], [-1.5, 0.3], [-0.4, 1.2]];
    check("nested", &nested, &nested_grad, &nested_value, &points);
}

#[test]
fn an_arm_that_returns() {
    let points = [[2.5, 0.3], [0.6, 1.2], [-0.7, -0.5]];
    check("exiting", &exiting, &exiting_grad, &exiting_value, &points);
}

#[test]
fn inside_a_loop() {
    let points = [[0.8, 0.3], [-0.5, 0.4], [2.0, -1.1]];
    check("looped", &looped, &looped_grad, &looped_value, &points);
}
