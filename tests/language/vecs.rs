//! Local `Vec`s (`vec![0.0; n]`, `vec![a, b, c]`) of run-time length: written by index, read,
//! iterated, summed and passed on as `&v` and `&v[..]`, against central differences, a
//! hand-written gradient and the `Value` engine; the value bit for bit `f`'s; and through a
//! differentiable caller's pullback.

// `vec![a, b]` where an array would do is what these tests take as input.
#![allow(clippy::useless_vec)]

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check_slice};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable(hvp)]
fn sum_sq(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in w {
        s += v * v;
    }
    s
}

/// Softmax into a buffer, then the entropy-like sum of its entries times `x`.
#[differentiable]
fn softmax_dot(x: &[f64]) -> f64 {
    let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut e = vec![0.0; x.len()];
    let mut total = 0.0;
    for i in 0..x.len() {
        e[i] = (x[i] - m).exp();
        total += e[i];
    }
    for i in 0..e.len() {
        e[i] /= total;
    }
    let mut s = 0.0;
    for (p, v) in e.iter().zip(x) {
        s += p * v;
    }
    s + sum_sq(&e) + sum_sq(&e[1..])
}

fn softmax_dot_value(x: &[Value]) -> Value {
    let m = x.iter().map(Value::data).fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<Value> = x.iter().map(|v| (v - m).exp()).collect();
    let total = e.iter().fold(Value::new(0.0), |s, v| s + v);
    let p: Vec<Value> = e.iter().map(|v| v / &total).collect();
    let sq = |w: &[Value]| w.iter().fold(Value::new(0.0), |s, v| s + v * v);
    let dot = p.iter().zip(x).fold(Value::new(0.0), |s, (a, b)| s + a * b);
    dot + sq(&p) + sq(&p[1..])
}

/// A literal `Vec`, and a buffer of a computed length filled from two sources.
#[differentiable]
fn literal_and_buffer(a: f64, b: f64, w: &[f64], n: usize) -> f64 {
    let v = vec![a * b, a + b, 2.0];
    let mut h = vec![0.5; 2 * n + 1];
    for k in 0..h.len() {
        h[k] += w[k % w.len()] * v[k % 3];
    }
    let total: f64 = h.iter().sum();
    total * v[0] + sum_sq(&h[..]) - v.iter().map(|x| x.tanh()).sum::<f64>()
}

fn literal_and_buffer_closed(a: f64, b: f64, w: &[f64], n: usize) -> (f64, f64, Vec<f64>) {
    // ∂/∂v_j and ∂/∂w_i by hand: h_k = w_(k mod m) v_(k mod 3) + 0.5.
    let v = [a * b, a + b, 2.0];
    let len = 2 * n + 1;
    let h: Vec<f64> = (0..len).map(|k| w[k % w.len()] * v[k % 3] + 0.5).collect();
    let total: f64 = h.iter().sum();
    let mut d_v = [0.0; 3];
    let mut d_w = vec![0.0; w.len()];
    for k in 0..len {
        let d_h = v[0] + 2.0 * h[k];
        d_v[k % 3] += d_h * w[k % w.len()];
        d_w[k % w.len()] += d_h * v[k % 3];
    }
    d_v[0] += total;
    for j in 0..3 {
        d_v[j] -= 1.0 - v[j].tanh().powi(2);
    }
    (d_v[0] * b + d_v[1], d_v[0] * a + d_v[1], d_w)
}

const SLICES: [&[f64]; 3] = [&[0.3, -1.2, 2.5], &[1.0], &[-0.4, 0.7, 0.1, -2.2, 1.3]];

#[test]
fn buffers_of_run_time_length() {
    for x in SLICES {
        check_slice("softmax_dot", softmax_dot, softmax_dot_grad, x);
        let mut d_x = vec![0.0; x.len()];
        let value = softmax_dot_grad(x, &mut d_x);
        let inputs: Vec<Value> = x.iter().map(|&v| Value::new(v)).collect();
        let reference = softmax_dot_value(&inputs);
        reference.backward();
        assert_near("softmax_dot vs Value", value, reference.data(), 1e-14);
        for (input, d) in inputs.iter().zip(&d_x) {
            assert_near("softmax_dot d/dx vs Value", input.grad(), *d, 1e-12);
        }
    }
}

