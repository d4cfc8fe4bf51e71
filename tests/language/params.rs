//! The newer parameter kinds (issue 12): `&Vec<f64>`, `[f64; N]` by value and
//! `<const N: usize>`, against central differences, the `Value` engine, `f_pullback` through a
//! caller and `f_graph`.

use crate::common;

use common::{assert_near, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable]
fn sum_sq(w: &[f64]) -> f64 {
    w.iter().map(|x| x * x).sum::<f64>()
}

/// `sum_sq` on the `Value` engine.
fn sum_sq_value(w: &[Value]) -> Value {
    w.iter().fold(Value::new(0.0), |s, x| s + x * x)
}

/// A `&Vec<f64>` read by an iterator chain, indexed, sliced and passed on.
#[allow(clippy::ptr_arg)] // the kind under test
#[differentiable(graph)]
fn vec_dot(w: &Vec<f64>, x: &[f64]) -> f64 {
    let s: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
    s + sum_sq(w) * w[0] + sum_sq(&w[1..])
}

fn vec_dot_value(w: &[Value], x: &[Value]) -> Value {
    let mut s = Value::new(0.0);
    for (a, b) in w.iter().zip(x) {
        s += a * b;
    }
    s + sum_sq_value(w) * &w[0] + sum_sq_value(&w[1..])
}

/// A caller passing its `&Vec<f64>` twice (the second shadow is a buffer).
#[allow(clippy::ptr_arg)]
#[differentiable]
fn calls_vec_dot(w: &Vec<f64>, k: f64) -> f64 {
    vec_dot(w, w) * k
}

/// An array by value: indexed, sliced, passed on by reference.
#[differentiable(graph)]
fn quad(p: [f64; 3], s: f64) -> f64 {
    p[0] * p[1] + p[2].tanh() * s + sum_sq(&p) + sum_sq(&p[1..])
}

fn quad_value(p: &[Value], s: &Value) -> Value {
    &p[0] * &p[1] + p[2].tanh() * s + sum_sq_value(p) + sum_sq_value(&p[1..])
}

/// Arrays passed by value: a local array, a literal, and a by-value parameter passed on.
#[differentiable(graph)]
fn calls_quad(x: f64, w: &[f64], p: [f64; 3]) -> f64 {
    let mut h = [0.0; 3];
    h[0] = x;
    h[1] = w[0] * x;
    h[2] = w[1];
    quad(h, x) + quad([x, 1.0, w[2]], 2.0) * quad(p, p[0])
}

fn calls_quad_value(x: &Value, w: &[Value], p: &[Value]) -> Value {
    let h = [x.clone(), &w[0] * x, w[1].clone()];
    let literal = [x.clone(), Value::new(1.0), w[2].clone()];
    quad_value(&h, x) + quad_value(&literal, &Value::new(2.0)) * quad_value(p, &p[0])
}

/// A const generic length, on a reference and on an array by value.
#[differentiable(graph)]
fn lengths<const N: usize>(v: &[f64; N], a: [f64; N], k: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += v[i] * a[i] * k;
    }
    s + sum_sq(v) * (N as f64) + a.iter().sum::<f64>()
}

fn lengths_value(v: &[Value], a: &[Value], k: &Value) -> Value {
    let mut s = Value::new(0.0);
    for (x, y) in v.iter().zip(a) {
        s += x * y * k;
    }
    s + sum_sq_value(v) * (v.len() as f64) + a.iter().fold(Value::new(0.0), |s, x| s + x)
}

/// A generic caller of a generic function.
#[differentiable]
fn calls_lengths<const M: usize>(u: &[f64; M], k: f64) -> f64 {
    let inner = lengths(u, *u, k);
    inner * k + sum_sq(u)
}

const W: [f64; 4] = [0.7, -1.3, 0.4, 2.2];
const X: [f64; 4] = [-0.6, 1.1, 0.9, 0.3];

