//! Arrays lent to `#[differentiable]` calls as `&mut`: a `&mut [f64]` parameter passed on
//! (`g(w)`, `g(&mut w[1..])`), a local array (`g(&mut h)`), calls made only for what they write
//! (`g(&mut h, u);`), in loops, in branches and nested. Each is checked against central
//! differences of `f` and against the same program on the `Value` engine; `f_grad` must write
//! the arrays as `f` does, and `f_pullback` must scale by its seed.

use crate::common;

use common::{assert_f32_partial, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// `w[i] = tanh(w[i] * a)` in place; returns `a` times the sum of the new entries.
#[differentiable]
fn squash(w: &mut [f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).tanh();
        s += w[i];
    }
    s * a
}

fn squash_value(w: &mut [Value], a: &Value) -> Value {
    let mut s = Value::new(0.0);
    for x in w.iter_mut() {
        *x = (&*x * a).tanh();
        s += &*x;
    }
    s * a
}

/// Reads `w` only.
#[differentiable]
fn total(w: &[f64]) -> f64 {
    w[0] + w[1] * w[1]
}

fn total_value(w: &[Value]) -> Value {
    &w[0] + &w[1] * &w[1]
}

/// A `&mut [f64]` parameter passed on whole to a callee that only reads it (`total(w)`), then
/// to one that writes it, whole and in part, with reads before, between and after; then
/// read-only (`&w[1..]`) after its last change.
#[differentiable]
fn passes_on(w: &mut [f64], a: f64) -> f64 {
    let first = w[0] * w[1] + total(w);
    let s = squash(w, a);
    let mid = w[1];
    let t = squash(&mut w[1..], first);
    s * t + w[0] * first + mid * w[2] + total(&w[1..])
}

fn passes_on_value(w: &mut [Value], a: &Value) -> Value {
    let first = &w[0] * &w[1] + total_value(w);
    let s = squash_value(w, a);
    let mid = w[1].clone();
    let t = squash_value(&mut w[1..], &first);
    s * t + &w[0] * &first + mid * &w[2] + total_value(&w[1..])
}

/// A local array lent whole and in part, read after; the whole call is a statement (Clad's
/// `mult(arr, u);` in FunctionCalls.C `fn27`).
#[differentiable]
fn local_lent(x: f64, y: f64) -> f64 {
    let mut h = [x, y, x * y, 1.0];
    let before = h[0] * h[3];
    let s = squash(&mut h[1..3], x);
    h[3] = h[1] + s;
    squash(&mut h, y);
    before + h[0] * h[2] + h[3]
}

fn local_lent_value(x: &Value, y: &Value) -> Value {
    let mut h = [x.clone(), y.clone(), x * y, Value::new(1.0)];
    let before = &h[0] * &h[3];
    let s = squash_value(&mut h[1..3], x);
    h[3] = &h[1] + s;
    squash_value(&mut h, y);
    before + &h[0] * &h[2] + &h[3]
}

/// A call statement in a loop: each iteration overwrites the array the next one reads.
#[differentiable]
fn lent_in_loop(x: f64, y: f64, w: &[f64]) -> f64 {
    let mut h = [x, y, 0.5];
    let mut acc = 0.0;
    for k in 0..w.len() {
        acc += h[0] * h[2];
        squash(&mut h, w[k] + x);
    }
    acc + h[1]
}

fn lent_in_loop_value(x: &Value, y: &Value, w: &[Value]) -> Value {
    let mut h = [x.clone(), y.clone(), Value::new(0.5)];
    let mut acc = Value::new(0.0);
    for wk in w {
        acc += &h[0] * &h[2];
        squash_value(&mut h, &(wk + x));
    }
    acc + &h[1]
}

/// Passes its own `&mut` on after writing it.
#[differentiable]
fn relay(w: &mut [f64], b: f64) -> f64 {
    w[0] += b;
    let s = squash(w, b);
    s + w[1] * b
}

fn relay_value(w: &mut [Value], b: &Value) -> Value {
    w[0] = &w[0] + b;
    let s = squash_value(w, b);
    s + &w[1] * b
}