#[test]
fn literal_vecs_and_computed_lengths() {
    for (n, w) in [
        (0, &[0.4][..]),
        (1, &[0.3, -1.1]),
        (3, &[1.5, -0.5, 0.25, 2.0]),
    ] {
        for [a, b] in [[0.3, -0.8], [1.2, 0.45]] {
            let mut d_w = vec![0.0; w.len()];
            let (value, da, db) = literal_and_buffer_grad(a, b, w, &mut d_w, n);
            assert_same_value(
                "literal_and_buffer",
                value,
                literal_and_buffer(a, b, w, n),
                &[a, b],
            );
            let mut point = vec![a, b];
            point.extend_from_slice(w);
            let f = |p: &[f64]| literal_and_buffer(p[0], p[1], &p[2..], n);
            let mut gradient = vec![da, db];
            gradient.extend_from_slice(&d_w);
            assert_gradient("literal_and_buffer", f, &point, &gradient);
            let (ca, cb, cw) = literal_and_buffer_closed(a, b, w, n);
            assert_near("d/da closed form", da, ca, 1e-12);
            assert_near("d/db closed form", db, cb, 1e-12);
            for (x, y) in d_w.iter().zip(&cw) {
                assert_near("d/dw closed form", *x, *y, 1e-12);
            }
        }
    }
}

/// A caller of both, differentiated through their pullbacks.
#[differentiable]
fn caller(x: f64, w: &[f64]) -> f64 {
    let mut buffer = vec![0.0; w.len() + 1];
    buffer[0] = x;
    for i in 0..w.len() {
        buffer[i + 1] = w[i] * x;
    }
    softmax_dot(&buffer) + literal_and_buffer(x, w[0], &buffer, 2)
}

#[test]
fn through_a_caller() {
    let w = [0.6, -1.4, 0.3];
    for x in [0.3, -0.8, 1.1] {
        let mut d_w = [0.0; 3];
        let (value, dx) = caller_grad(x, &w, &mut d_w);
        assert_same_value("caller", value, caller(x, &w), &[x]);
        let f = |p: &[f64]| caller(p[0], &p[1..]);
        assert_gradient(
            "caller",
            f,
            &[x, w[0], w[1], w[2]],
            &[dx, d_w[0], d_w[1], d_w[2]],
        );
        let mut seeded = [0.0; 3];
        let px = caller_pullback(x, &w, &mut seeded, -2.0);
        assert_near("caller pullback d/dx", px, -2.0 * dx, 1e-15);
        for (a, b) in seeded.iter().zip(d_w) {
            assert_near("caller pullback d/dw", *a, -2.0 * b, 1e-15);
        }
    }
}

/// Forward mode, second order and the graph through a `Vec`: its tangent and its adjoint's
/// are `Vec`s too.
#[differentiable(hessian, graph)]
fn smooth(x: &[f64], a: f64) -> f64 {
    let mut h = vec![0.0; x.len()];
    for i in 0..x.len() {
        h[i] = (x[i] * a).sin() + x[i] * x[i];
    }
    let v = vec![a, a * a];
    h.iter().map(|t| t * t).sum::<f64>() * v[1] + sum_sq(&h) * v[0]
}

#[test]
fn second_order_and_the_graph() {
    let x = [0.4, -0.9, 1.3];
    let a = 0.7;
    let (n, h) = (x.len() + 1, 1e-6);
    let mut point = x.to_vec();
    point.push(a);
    let grad = |p: &[f64]| {
        let mut d = vec![0.0; n - 1];
        let (_, d_a) = smooth_grad(&p[..n - 1], &mut d, p[n - 1]);
        d.push(d_a);
        d
    };
    let mut hess = vec![0.0; n * n];
    let value = smooth_hessian(&x, a, &mut hess);
    assert_same_value("smooth_hessian", value, smooth(&x, a), &point);
    for j in 0..n {
        let (mut up, mut down) = (point.clone(), point.clone());
        up[j] += h;
        down[j] -= h;
        let (gu, gd) = (grad(&up), grad(&down));
        for i in 0..n {
            let reference = (gu[i] - gd[i]) / (2.0 * h);
            assert_near(&format!("H[{i}][{j}]"), hess[i * n + j], reference, 1e-6);
        }
    }
    let v = [0.5, -1.0, 0.25, 2.0];
    let (jvp_value, dot) = smooth_jvp(&x, &v[..3], a, v[3]);
    assert_same_value("smooth_jvp", jvp_value, smooth(&x, a), &point);
    let g = grad(&point);
    let expected: f64 = g.iter().zip(v).map(|(g, v)| g * v).sum();
    assert_near("smooth_jvp", dot, expected, 1e-12);
    let graph = smooth_graph(&x, a);
    assert_eq!(
        graph.node(graph.output().expect("output")).data(),
        smooth(&x, a)
    );
    assert_near(
        "graph d/da",
        graph.find("a").expect("a").grad(),
        g[3],
        1e-12,
    );
}