#[test]
fn vec_against_differences_and_value() {
    let f = |p: &[f64]| vec_dot(&p[..4].to_vec(), &p[4..]);
    let g = |p: &[f64]| {
        let (mut d_w, mut d_x) = (vec![0.0; 4], vec![0.0; 4]);
        let value = vec_dot_grad(&p[..4].to_vec(), &mut d_w, &p[4..], &mut d_x);
        [vec![value], d_w, d_x].concat()
    };
    let v = |p: &[Value]| vec_dot_value(&p[..4], &p[4..]);
    let point: Vec<f64> = W.iter().chain(&X).copied().collect();
    check_with_value("vec_dot", &f, &g, &v, &[&point, &[0.0; 8]]);
}

#[test]
fn vec_through_a_caller() {
    let f = |p: &[f64]| calls_vec_dot(&p[..4].to_vec(), p[4]);
    let g = |p: &[f64]| {
        let mut d_w = vec![0.0; 4];
        let (value, d_k) = calls_vec_dot_grad(&p[..4].to_vec(), &mut d_w, p[4]);
        [vec![value], d_w, vec![d_k]].concat()
    };
    let v = |p: &[Value]| vec_dot_value(&p[..4], &p[..4]) * &p[4];
    let point: Vec<f64> = W.iter().chain(&[1.5]).copied().collect();
    check_with_value("calls_vec_dot", &f, &g, &v, &[&point]);
}

#[test]
fn array_by_value_against_differences_and_value() {
    let f = |p: &[f64]| quad([p[0], p[1], p[2]], p[3]);
    let g = |p: &[f64]| {
        let (value, d_p, d_s) = quad_grad([p[0], p[1], p[2]], p[3]);
        [&[value][..], &d_p, &[d_s]].concat()
    };
    let v = |p: &[Value]| quad_value(&p[..3], &p[3]);
    check_with_value("quad", &f, &g, &v, &[&W, &[0.0, 0.0, 0.0, 0.0], &X]);
    // The pullback returns the array's partials in order, scaled by the seed.
    let (d_p, d_s) = quad_pullback([W[0], W[1], W[2]], W[3], 2.0);
    let (_, g_p, g_s) = quad_grad([W[0], W[1], W[2]], W[3]);
    assert_eq!(d_p, g_p.map(|d| 2.0 * d));
    assert_eq!(d_s, 2.0 * g_s);
}

#[test]
fn arrays_by_value_through_a_caller() {
    let f = |p: &[f64]| calls_quad(p[0], &p[1..4], [p[4], p[5], p[6]]);
    let g = |p: &[f64]| {
        let mut d_w = [0.0; 3];
        let (value, d_x, d_p) = calls_quad_grad(p[0], &p[1..4], &mut d_w, [p[4], p[5], p[6]]);
        [&[value, d_x][..], &d_w, &d_p].concat()
    };
    let v = |p: &[Value]| calls_quad_value(&p[0], &p[1..4], &p[4..]);
    let point = [0.3, -0.8, 1.7, 0.5, 1.1, -0.4, 0.9];
    check_with_value("calls_quad", &f, &g, &v, &[&point, &[0.0; 7]]);
    let graph = calls_quad_graph(point[0], &point[1..4], [point[4], point[5], point[6]]);
    let out = g(&point);
    assert_eq!(graph.node(graph.output().expect("output")).data(), out[0]);
    let x = graph.find("x").expect("x");
    assert_near("calls_quad graph", x.grad(), out[1], 1e-12);
    for i in 0..3 {
        let node = graph.find(&format!("p[{i}]")).expect("p entry");
        assert_near("calls_quad graph", node.grad(), out[5 + i], 1e-12);
    }
}

