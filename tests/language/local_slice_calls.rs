//! A sub-slice of a local array or `Vec` handed to a `#[differentiable]` function inside a loop
//! (`lse(&beta[i..i + 2])`, `for row in beta.chunks(2) { lse(row) }`, the whole `&beta`), where
//! the loop's reverse runs inside it and the local's adjoint must be declared before it; and
//! one whose local is tails after the loop, which is reversed after it. `f_grad`,
//! `f_pullback`, `f_jvp` and `f_hessian`, against central differences and the `Value` engine.

use crate::common;

use common::{assert_gradient, assert_near, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable(hessian)]
fn lse(x: &[f64]) -> f64 {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

fn lse_value(x: &[Value]) -> Value {
    let m = x.iter().map(Value::data).fold(f64::NEG_INFINITY, f64::max);
    let total = x.iter().fold(Value::new(0.0), |s, v| s + (v - m).exp());
    total.ln() + m
}

/// GradBench's report: windows of a `Vec` collected from the parameter.
#[differentiable(hessian)]
fn windows(alpha: &[f64]) -> f64 {
    let beta: Vec<f64> = alpha.iter().map(|a| a * 2.0).collect();
    let mut s = 0.0;
    for i in 0..beta.len() - 1 {
        s += lse(&beta[i..i + 2]);
    }
    s
}

fn windows_value(alpha: &[Value]) -> Value {
    let beta: Vec<Value> = alpha.iter().map(|a| a * 2.0).collect();
    (0..beta.len() - 1).fold(Value::new(0.0), |s, i| s + lse_value(&beta[i..i + 2]))
}

/// Rows of a `vec![0.0; n]` filled by index, by `chunks`, and the whole of it each iteration.
#[differentiable(hessian)]
fn rows(alpha: &[f64]) -> f64 {
    let mut beta = vec![0.0; alpha.len()];
    for i in 0..alpha.len() {
        beta[i] = alpha[i] * alpha[(i + 1) % alpha.len()];
    }
    let mut s = 0.0;
    for row in beta.chunks(2) {
        s += lse(row);
    }
    for k in 0..2 {
        s += lse(&beta) * (k as f64 + 0.5);
    }
    s
}

fn rows_value(alpha: &[Value]) -> Value {
    let n = alpha.len();
    let beta: Vec<Value> = (0..n).map(|i| &alpha[i] * &alpha[(i + 1) % n]).collect();
    let mut s = Value::new(0.0);
    for row in beta.chunks(2) {
        s += lse_value(row);
    }
    for k in 0..2 {
        s += lse_value(&beta) * (k as f64 + 0.5);
    }
    s
}

/// A fixed-size local array, its tails taken in a loop, then read after it.
#[differentiable(hessian)]
fn tails(alpha: &[f64]) -> f64 {
    let mut z = [0.0; 4];
    for i in 0..4 {
        z[i] = alpha[i].tanh();
    }
    let mut s = 0.0;
    for i in 0..3 {
        s += lse(&z[i..]) * z[3 - i];
    }
    s + z[0] * z[3] + lse(&z[..2])
}

fn tails_value(alpha: &[Value]) -> Value {
    let z: Vec<Value> = alpha.iter().map(Value::tanh).collect();
    let mut s = Value::new(0.0);
    for i in 0..3 {
        s += lse_value(&z[i..]) * &z[3 - i];
    }
    s + &z[0] * &z[3] + lse_value(&z[..2])
}

type Plain = fn(&[f64]) -> f64;
type Grad = fn(&[f64], &mut [f64]) -> f64;
type Pullback = fn(&[f64], &mut [f64], f64) -> ();
type Jvp = fn(&[f64], &[f64]) -> (f64, f64);
type Hessian = fn(&[f64], &mut [f64]) -> f64;

fn check(
    name: &str,
    (f, grad, pullback, jvp, hessian): (Plain, Grad, Pullback, Jvp, Hessian),
    value: &dyn Fn(&[Value]) -> Value,
    point: &[f64],
) {
    let n = point.len();
    let gradient = |p: &[f64]| {
        let mut d = vec![0.0; n];
        let v = grad(p, &mut d);
        [vec![v], d].concat()
    };
    check_with_value(name, &f, &gradient, value, &[point]);
    let g = gradient(point)[1..].to_vec();
    let mut d = vec![0.0; n];
    pullback(point, &mut d, 0.5);
    for i in 0..n {
        assert_near(&format!("{name}_pullback d[{i}]"), d[i], 0.5 * g[i], 1e-12);
    }
    let v: Vec<f64> = (0..n).map(|i| 0.5 - 0.3 * i as f64).collect();
    let (at, dot) = jvp(point, &v);
    assert_eq!(at, f(point), "{name}_jvp value");
    let expected: f64 = g.iter().zip(&v).map(|(g, v)| g * v).sum();
    assert_near(&format!("{name}_jvp"), dot, expected, 1e-10);
    let mut hess = vec![0.0; n * n];
    assert_eq!(hessian(point, &mut hess), f(point), "{name}_hessian value");
    for j in 0..n {
        let row = |p: &[f64]| {
            let mut d = vec![0.0; n];
            grad(p, &mut d);
            d[j]
        };
        assert_gradient(
            &format!("{name}_hessian row {j}"),
            row,
            point,
            &hess[j * n..][..n],
        );
    }
}

#[test]
fn windows_of_a_collected_vec() {
    let flavours = (
        windows as Plain,
        windows_grad as Grad,
        (|a: &[f64], d: &mut [f64], s: f64| windows_pullback(a, d, s)) as Pullback,
        windows_jvp as Jvp,
        windows_hessian as Hessian,
    );
    check("windows", flavours, &windows_value, &[0.3, -1.2, 0.8, 2.0]);
}

#[test]
fn chunks_and_the_whole_vec() {
    let flavours = (
        rows as Plain,
        rows_grad as Grad,
        (|a: &[f64], d: &mut [f64], s: f64| rows_pullback(a, d, s)) as Pullback,
        rows_jvp as Jvp,
        rows_hessian as Hessian,
    );
    check("rows", flavours, &rows_value, &[0.3, -1.2, 0.8, 2.0, -0.4]);
}

#[test]
fn tails_of_an_array_read_after_the_loop() {
    let flavours = (
        tails as Plain,
        tails_grad as Grad,
        (|a: &[f64], d: &mut [f64], s: f64| tails_pullback(a, d, s)) as Pullback,
        tails_jvp as Jvp,
        tails_hessian as Hessian,
    );
    check("tails", flavours, &tails_value, &[0.3, -1.2, 0.8, 2.0]);
}
