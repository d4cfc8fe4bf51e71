//! `for` over sub-slices (`&w[a..b]`, `w[a..].iter()`, with `enumerate`, `zip`, `rev`, `chunks`,
//! `windows`), whose bounds are read once before the loop even when the body changes them
//! (issue 11). Each against central finite differences and the `Value` engine.

use crate::common;

use common::check_with_value;
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// `f_grad` of `f(w: &[f64], x: f64)`.
type SliceGrad = fn(&[f64], &mut [f64], f64) -> (f64, f64);

/// Checks `f(w, x)` (the point is `w` then `x`) against central differences and `v`.
fn check(
    name: &str,
    f: fn(&[f64], f64) -> f64,
    g: SliceGrad,
    v: &dyn Fn(&[Value], &Value) -> Value,
    points: &[&[f64]],
) {
    let split = |p: &[f64]| (p[..p.len() - 1].to_vec(), p[p.len() - 1]);
    let grad = |p: &[f64]| {
        let (w, x) = split(p);
        let mut d_w = vec![0.0; w.len()];
        let (value, d_x) = g(&w, &mut d_w, x);
        [vec![value], d_w, vec![d_x]].concat()
    };
    let value = |p: &[Value]| v(&p[..p.len() - 1], &p[p.len() - 1]);
    let plain = |p: &[f64]| f(split(p).0.as_slice(), split(p).1);
    check_with_value(name, &plain, &grad, &value, points);
}

/// Sub-slices as loop heads, each form once.
#[differentiable]
fn heads(w: &[f64], x: f64) -> f64 {
    let n = w.len();
    let mut s = x;
    for v in &w[1..] {
        s = s * 0.5 + v * x;
    }
    for &v in w[..n / 2].iter().rev() {
        s += v * v;
    }
    for (i, v) in w[1..n].iter().enumerate() {
        s -= v * i as f64 * 0.25;
    }
    for (a, b) in w[..n - 1].iter().zip(&w[1..]) {
        s += (a - b) * s * 0.1;
    }
    for c in w[1..].chunks(2) {
        s += c[0] * c[c.len() - 1];
    }
    s
}

fn heads_value(w: &[Value], x: &Value) -> Value {
    let n = w.len();
    let mut s = x.clone();
    for v in &w[1..] {
        s = &s * 0.5 + v * x;
    }
    for v in w[..n / 2].iter().rev() {
        s = &s + v * v;
    }
    for (i, v) in w[1..n].iter().enumerate() {
        s = &s - v * (i as f64 * 0.25);
    }
    for (a, b) in w[..n - 1].iter().zip(&w[1..]) {
        s = &s + (a - b) * &s * 0.1;
    }
    for c in w[1..].chunks(2) {
        s = &s + &c[0] * &c[c.len() - 1];
    }
    s
}

/// The bound `k` changes in the body and `s` decides when the `while` stops: the sub-slice is
/// the one `k` gave before each `for` began.
#[differentiable]
fn moving_bounds(w: &[f64], x: f64) -> f64 {
    let mut s = x;
    let mut k = w.len();
    while k > 0 && s < 50.0 {
        for v in &w[..k] {
            s += v * v * s * 0.5;
            k -= 1;
        }
        k = (k + w.len()) / 2;
    }
    s
}

fn moving_bounds_value(w: &[Value], x: &Value) -> Value {
    let mut s = x.clone();
    let mut k = w.len();
    while k > 0 && s.data() < 50.0 {
        for v in &w[..k] {
            s = &s + v * v * &s * 0.5;
            k -= 1;
        }
        k = (k + w.len()) / 2;
    }
    s
}

#[test]
fn sub_slices_as_loop_heads() {
    let points: [&[f64]; 3] = [
        &[0.6, 1.5],
        &[0.3, -1.2, 0.8, 0.5, 1.1],
        &[0.9, 0.2, -0.4, 1.3, -0.7, 0.5, 0.8],
    ];
    check("heads", heads, heads_grad, &heads_value, &points);
}

#[test]
fn bounds_read_once() {
    // `while` trips: none (`s` starts above 50), one (one entry; or `s` passes 50 in the first),
    // 28.
    let points: [&[f64]; 4] = [
        &[0.5, 0.3, 60.0],
        &[0.5, 1.0],
        &[2.5, 3.0, 1.0, 4.0],
        &[0.4, 0.3, 0.2, 0.9, 1.2],
    ];
    check(
        "moving_bounds",
        moving_bounds,
        moving_bounds_grad,
        &moving_bounds_value,
        &points,
    );
}