#[test]
fn const_generics_against_differences_and_value() {
    fn check<const N: usize>(point: &[f64]) {
        let split = |p: &[f64]| -> ([f64; N], [f64; N]) {
            let v: [f64; N] = p[..N].try_into().expect("N entries");
            let a: [f64; N] = p[N..2 * N].try_into().expect("N entries");
            (v, a)
        };
        let f = |p: &[f64]| {
            let (v, a) = split(p);
            lengths(&v, a, p[2 * N])
        };
        let g = |p: &[f64]| {
            let (v, a) = split(p);
            let mut d_v = [0.0; N];
            let (value, d_a, d_k) = lengths_grad(&v, &mut d_v, a, p[2 * N]);
            [&[value][..], &d_v, &d_a, &[d_k]].concat()
        };
        let value = |p: &[Value]| lengths_value(&p[..N], &p[N..2 * N], &p[2 * N]);
        check_with_value("lengths", &f, &g, &value, &[point]);
    }
    check::<1>(&[0.3, -0.8, 1.7]);
    check::<3>(&[0.7, -1.3, 0.4, 2.2, -0.6, 1.1, 0.9]);
    check::<0>(&[0.9]);
}

#[test]
fn const_generics_through_a_caller() {
    let f = |p: &[f64]| calls_lengths(&[p[0], p[1], p[2]], p[3]);
    let g = |p: &[f64]| {
        let mut d_u = [0.0; 3];
        let (value, d_k) = calls_lengths_grad(&[p[0], p[1], p[2]], &mut d_u, p[3]);
        [&[value][..], &d_u, &[d_k]].concat()
    };
    let v = |p: &[Value]| {
        let (u, k) = (&p[..3], &p[3]);
        lengths_value(u, u, k) * k + sum_sq_value(u)
    };
    check_with_value("calls_lengths", &f, &g, &v, &[&W, &X]);
}

#[test]
fn graphs_of_the_new_kinds() {
    let w = W.to_vec();
    let graph = vec_dot_graph(&w, &X);
    let (mut d_w, mut d_x) = ([0.0; 4], [0.0; 4]);
    let value = vec_dot_grad(&w, &mut d_w, &X, &mut d_x);
    assert_eq!(graph.node(graph.output().expect("output")).data(), value);
    for (i, d) in d_w.iter().enumerate() {
        let node = graph.find(&format!("w[{i}]")).expect("w entry");
        assert_near("vec_dot graph", node.grad(), *d, 1e-12);
    }
    let graph = quad_graph([W[0], W[1], W[2]], W[3]);
    let (value, d_p, _) = quad_grad([W[0], W[1], W[2]], W[3]);
    assert_eq!(graph.node(graph.output().expect("output")).data(), value);
    for (i, d) in d_p.iter().enumerate() {
        let node = graph.find(&format!("p[{i}]")).expect("p entry");
        assert_near("quad graph", node.grad(), *d, 1e-12);
    }
    let graph = lengths_graph(&[1.0, 2.0], [0.5, -0.5], 3.0);
    let mut d_v = [0.0; 2];
    let (value, ..) = lengths_grad(&[1.0, 2.0], &mut d_v, [0.5, -0.5], 3.0);
    assert_eq!(graph.node(graph.output().expect("output")).data(), value);
    let node = graph.find("v[1]").expect("v entry");
    assert_near("lengths graph", node.grad(), d_v[1], 1e-12);
}

/// A `&mut [f64]` read and written: entries overwritten, updated in place, read back after.
#[differentiable(graph)]
fn smooth(w: &mut [f64], k: f64) -> f64 {
    let n = w.len();
    let mut s = 0.0;
    for i in 1..n {
        w[i] = w[i].mul_add(k, w[i - 1] * 0.5);
        s += w[i] * w[i - 1];
    }
    w[0] *= k;
    w[0] += s.tanh();
    s + w[0] * w[n - 1] + sum_sq(&[w[0], w[1]])
}

fn smooth_value(w: &mut [Value], k: &Value) -> Value {
    let n = w.len();
    let mut s = Value::new(0.0);
    for i in 1..n {
        w[i] = &w[i] * k + &w[i - 1] * 0.5;
        s += &w[i] * &w[i - 1];
    }
    w[0] = &w[0] * k + s.tanh();
    let tail = &w[0] * &w[n - 1];
    s + tail + sum_sq_value(&w[..2])
}

