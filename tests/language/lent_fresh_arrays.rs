//! A local array that only a lent call writes (`let mut h = [0.0; 3]; fill(&mut h, x);`, no
//! store of its own) is still `mut` in the generated code: the forward sweep declared it
//! `let h = [0.0_f64; 3];` and the build failed with "cannot borrow as mutable" (random
//! programs 7, 33 and 196 of seed 1, once the generator lent arrays; tests/random/lend.rs).
//! Checked against central differences of `f` and the same program on the `Value` engine.
//! (tests/lent_arrays.rs holds the other lent-array tests; it is at its length limit.)

#![allow(clippy::needless_range_loop)] // `fill` writes its entries by index, as the macro reads it

use crate::common;

use common::check_with_value;
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// `w[i] = w[i] / 2 + tanh(a (i + 1))` in place; returns `a w[0]`.
#[differentiable]
fn fill(w: &mut [f64], a: f64) -> f64 {
    for i in 0..w.len() {
        w[i] = w[i] * 0.5 + (a * (i as f64 + 1.0)).tanh();
    }
    w[0] * a
}

fn fill_value(w: &mut [Value], a: &Value) -> Value {
    for i in 0..w.len() {
        w[i] = &w[i] * 0.5 + (a * (i as f64 + 1.0)).tanh();
    }
    &w[0] * a
}

/// A zeroed array written only by a call statement, and one declared in a loop body and
/// written only by a call whose value is used.
#[differentiable]
fn written_by_calls_only(x: f64, y: f64) -> f64 {
    let mut h = [0.0; 3];
    fill(&mut h, x);
    let mut s = 0.0;
    for _ in 0..2 {
        let mut g = [0.5; 2];
        s += fill(&mut g, y * s + x) * g[1];
    }
    h[0] * y + h[2] + s
}

fn written_by_calls_only_value(x: &Value, y: &Value) -> Value {
    let mut h = vec![Value::new(0.0); 3];
    fill_value(&mut h, x);
    let mut s = Value::new(0.0);
    for _ in 0..2 {
        let mut g = vec![Value::new(0.5); 2];
        s = &s + fill_value(&mut g, &(y * &s + x)) * &g[1];
    }
    &h[0] * y + &h[2] + s
}

#[test]
fn an_array_only_a_lent_call_writes() {
    let f = |p: &[f64]| written_by_calls_only(p[0], p[1]);
    let g = |p: &[f64]| {
        let (value, d_x, d_y) = written_by_calls_only_grad(p[0], p[1]);
        vec![value, d_x, d_y]
    };
    let v = |p: &[Value]| written_by_calls_only_value(&p[0], &p[1]);
    let points: [&[f64]; 3] = [&[0.7, -1.3], &[-0.4, 0.9], &[1.6, 0.25]];
    check_with_value("written_by_calls_only", &f, &g, &v, &points);
    let pulled = written_by_calls_only_pullback(0.7, -1.3, 2.5);
    let (_, d_x, d_y) = written_by_calls_only_grad(0.7, -1.3);
    assert!((pulled.0 - 2.5 * d_x).abs() < 1e-12 && (pulled.1 - 2.5 * d_y).abs() < 1e-12);
}