/// Nested lending: a local array to `relay`, which lends it on; then the parameter itself, as a
/// statement; in a branch on one side only.
#[differentiable]
fn nested(x: f64, w: &mut [f64]) -> f64 {
    let mut h = [x, w[0], w[1]];
    let r = relay(&mut h, w[2]);
    relay(w, x);
    if x > 0.0 {
        squash(&mut h[..2], w[1]);
    } else {
        h[0] = x * w[1];
    }
    r * h[0] + w[0] + h[1]
}

fn nested_value(x: &Value, w: &mut [Value]) -> Value {
    let mut h = [x.clone(), w[0].clone(), w[1].clone()];
    let r = relay_value(&mut h, &w[2].clone());
    relay_value(w, x);
    if x.data() > 0.0 {
        let b = w[1].clone();
        squash_value(&mut h[..2], &b);
    } else {
        h[0] = x * &w[1];
    }
    r * &h[0] + &w[0] + &h[1]
}

/// An array declared before a loop whose iterations only lend it: the reversed iterations
/// cannot run inside the forward loop, since each reads the adjoint the later ones leave.
#[differentiable]
fn lends(x: f64, w: &mut [f64]) -> f64 {
    let mut h = [x, w[0], 0.5];
    for k in 0..3 {
        squash(&mut h, x + k as f64);
    }
    squash(w, h[1]) + h[0] * h[2]
}

fn lends_value(x: &Value, w: &mut [Value]) -> Value {
    let mut h = [x.clone(), w[0].clone(), Value::new(0.5)];
    for k in 0..3 {
        squash_value(&mut h, &(x + k as f64));
    }
    let b = h[1].clone();
    squash_value(w, &b) + &h[0] * &h[2]
}

/// A call lent an array in the condition that ends a loop (its left operand, which every
/// iteration evaluates in the body): the trip count depends on the data.
#[differentiable]
fn lent_until(x: f64) -> f64 {
    let mut h = [x, 0.3];
    let mut n = 0;
    loop {
        n += 1;
        if squash(&mut h, x) < 0.2 * x || n > 4 {
            break;
        }
    }
    h[0] * h[1] + n as f64
}

fn lent_until_value(x: &Value) -> Value {
    let mut h = [x.clone(), Value::new(0.3)];
    let mut n = 0;
    loop {
        n += 1;
        if squash_value(&mut h, x).data() < 0.2 * x.data() || n > 4 {
            break;
        }
    }
    &h[0] * &h[1] + n as f64
}

/// The calls' values reach the result through a ReLU: where it is off their adjoint is zero,
/// and the reversed loop must still carry `h`'s adjoint back through every call.
#[differentiable]
fn gated(x: f64, y: f64) -> f64 {
    let a = x.relu();
    let mut h = [y, 1.0];
    let mut s = 0.0;
    for _ in 0..2 {
        s += squash(&mut h, a + 0.5);
    }
    s * a + h[0]
}

fn gated_value(x: &Value, y: &Value) -> Value {
    let a = x.relu();
    let mut h = [y.clone(), Value::new(1.0)];
    let mut s = Value::new(0.0);
    for _ in 0..2 {
        s += squash_value(&mut h, &(&a + 0.5));
    }
    s * &a + &h[0]
}

/// `wrt(x)` leaves out the `&mut [f64]` it lends on: its adjoint is then a local buffer, which
/// still carries `x`'s gradient through what the call writes.
#[differentiable(wrt(x))]
fn lends_a_constant(x: f64, w: &mut [f64]) -> f64 {
    let s = squash(w, x);
    s * w[1]
}

/// A loss summed over data points, each lending a fresh local array: the loop's reversed
/// iterations run inside it (one record of two entries at a time).
#[differentiable]
fn loss(xs: &[f64], w: f64) -> f64 {
    let mut total = 0.0;
    for k in 0..xs.len() {
        let mut h = [xs[k], w];
        squash(&mut h, w);
        total += h[0] * h[1];
    }
    total
}

