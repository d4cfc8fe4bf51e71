//! Array literals, tuples and destructuring (issue 12), against central differences, a
//! differentiable caller, `f_graph` and the `Value` engine.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check2, check3};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable]
fn norm2(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * w[i];
    }
    s
}

/// Array literals: bound, indexed, written, passed to a call, and built in a loop.
#[differentiable]
fn literals(x: f64, y: f64) -> f64 {
    let v = [x * y, x + y, 2.0];
    let mut h = [x, 0.5, y];
    h[1] = v[0] * h[2];
    let mut s = norm2(&[x, y.tanh()]) + v[2] * v[1];
    for i in 0..3 {
        let c = [h[i], v[i]];
        s += c[0] * c[1] + norm2(&c);
    }
    s + norm2(&h) * norm2(&v[1..])
}

fn literals_value(x: f64, y: f64) -> (f64, f64, f64) {
    let (x, y) = (Value::new(x), Value::new(y));
    let sq = |w: &[Value]| w.iter().fold(Value::new(0.0), |s, v| s + v * v);
    let v = [&x * &y, &x + &y, Value::new(2.0)];
    let h = [x.clone(), &v[0] * &y, y.clone()];
    let mut s = sq(&[x.clone(), y.tanh()]) + &v[2] * &v[1];
    for i in 0..3 {
        let c = [h[i].clone(), v[i].clone()];
        s += &c[0] * &c[1] + sq(&c);
    }
    let out = s + sq(&h) * sq(&v[1..]);
    out.backward();
    (out.data(), x.grad(), y.grad())
}

const POINTS: [[f64; 2]; 4] = [[0.3, -1.1], [1.7, 0.4], [-0.8, 2.3], [0.0, 0.9]];

#[test]
fn array_literals() {
    check2("literals", literals, literals_grad, &POINTS);
    for [x, y] in POINTS {
        let (value, dx, dy) = literals_value(x, y);
        let grad = literals_grad(x, y);
        assert_eq!(value.to_bits(), grad.0.to_bits());
        assert_near("literals d/dx vs Value", dx, grad.1, 1e-12);
        assert_near("literals d/dy vs Value", dy, grad.2, 1e-12);
    }
}

/// Tuples: built, destructured (nested, with `_`), kept whole and read with `t.0`.
#[differentiable]
fn tuples(x: f64, y: f64, n: i32) -> f64 {
    let (a, b) = (x * y, x + y);
    let t = (a.tanh(), n + 1, b > 0.0);
    let ((p, _), [q, r]) = ((t.0 * b, 3.0), [a, b]);
    let mut s = if t.2 { p * q } else { p - r };
    let (mut u, k) = (s, t.1);
    u += (k as f64) * r;
    s = u * t.0;
    let &w = &s;
    w + q
}

fn tuples_value(x: f64, y: f64, n: i32) -> (f64, f64, f64) {
    let (x, y) = (Value::new(x), Value::new(y));
    let (a, b) = (&x * &y, &x + &y);
    let t0 = a.tanh();
    let (p, q, r) = (&t0 * &b, a.clone(), b.clone());
    let s = if b.data() > 0.0 { &p * &q } else { &p - &r };
    let u = s + f64::from(n + 1) * &r;
    let out = u * &t0 + &q;
    out.backward();
    (out.data(), x.grad(), y.grad())
}

#[test]
fn tuples_and_destructuring() {
    for n in [-2, 0, 5] {
        for [x, y] in POINTS {
            let (value, dx, dy) = tuples_grad(x, y, n);
            assert_same_value("tuples", value, tuples(x, y, n), &[x, y]);
            let f = |p: &[f64]| tuples(p[0], p[1], n);
            assert_gradient("tuples", f, &[x, y], &[dx, dy]);
            let (reference, vx, vy) = tuples_value(x, y, n);
            assert_near("tuples value vs Value", value, reference, 1e-15);
            assert_near("tuples d/dx vs Value", dx, vx, 1e-12);
            assert_near("tuples d/dy vs Value", dy, vy, 1e-12);
        }
    }
}

/// A differentiable caller of both, and the array destructuring of a parameter.
#[differentiable(graph)]
fn caller(x: f64, y: f64, w: &[f64; 2]) -> f64 {
    let [p, q] = *w;
    let [s, c] = [x.sin(), y.cos()];
    literals(p * s, q) + tuples(c, x, 3) * q
}

#[test]
fn through_a_caller_and_the_graph() {
    let w = [0.6, -1.4];
    let f = |p: &[f64]| caller(p[0], p[1], &[p[2], p[3]]);
    for [x, y] in POINTS {
        let mut d_w = [0.0; 2];
        let (value, dx, dy) = caller_grad(x, y, &w, &mut d_w);
        assert_same_value("caller", value, caller(x, y, &w), &[x, y]);
        assert_gradient("caller", f, &[x, y, w[0], w[1]], &[dx, dy, d_w[0], d_w[1]]);
        let graph = caller_graph(x, y, &w);
        assert_eq!(graph.node(graph.output().expect("output")).data(), value);
        let near = |name: &str, d: f64| {
            let node = graph.find(name).expect("input node");
            assert_near(name, node.grad(), d, 1e-12);
        };
        near("x", dx);
        near("y", dy);
        near("w[0]", d_w[0]);
        near("w[1]", d_w[1]);
    }
}

#[differentiable]
fn swap(x: f64, y: f64, z: f64) -> f64 {
    let (a, b, c) = (y, z, x);
    let (a, b) = (b * a, a - c);
    a * b + c
}

#[test]
fn shadowing_tuples() {
    check3(
        "swap",
        swap,
        swap_grad,
        &[[0.2, 1.3, -0.7], [2.0, -0.5, 0.4]],
    );
}
