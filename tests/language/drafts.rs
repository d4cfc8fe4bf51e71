//! First drafts: the Rust a new user writes before shaping it for the macro. Collecting an
//! iterator into a `Vec` (`let e: Vec<f64> = x.iter().map(..).collect();`), `vec![..]` of a
//! constant length inside a loop, fields of a parameter struct read inside `vec![..]`, and
//! copies of arrays and slices (`let mut q = p;`, `x.to_vec()`, `clone()`, `let g = h;`). Each
//! against central differences and the `Value` engine, the value bit for bit `f`'s, with loops
//! of 0, 1 and many iterations.

// `vec![a, b]` where an array would do is what these tests take as input.
#![allow(clippy::useless_vec)]

use crate::common;

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

/// The `Value` twin's maximum: the entry that `fold(f64::NEG_INFINITY, f64::max)` returns.
fn max_value(x: &[Value]) -> Value {
    let mut m = x[0].clone();
    for v in &x[1..] {
        if v.data() > m.data() {
            m = v.clone();
        }
    }
    m
}

/// Cross-entropy of a softmax, as it is first written: the exponentials collected, then summed.
#[differentiable]
fn softmax_ce(logits: &[f64], target: usize) -> f64 {
    let max = logits.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let exps: Vec<f64> = logits.iter().map(|&l| (l - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    -(exps[target] / sum).ln() + 0.1 * sum_sq(&exps)
}

fn softmax_ce_value(logits: &[Value], target: usize) -> Value {
    let max = max_value(logits);
    let exps: Vec<Value> = logits.iter().map(|l| (l - &max).exp()).collect();
    let sum = exps.iter().fold(Value::new(-0.0), |s, e| s + e);
    -(&exps[target] / &sum).ln() + 0.1 * sum_sq_value(&exps)
}

/// Residuals collected from a `zip`, with `collect::<Vec<_>>()`; read back by `len`, by index,
/// by an iterator and by a call.
#[differentiable]
fn residuals(a: f64, b: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let r = xs
        .iter()
        .zip(ys)
        .map(|(x, y)| a * x + b - y)
        .collect::<Vec<_>>();
    let n = r.len() as f64 + 1.0;
    let mut worst = 0.0;
    for i in 0..r.len() {
        worst = r[i].abs().max(worst);
    }
    r.iter().map(|e| e * e).sum::<f64>() / n + worst + sum_sq(&r)
}

/// A `Vec` collected from a reversed range, then written entry by entry.
#[differentiable]
fn ramp(a: f64, n: usize) -> f64 {
    let mut v: Vec<f64> = (0..n).rev().map(|i| a * i as f64 + 1.0).collect();
    for i in 0..v.len() {
        v[i] *= v[i];
    }
    let total = v.iter().copied().fold(0.5, |acc, x| acc * 0.5 + x.tanh());
    total * a
}

#[test]
fn collected_vecs() {
    let logits: [&[f64]; 3] = [&[0.7], &[0.3, -1.2, 2.5], &[-0.4, 0.7, 0.1, -2.2, 1.3]];
    for x in logits {
        for target in [0, x.len() - 1] {
            let mut d_x = vec![0.0; x.len()];
            let value = softmax_ce_grad(x, &mut d_x, target);
            assert_same_value("softmax_ce", value, softmax_ce(x, target), x);
            assert_gradient("softmax_ce", |p| softmax_ce(p, target), x, &d_x);
            let inputs: Vec<Value> = x.iter().map(|&v| Value::new(v)).collect();
            let reference = softmax_ce_value(&inputs, target);
            reference.backward();
            assert_near("softmax_ce (Value)", reference.data(), value, 1e-12);
            for (input, d) in inputs.iter().zip(&d_x) {
                assert_near("softmax_ce d/dx (Value)", input.grad(), *d, 1e-9);
            }
        }
    }
}

#[test]
fn collected_residuals() {
    // No points, one, and several.
    let data: [(&[f64], &[f64]); 3] = [
        (&[], &[]),
        (&[0.5], &[1.25]),
        (&[0.1, -0.8, 1.7, 2.2], &[0.9, -0.3, 2.1, 3.0]),
    ];
    for (xs, ys) in data {
        let (mut d_xs, mut d_ys) = (vec![0.0; xs.len()], vec![0.0; ys.len()]);
        let (value, d_a, d_b) = residuals_grad(0.8, -0.3, xs, &mut d_xs, ys, &mut d_ys);
        let n = xs.len();
        let point: Vec<f64> = [0.8, -0.3].iter().chain(xs).chain(ys).copied().collect();
        let f = |p: &[f64]| residuals(p[0], p[1], &p[2..2 + n], &p[2 + n..]);
        assert_same_value("residuals", value, f(&point), &point);
        let gradient: Vec<f64> = [d_a, d_b]
            .iter()
            .chain(&d_xs)
            .chain(&d_ys)
            .copied()
            .collect();
        assert_gradient("residuals", f, &point, &gradient);
        let inputs: Vec<Value> = point.iter().map(|&v| Value::new(v)).collect();
        let (a, b) = (&inputs[0], &inputs[1]);
        let (xv, yv) = (&inputs[2..2 + n], &inputs[2 + n..]);
        let r: Vec<Value> = xv.iter().zip(yv).map(|(x, y)| a * x + b - y).collect();
        let mut worst = Value::new(0.0);
        for e in &r {
            // |e| as the engine has it: e or -e, whichever is positive.
            let abs = if e.data() < 0.0 { -e } else { e.clone() };
            if abs.data() > worst.data() {
                worst = abs;
            }
        }
        let mse = r.iter().fold(Value::new(-0.0), |s, e| s + e * e) / (n as f64 + 1.0);
        let reference = mse + worst + sum_sq_value(&r);
        reference.backward();
        assert_near("residuals (Value)", reference.data(), value, 1e-12);
        for (input, d) in inputs.iter().zip(&gradient) {
            assert_near("residuals d (Value)", input.grad(), *d, 1e-9);
        }
    }
}

fn ramp_value(x: &[Value], n: usize) -> Value {
    let a = &x[0];
    let v: Vec<Value> = (0..n).rev().map(|i| a * i as f64 + 1.0).collect();
    let v: Vec<Value> = v.iter().map(|x| x * x).collect();
    let total = v
        .iter()
        .fold(Value::new(0.5), |acc, x| acc * 0.5 + x.tanh());
    total * a
}

#[test]
fn collected_range() {
    for n in [0, 1, 5] {
        check_with_value(
            "ramp",
            &|p| ramp(p[0], n),
            &|p| {
                let (value, d_a) = ramp_grad(p[0], n);
                vec![value, d_a]
            },
            &|x| ramp_value(x, n),
            &[&[0.3], &[-1.1]],
        );
    }
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

/// A physics step as first written: the state copied out of the parameter, `let mut q = p;`,
/// then updated in place; and a copy of it inside the loop.
#[differentiable]
fn leapfrog(p: [f64; 2], k: f64, n: usize) -> f64 {
    let dt = 0.1;
    let mut q = p;
    let mut energy = 0.0;
    for _ in 0..n {
        q[1] -= k * q[0] * dt;
        q[0] += q[1] * dt;
        let mut probe = q;
        probe[0] *= 2.0;
        energy += probe[0] * probe[1];
    }
    q[0] * q[0] + q[1] + energy
}

fn leapfrog_value(x: &[Value], n: usize) -> Value {
    let (mut q0, mut q1, k) = (x[0].clone(), x[1].clone(), &x[2]);
    let mut energy = Value::new(0.0);
    for _ in 0..n {
        q1 = &q1 - &(&(k * &q0) * 0.1);
        q0 = &q0 + &(&q1 * 0.1);
        energy += &(&q0 * 2.0) * &q1;
    }
    &(&q0 * &q0) + &q1 + energy
}

#[test]
fn copied_arrays() {
    for n in [0, 1, 6] {
        check_with_value(
            "leapfrog",
            &|x| leapfrog([x[0], x[1]], x[2], n),
            &|x| {
                let (value, d_p, d_k) = leapfrog_grad([x[0], x[1]], x[2], n);
                vec![value, d_p[0], d_p[1], d_k]
            },
            &|x| leapfrog_value(x, n),
            &[&[0.8, -0.2, 1.5], &[-1.1, 0.6, 0.3]],
        );
    }
}

/// `to_vec` and `clone` of slices of a run-time length: copies that later writes to the
/// original do not reach.
#[differentiable]
fn smooth(x: &[f64], n: usize) -> f64 {
    let mut y = x.to_vec();
    for _ in 0..n {
        for i in 1..y.len() {
            y[i] = 0.5 * (y[i] + y[i - 1]);
        }
    }
    let old = y.clone();
    y[0] = 3.0 * y[0].tanh();
    old[0] * y.iter().sum::<f64>() + sum_sq(&old)
}

fn smooth_value(x: &[Value], n: usize) -> Value {
    let mut y: Vec<Value> = x.to_vec();
    for _ in 0..n {
        for i in 1..y.len() {
            y[i] = (&y[i] + &y[i - 1]) * 0.5;
        }
    }
    let old = y.clone();
    y[0] = y[0].tanh() * 3.0;
    let total = y.iter().fold(Value::new(-0.0), |s, v| s + v);
    &old[0] * &total + sum_sq_value(&old)
}

#[test]
fn copied_slices() {
    for n in [0, 1, 3] {
        check_with_value(
            "smooth",
            &|x| smooth(x, n),
            &|x| {
                let mut d = vec![0.0; x.len()];
                let value = smooth_grad(x, &mut d, n);
                [vec![value], d].concat()
            },
            &|x| smooth_value(x, n),
            &[&[0.4], &[0.3, -1.2, 2.5], &[-0.4, 0.7, 0.1, -2.2, 1.3]],
        );
    }
}

/// A local array copied into a `let mut` and written: the original keeps its entries.
#[differentiable]
fn copied_local(x: f64) -> f64 {
    let a = [x, 1.0];
    let mut b = a;
    b[0] = 2.0 * x.tanh();
    a[0] + b[0] * a[0]
}

#[test]
fn copied_local_array() {
    check_with_value(
        "copied_local",
        &|p| copied_local(p[0]),
        &|p| {
            let (value, d) = copied_local_grad(p[0]);
            vec![value, d]
        },
        &|x| &x[0] + &(&x[0].tanh() * 2.0) * &x[0],
        &[&[0.7], &[-1.3]],
    );
}

/// `let g = h;` copies the array `h`: writing `h` afterwards leaves `g` as it was.
#[differentiable]
fn copy_then_write(x: f64) -> f64 {
    let mut h = [x, 1.0];
    let g = h;
    h[0] = 5.0 * x;
    g[0] * h[0] + g[1]
}

#[test]
fn copy_keeps_its_entries() {
    check_with_value(
        "copy_then_write",
        &|p| copy_then_write(p[0]),
        &|p| {
            let (value, d) = copy_then_write_grad(p[0]);
            vec![value, d]
        },
        &|x| &(&x[0] * &(&x[0] * 5.0)) + 1.0,
        &[&[0.5], &[-1.7]],
    );
}

/// A `vec!` inside a loop whose entry assigns a variable the loop carries: the loop's scan of
/// what its body assigns reads `vec!` bodies too (random programs seed 20261201, program 789,
/// where `q` was lost: "cannot find value `q_4`").
#[differentiable]
fn assigns_inside_vec(x: f64, w: &[f64]) -> f64 {
    let mut q = x * 0.5;
    let mut acc = 0.0;
    for s in 0..w.len() {
        // `q` is assigned nowhere but inside the `vec!`.
        let v = vec![
            x,
            if q <= 0.0 {
                q *= 1.5 + w[s];
                1.5
            } else {
                w[s] * q
            },
        ];
        acc += v[1] * x;
    }
    q * acc + q
}

#[test]
fn a_vec_entry_assigning_a_carried_variable() {
    let f = |p: &[f64]| assigns_inside_vec(p[0], &p[1..]);
    for point in [
        &[0.7, 0.3, -0.4, 1.1][..],
        &[-0.6, 0.5, 0.2, -0.9],
        &[0.9],
        &[-1.3, 2.0],
    ] {
        let mut d_w = vec![0.0; point.len() - 1];
        let (value, d_x) = assigns_inside_vec_grad(point[0], &point[1..], &mut d_w);
        assert_same_value("assigns_inside_vec", value, f(point), point);
        let mut gradient = vec![d_x];
        gradient.extend(d_w);
        assert_gradient("assigns_inside_vec", f, point, &gradient);
    }
}