fn loss_value(xs: &[Value], w: &Value) -> Value {
    let mut total = Value::new(0.0);
    for x in xs {
        let mut h = [x.clone(), w.clone()];
        squash_value(&mut h, w);
        total += &h[0] * &h[1];
    }
    total
}

/// `squash` in `f32`.
#[differentiable]
fn squash32(w: &mut [f32], a: f32) -> f32 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).tanh();
        s += w[i];
    }
    s * a
}

/// A call statement lending a local array, in `f32`.
#[differentiable]
fn lent32(x: f32, y: f32) -> f32 {
    let mut h = [x, y];
    squash32(&mut h, x);
    h[0] * h[1] + y
}

#[test]
fn a_mut_parameter_passed_on() {
    let f = |p: &[f64]| passes_on(&mut p[..4].to_vec(), p[4]);
    let g = |p: &[f64]| {
        let (mut w, mut d_w) = (p[..4].to_vec(), vec![0.0; 4]);
        let (value, d_a) = passes_on_grad(&mut w, &mut d_w, p[4]);
        let mut written = p[..4].to_vec();
        passes_on(&mut written, p[4]);
        assert_eq!(w, written, "f_grad writes `w` as `f` does");
        [vec![value], d_w, vec![d_a]].concat()
    };
    let v = |p: &[Value]| passes_on_value(&mut p[..4].to_vec(), &p[4]);
    let points: [&[f64]; 2] = [&[0.7, -1.3, 0.4, 2.2, 0.8], &[0.1, 0.2, -0.3, 0.4, -1.1]];
    check_with_value("passes_on", &f, &g, &v, &points);
    // The pullback writes `w` too, and scales by its seed.
    let (mut w, mut d_w) = (points[0][..4].to_vec(), vec![0.0; 4]);
    let d_a = passes_on_pullback(&mut w, &mut d_w, 0.8, 2.0);
    let gradient = g(points[0]);
    assert_eq!(d_a, 2.0 * gradient[5]);
    let doubled: Vec<f64> = gradient[1..5].iter().map(|d| 2.0 * d).collect();
    assert_eq!(d_w, doubled);
}

#[test]
fn a_local_array_lent_and_read_after() {
    let f = |p: &[f64]| local_lent(p[0], p[1]);
    let g = |p: &[f64]| {
        let (value, d_x, d_y) = local_lent_grad(p[0], p[1]);
        vec![value, d_x, d_y]
    };
    let v = |p: &[Value]| local_lent_value(&p[0], &p[1]);
    check_with_value("local_lent", &f, &g, &v, &[&[0.6, -0.9], &[-1.2, 0.3]]);
}

#[test]
fn a_call_statement_in_a_loop() {
    let f = |p: &[f64]| lent_in_loop(p[0], p[1], &p[2..]);
    let g = |p: &[f64]| {
        let mut d_w = vec![0.0; p.len() - 2];
        let (value, d_x, d_y) = lent_in_loop_grad(p[0], p[1], &p[2..], &mut d_w);
        [vec![value, d_x, d_y], d_w].concat()
    };
    let v = |p: &[Value]| lent_in_loop_value(&p[0], &p[1], &p[2..]);
    let points: [&[f64]; 3] = [
        &[0.6, -0.9, 0.3, -0.2, 1.1, 0.5],
        &[-0.4, 0.8, 0.9],
        &[0.2, 0.1],
    ];
    check_with_value("lent_in_loop", &f, &g, &v, &points);
}

#[test]
fn lent_on_by_a_callee_and_in_a_branch() {
    let f = |p: &[f64]| nested(p[0], &mut p[1..].to_vec());
    let g = |p: &[f64]| {
        let (mut w, mut d_w) = (p[1..].to_vec(), vec![0.0; p.len() - 1]);
        let (value, d_x) = nested_grad(p[0], &mut w, &mut d_w);
        let mut written = p[1..].to_vec();
        nested(p[0], &mut written);
        assert_eq!(w, written, "f_grad writes `w` as `f` does");
        [vec![value, d_x], d_w].concat()
    };
    let v = |p: &[Value]| nested_value(&p[0], &mut p[1..].to_vec());
    let points: [&[f64]; 2] = [&[0.7, 0.3, -0.5, 1.2], &[-0.6, 0.9, 0.4, -0.8, 0.2]];
    check_with_value("nested", &f, &g, &v, &points);
}

