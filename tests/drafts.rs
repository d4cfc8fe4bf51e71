//! First drafts: the Rust a new user writes before shaping it for the macro. Each construct
//! against central differences and the `Value` engine, the value bit for bit `f`'s, with loops
//! of 0, 1 and many iterations.

// `vec![a, b]` where an array would do is what these tests take as input.
#![allow(clippy::useless_vec)]

mod common;

use common::{assert_gradient, assert_near, assert_same_value, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable]
fn sum_sq(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in w {
        s += v * v;
    }
    s
}

fn sum_sq_value(w: &[Value]) -> Value {
    w.iter().fold(Value::new(0.0), |s, v| s + v * v)
}

/// A `vec!` literal and a `vec!` of a constant length inside loops, each iteration's own.
#[differentiable]
fn vecs_in_loops(x: &[f64], n: usize) -> f64 {
    let mut acc = 0.0;
    for k in 0..n {
        let v = vec![x[0] * k as f64, x[1].tanh()];
        acc += v[0] * v[1] - 2.0 * v[1] + sum_sq(&v);
    }
    let mut i = 0;
    while i < n {
        let mut h = vec![0.0; 3];
        for j in 0..h.len() {
            h[j] = x[j % x.len()] * (i + j) as f64;
        }
        acc += h.iter().map(|t| t * t).sum::<f64>() * 0.1;
        i += 1;
    }
    acc
}

fn vecs_in_loops_value(x: &[Value], n: usize) -> Value {
    let mut acc = Value::new(0.0);
    for k in 0..n {
        let v = vec![&x[0] * k as f64, x[1].tanh()];
        acc = acc + &v[0] * &v[1] - 2.0 * &v[1] + sum_sq_value(&v);
    }
    for i in 0..n {
        let h: Vec<Value> = (0..3).map(|j| &x[j % x.len()] * (i + j) as f64).collect();
        acc += h.iter().fold(Value::new(-0.0), |s, t| s + t * t) * 0.1;
    }
    acc
}

#[test]
fn vec_literals_inside_loops() {
    for n in [0, 1, 4] {
        check_with_value(
            "vecs_in_loops",
            &|p| vecs_in_loops(p, n),
            &|p| {
                let mut d = vec![0.0; p.len()];
                let value = vecs_in_loops_grad(p, &mut d, n);
                [vec![value], d].concat()
            },
            &|x| vecs_in_loops_value(x, n),
            &[&[0.4, -0.9], &[1.3, 0.2, -0.5]],
        );
    }
}

#[derive(Differentiable)]
struct Poly {
    k: f64,
    c: f64,
    w: Vec<f64>,
    n: usize,
}

/// Fields read only inside `vec![..]`: as the entries of a literal, as a length.
#[differentiable]
fn poly(p: &Poly, x: f64) -> f64 {
    let coeffs = vec![p.k, p.c * x, p.w[1]];
    let mut s = 0.0;
    for c in &coeffs {
        s = s * x + c;
    }
    let mut pad = vec![0.0; p.n];
    for i in 0..pad.len() {
        pad[i] = s * i as f64;
    }
    s + sum_sq(&pad)
}

#[test]
fn struct_fields_inside_vec() {
    for n in [0, 1, 3] {
        let p = Poly {
            k: 0.7,
            c: -1.3,
            w: vec![0.2, 0.45],
            n,
        };
        let x = 0.9;
        let mut d_p = p.zeroed_like();
        let (value, d_x) = poly_grad(&p, &mut d_p, x);
        assert_same_value("poly", value, poly(&p, x), &[x]);
        let f = |q: &[f64]| {
            let p = Poly {
                k: q[0],
                c: q[1],
                w: vec![q[2], q[3]],
                n,
            };
            poly(&p, q[4])
        };
        let point = [p.k, p.c, p.w[0], p.w[1], x];
        let gradient = [d_p.k, d_p.c, d_p.w[0], d_p.w[1], d_x];
        assert_gradient("poly", f, &point, &gradient);
        let inputs: Vec<Value> = point.iter().map(|&v| Value::new(v)).collect();
        let (k, c, w1, xv) = (&inputs[0], &inputs[1], &inputs[3], &inputs[4]);
        let mut s = Value::new(0.0);
        for coeff in [k.clone(), c * xv, w1.clone()] {
            s = s * xv + coeff;
        }
        let pad: Vec<Value> = (0..n).map(|i| &s * i as f64).collect();
        let reference = &s + sum_sq_value(&pad);
        reference.backward();
        assert_near("poly (Value)", reference.data(), value, 1e-12);
        for (input, d) in inputs.iter().zip(gradient) {
            assert_near("poly d (Value)", input.grad(), d, 1e-9);
        }
    }
}