/// A `Vec` after an early `return`, and one inside a branch with a length computed there.
#[differentiable(hessian)]
fn in_branches(x: &[f64], a: f64) -> f64 {
    if a > 1.0 {
        return a * a;
    }
    let mut s = a;
    if a > 0.0 {
        let n = x.len() + 1;
        let mut v = vec![0.0; n];
        for i in 0..x.len() {
            v[i + 1] = (x[i] * a).sin();
        }
        s = v[1] * a + v.iter().sum::<f64>();
    } else {
        let v = vec![a, s * 2.0, x[0]];
        s += sum_sq(&v);
    }
    let mut w = vec![1.0; x.len()];
    for i in 0..w.len() {
        w[i] *= x[i] * s;
    }
    s * a + sum_sq(&w)
}

#[test]
fn vecs_in_branches() {
    let x = [0.3, -0.7, 1.2];
    for a in [1.5, 0.6, -0.4] {
        let mut d_x = [0.0; 3];
        let (value, d_a) = in_branches_grad(&x, &mut d_x, a);
        let point = [x[0], x[1], x[2], a];
        assert_same_value("in_branches", value, in_branches(&x, a), &point);
        let f = |p: &[f64]| in_branches(&p[..3], p[3]);
        assert_gradient("in_branches", f, &point, &[d_x[0], d_x[1], d_x[2], d_a]);
        let v = [0.5, -1.0, 0.25];
        let (jvp_value, dot) = in_branches_jvp(&x, &v, a, 2.0);
        assert_same_value("in_branches_jvp", jvp_value, value, &point);
        let expected = d_x[0] * v[0] + d_x[1] * v[1] + d_x[2] * v[2] + d_a * 2.0;
        assert_near("in_branches_jvp", dot, expected, 1e-12);
        let mut hess = [0.0; 16];
        let hessian_value = in_branches_hessian(&x, a, &mut hess);
        assert_same_value("in_branches_hessian", hessian_value, value, &point);
        for j in 0..4 {
            let h = 1e-6;
            let grad = |p: &[f64]| {
                let mut d = [0.0; 3];
                let (_, d_a) = in_branches_grad(&p[..3], &mut d, p[3]);
                [d[0], d[1], d[2], d_a]
            };
            let (mut up, mut down) = (point, point);
            up[j] += h;
            down[j] -= h;
            let (gu, gd) = (grad(&up), grad(&down));
            for i in 0..4 {
                let reference = (gu[i] - gd[i]) / (2.0 * h);
                assert_near(
                    &format!("H[{i}][{j}] at a = {a}"),
                    hess[i * 4 + j],
                    reference,
                    1e-6,
                );
            }
        }
    }
}

#[differentiable]
fn scale(h: &mut [f64], u: f64) -> f64 {
    for i in 0..h.len() {
        h[i] *= u;
    }
    h[0]
}

/// A `Vec` lent to a call that writes it, in a loop and once more.
#[differentiable]
fn lent(x: &[f64], u: f64) -> f64 {
    let mut v = vec![0.0; x.len()];
    for i in 0..x.len() {
        v[i] = x[i].sin();
    }
    let mut s = 0.0;
    for _ in 0..3 {
        s += scale(&mut v, u);
    }
    s + scale(&mut v[1..], u) + v.iter().sum::<f64>()
}

#[test]
fn a_vec_lent_to_calls() {
    let x = [0.3, -0.7, 1.2];
    for u in [0.5, -1.3] {
        let mut d_x = [0.0; 3];
        let (value, d_u) = lent_grad(&x, &mut d_x, u);
        let point = [x[0], x[1], x[2], u];
        assert_same_value("lent", value, lent(&x, u), &point);
        let f = |p: &[f64]| lent(&p[..3], p[3]);
        assert_gradient("lent", f, &point, &[d_x[0], d_x[1], d_x[2], d_u]);
    }
}