#[test]
fn lent_in_a_loop_of_data_points() {
    let f = |p: &[f64]| loss(&p[1..], p[0]);
    let g = |p: &[f64]| {
        let mut d_xs = vec![0.0; p.len() - 1];
        let (value, d_w) = loss_grad(&p[1..], &mut d_xs, p[0]);
        [vec![value, d_w], d_xs].concat()
    };
    let v = |p: &[Value]| loss_value(&p[1..], &p[0]);
    let points: [&[f64]; 2] = [&[0.7, 0.3, -0.5, 1.2], &[-1.1, 0.9]];
    check_with_value("loss", &f, &g, &v, &points);
}

#[test]
fn only_lent_in_a_loop() {
    let f = |p: &[f64]| lends(p[0], &mut p[1..].to_vec());
    let g = |p: &[f64]| {
        let (mut w, mut d_w) = (p[1..].to_vec(), vec![0.0; p.len() - 1]);
        let (value, d_x) = lends_grad(p[0], &mut w, &mut d_w);
        [vec![value, d_x], d_w].concat()
    };
    let v = |p: &[Value]| lends_value(&p[0], &mut p[1..].to_vec());
    check_with_value("lends", &f, &g, &v, &[&[0.4, -0.7, 1.3], &[-0.2, 0.5]]);
}

#[test]
fn lent_in_a_loop_condition() {
    let f = |p: &[f64]| lent_until(p[0]);
    let g = |p: &[f64]| {
        let (value, d_x) = lent_until_grad(p[0]);
        vec![value, d_x]
    };
    let v = |p: &[Value]| lent_until_value(&p[0]);
    // Trips: 1 (x < 0), 2, 3, 4, and 5 (the condition never holds).
    let points: [&[f64]; 5] = [&[-0.9], &[0.5], &[0.6], &[0.65], &[1.3]];
    check_with_value("lent_until", &f, &g, &v, &points);
}

#[test]
fn lent_behind_a_relu_that_is_off() {
    let f = |p: &[f64]| gated(p[0], p[1]);
    let g = |p: &[f64]| {
        let (value, d_x, d_y) = gated_grad(p[0], p[1]);
        vec![value, d_x, d_y]
    };
    let v = |p: &[Value]| gated_value(&p[0], &p[1]);
    check_with_value("gated", &f, &g, &v, &[&[-0.7, 0.9], &[0.6, -0.4]]);
}

#[test]
fn lent_in_f32() {
    let wide = |p: &[f64]| {
        let mut h = [p[0], p[1]];
        squash(&mut h, p[0]);
        h[0] * h[1] + p[1]
    };
    for point in [[0.7f32, -0.4], [-1.2, 0.9]] {
        let (value, d_x, d_y) = lent32_grad(point[0], point[1]);
        assert_eq!(value.to_bits(), lent32(point[0], point[1]).to_bits());
        let at = [f64::from(point[0]), f64::from(point[1])];
        assert_f32_partial("lent32", wide, &at, 0, d_x);
        assert_f32_partial("lent32", wide, &at, 1, d_y);
    }
}

#[test]
fn a_mut_parameter_left_out_by_wrt_passed_on() {
    let f = |p: &[f64]| lends_a_constant(p[0], &mut p[1..].to_vec());
    let g = |p: &[f64]| {
        let mut w = p[1..].to_vec();
        let (value, d_x) = lends_a_constant_grad(p[0], &mut w);
        let mut written = p[1..].to_vec();
        lends_a_constant(p[0], &mut written);
        assert_eq!(w, written, "f_grad writes `w` as `f` does");
        vec![value, d_x]
    };
    for point in [[0.8, 0.3, -1.1, 0.5], [-0.6, 1.2, 0.4, 0.9]] {
        let out = g(&point);
        common::assert_same_value("lends_a_constant", out[0], f(&point), &point);
        common::assert_partial("lends_a_constant", f, &point, 0, out[1]);
    }
}