/// `wrt(k)` leaves the written slice out: its entries still carry `k`'s gradient.
#[differentiable(wrt(k))]
fn buffer(w: &mut [f64], k: f64) -> f64 {
    w[0] = k * k;
    w[1] += w[0] * 3.0;
    w[1].tanh()
}

#[test]
fn written_slice_against_differences_and_value() {
    let f = |p: &[f64]| smooth(&mut p[..4].to_vec(), p[4]);
    let g = |p: &[f64]| {
        let (mut w, mut d_w) = (p[..4].to_vec(), vec![0.0; 4]);
        let (value, d_k) = smooth_grad(&mut w, &mut d_w, p[4]);
        // f_grad writes `w` as `f` does.
        let mut written = p[..4].to_vec();
        smooth(&mut written, p[4]);
        assert_eq!(w, written);
        [vec![value], d_w, vec![d_k]].concat()
    };
    let v = |p: &[Value]| smooth_value(&mut p[..4].to_vec(), &p[4]);
    check_with_value(
        "smooth",
        &f,
        &g,
        &v,
        &[&[0.7, -1.3, 0.4, 2.2, 0.8], &[0.1, 0.2, -0.3, 0.4, -1.1]],
    );
    // The pullback writes `w` too, and scales by the seed.
    let (mut w, mut d_w) = (W.to_vec(), vec![0.0; 4]);
    let d_k = smooth_pullback(&mut w, &mut d_w, 0.8, 2.0);
    let (mut w2, mut d_w2) = (W.to_vec(), vec![0.0; 4]);
    let (_, g_k) = smooth_grad(&mut w2, &mut d_w2, 0.8);
    assert_eq!(w, w2);
    assert_eq!(d_k, 2.0 * g_k);
    assert_eq!(d_w, d_w2.iter().map(|d| 2.0 * d).collect::<Vec<_>>());
    let graph = smooth_graph(&mut W.to_vec(), 0.8);
    assert_eq!(
        graph.node(graph.output().expect("output")).data(),
        f(&[W[0], W[1], W[2], W[3], 0.8])
    );
    let node = graph.find("w[2]").expect("w entry");
    assert_near("smooth graph", node.grad(), d_w2[2], 1e-12);
}

#[test]
fn written_slice_left_out_by_wrt() {
    let (value, d_k) = buffer_grad(&mut [0.0, 0.5], 0.9);
    assert_eq!(value.to_bits(), buffer(&mut [0.0, 0.5], 0.9).to_bits());
    let reference = common::derivative(|k| buffer(&mut [0.0, 0.5], k), 0.9);
    assert_near("buffer", d_k, reference, 1e-7);
}

#[test]
#[should_panic(expected = "the shadow `d_w` has 0 entries but `w` has 4")]
fn written_slice_needs_its_shadow_in_the_pullback() {
    smooth_pullback(&mut W.to_vec(), &mut [], 0.8, 1.0);
}

/// The same kinds in `f32`.
#[allow(clippy::ptr_arg)]
#[differentiable]
fn in_f32(w: &Vec<f32>, p: [f32; 2], m: &mut [f32]) -> f32 {
    m[0] = w[0] * p[1];
    m[0] * p[0] + m[1]
}

#[test]
fn kinds_in_f32_against_closed_forms() {
    let (w, p) = (vec![1.5f32, -2.0], [0.5f32, 3.0]);
    let (mut m, mut d_w, mut d_m) = ([7.0f32, 0.25], [0.0f32; 2], [0.0f32; 2]);
    let (value, d_p) = in_f32_grad(&w, &mut d_w, p, &mut m, &mut d_m);
    assert_eq!(value.to_bits(), in_f32(&w, p, &mut [7.0, 0.25]).to_bits());
    assert_eq!(m, [4.5, 0.25]);
    assert_eq!(d_w, [1.5, 0.0]);
    assert_eq!(d_p, [4.5, 0.75]);
    // m[0] is overwritten before it is read: its entry value has no gradient.
    assert_eq!(d_m, [0.0, 1.0]);
}
