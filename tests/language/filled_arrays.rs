//! Local arrays filled with a float variable (issue 24): `let mut h = [b; 4];`,
//! `[[b * 0.5; 2]; 3]`, `vec![b; n]`, and one filled inside a loop from the loop's state, each
//! entry carrying its adjoint back to the fill; and a local array assigned whole from a fill or
//! a literal, `h = [a * 0.5; 3];`, `h = [h[1], h[0] * h[2], h[2] + a];`. `f_grad`, `f_pullback`, `f_jvp`, `f_hvp` and
//! `f_hessian` against central differences and num-dual on generic twins written by hand, at
//! points on both sides of the branches, with 0, 1 and many steps; the value bit for bit `f`'s.

use crate::common;

use common::oracle::{self, check};
use common::{assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// A recurrent cell over `x`, its state started at `b` in every entry, a kink at zero.
#[differentiable(hvp, hessian)]
fn rnn(b: f64, w: f64, x: &[f64]) -> f64 {
    let mut h = [b; 4];
    for t in 0..x.len() {
        for i in 0..4 {
            let z = h[i] * w + x[t] * (i as f64 + 1.0);
            h[i] = if z > 0.0 { z.tanh() } else { 0.1 * z };
        }
    }
    h[0] * h[3] + h[1] - h[2] * b
}

fn rnn_twin<D: DualNum<Primitive = f64> + Copy>(b: D, w: D, x: &[D]) -> D {
    let mut h = [b; 4];
    for xt in x {
        for (i, hi) in h.iter_mut().enumerate() {
            let z = *hi * w + *xt * D::from(i as f64 + 1.0);
            *hi = if z.re() > 0.0 {
                z.tanh()
            } else {
                z * D::from(0.1)
            };
        }
    }
    h[0] * h[3] + h[1] - h[2] * b
}

/// A matrix and a `Vec` filled from expressions of the inputs, then written in part.
#[differentiable(hvp, hessian)]
fn filled(a: f64, c: f64, x: &[f64]) -> f64 {
    let mut l = [[a * 0.5; 2]; 3];
    let mut v = vec![c.sin(); x.len()];
    l[1][0] = c;
    let mut s = 0.0;
    for i in 0..x.len() {
        v[i] *= x[i] + a;
        s += v[i] * l[i % 3][i % 2];
    }
    for row in l {
        s += row[0] * row[1];
    }
    s
}

fn filled_twin<D: DualNum<Primitive = f64> + Copy>(a: D, c: D, x: &[D]) -> D {
    let mut l = [[a * D::from(0.5); 2]; 3];
    let mut v = vec![c.sin(); x.len()];
    l[1][0] = c;
    let mut s = D::from(0.0);
    for i in 0..x.len() {
        v[i] *= x[i] + a;
        s += v[i] * l[i % 3][i % 2];
    }
    for row in l {
        s += row[0] * row[1];
    }
    s
}

/// A fill inside a loop: each step starts a fresh array from the state carried so far.
#[differentiable(hvp, hessian)]
fn restart(y: f64, n: usize) -> f64 {
    let mut e = y;
    for k in 0..n {
        let mut a = [e; 3];
        a[k % 3] = e * e;
        e = a[0] * 0.5 + a[1].sin() + a[2] * 0.25;
    }
    e
}

fn restart_twin<D: DualNum<Primitive = f64> + Copy>(y: D, n: usize) -> D {
    let mut e = y;
    for k in 0..n {
        let mut a = [e; 3];
        a[k % 3] = e * e;
        e = a[0] * D::from(0.5) + a[1].sin() + a[2] * D::from(0.25);
    }
    e
}

/// A state reset to a fill on odd steps and replaced whole by a literal of its own entries.
#[differentiable(hvp, hessian)]
fn reset(a: f64, x: &[f64]) -> f64 {
    let mut h = [a; 3];
    let mut s = 0.0;
    for t in 0..x.len() {
        if t % 2 == 1 {
            h = [a * 0.5; 3];
        }
        h[t % 3] += x[t];
        h = [h[1], h[0] * h[2], h[2] + a];
        s += if h[1] > 0.0 { h[0] * h[1] } else { h[2].sin() };
    }
    s + h[0]
}

fn reset_twin<D: DualNum<Primitive = f64> + Copy>(a: D, x: &[D]) -> D {
    let mut h = [a; 3];
    let mut s = D::from(0.0);
    for t in 0..x.len() {
        if t % 2 == 1 {
            h = [a * 0.5; 3];
        }
        h[t % 3] += x[t];
        h = [h[1], h[0] * h[2], h[2] + a];
        s += if h[1].re() > 0.0 {
            h[0] * h[1]
        } else {
            h[2].sin()
        };
    }
    s + h[0]
}

fn duals(point: &[f64], v: &[f64]) -> Vec<Dual64> {
    point
        .iter()
        .zip(v)
        .map(|(&p, &t)| Dual64::new(p, t))
        .collect()
}

#[test]
fn an_array_filled_with_a_variable_in_a_recurrent_cell() {
    // w = -0.9 with b = 0.6 sends some z below zero (the linear arm), w = 0.8 keeps them above.
    let inputs: [&[f64]; 3] = [&[], &[0.3], &[0.3, -0.7, 0.2]];
    for x in inputs {
        for (b, w) in [(0.6, 0.8), (0.6, -0.9), (-0.4, 1.1)] {
            let point: Vec<f64> = [b, w].into_iter().chain(x.iter().copied()).collect();
            let f = |p: &[f64]| rnn(p[0], p[1], &p[2..]);
            let twin = |p: &[Dual64]| rnn_twin(p[0], p[1], &p[2..]);
            let mut d_x = vec![0.0; x.len()];
            let (value, d_b, d_w) = rnn_grad(b, w, x, &mut d_x);
            let gradient: Vec<f64> = [d_b, d_w].into_iter().chain(d_x).collect();
            check!(
                "rnn",
                &point,
                (value, &gradient),
                against = [central(f), dual(twin)]
            );
            let mut p_x = vec![0.0; x.len()];
            let (p_b, p_w) = rnn_pullback(b, w, x, &mut p_x, 2.5);
            let pulled: Vec<f64> = [p_b, p_w].into_iter().chain(p_x).collect();
            for (p, g) in pulled.iter().zip(&gradient) {
                assert_near("rnn_pullback", *p, 2.5 * g, 1e-12);
            }
            let v: Vec<f64> = (0..point.len()).map(|k| 0.7 - 0.3 * k as f64).collect();
            let (value, tangent) = rnn_jvp(b, v[0], w, v[1], x, &v[2..]);
            assert_same_value("rnn_jvp", value, f(&point), &point);
            assert_near("rnn_jvp", tangent, twin(&duals(&point, &v)).eps, 1e-12);
            let mut hessian = vec![0.0; point.len() * point.len()];
            let value = rnn_hessian(b, w, x, &mut hessian);
            assert_same_value("rnn_hessian", value, f(&point), &point);
            oracle::Hessian::new("rnn_hessian", &point, &hessian)
                .dual(|q: &[HyperDual64]| rnn_twin(q[0], q[1], &q[2..]));
        }
    }
}

#[test]
fn a_matrix_and_a_vec_filled_with_expressions() {
    let inputs: [&[f64]; 3] = [&[], &[0.4], &[0.4, -1.2, 0.9, 2.0]];
    for x in inputs {
        for (a, c) in [(0.7, -0.3), (-1.1, 2.2)] {
            let point: Vec<f64> = [a, c].into_iter().chain(x.iter().copied()).collect();
            let f = |p: &[f64]| filled(p[0], p[1], &p[2..]);
            let twin = |p: &[Dual64]| filled_twin(p[0], p[1], &p[2..]);
            let mut d_x = vec![0.0; x.len()];
            let (value, d_a, d_c) = filled_grad(a, c, x, &mut d_x);
            let gradient: Vec<f64> = [d_a, d_c].into_iter().chain(d_x).collect();
            check!(
                "filled",
                &point,
                (value, &gradient),
                against = [central(f), dual(twin)]
            );
            let v: Vec<f64> = (0..point.len()).map(|k| 0.2 + 0.5 * k as f64).collect();
            let (value, tangent) = filled_jvp(a, v[0], c, v[1], x, &v[2..]);
            assert_same_value("filled_jvp", value, f(&point), &point);
            assert_near("filled_jvp", tangent, twin(&duals(&point, &v)).eps, 1e-12);
            let mut hessian = vec![0.0; point.len() * point.len()];
            let value = filled_hessian(a, c, x, &mut hessian);
            assert_same_value("filled_hessian", value, f(&point), &point);
            oracle::Hessian::new("filled_hessian", &point, &hessian)
                .dual(|q: &[HyperDual64]| filled_twin(q[0], q[1], &q[2..]));
        }
    }
}

#[test]
fn an_array_filled_inside_a_loop_from_its_state() {
    for n in [0, 1, 5] {
        for y in [0.8, -1.3] {
            let point = [y];
            let f = |p: &[f64]| restart(p[0], n);
            let twin = |p: &[Dual64]| restart_twin(p[0], n);
            let (value, d_y) = restart_grad(y, n);
            check!(
                "restart",
                &point,
                (value, &[d_y]),
                against = [central(f), dual(twin)]
            );
            let (value, tangent) = restart_jvp(y, 1.5, n);
            assert_same_value("restart_jvp", value, f(&point), &point);
            assert_near("restart_jvp", tangent, 1.5 * d_y, 1e-12);
            let (value, hv) = restart_hvp(y, 0.5, n);
            assert_same_value("restart_hvp", value, f(&point), &point);
            let h = restart_twin(HyperDual64::new(y, 1.0, 1.0, 0.0), n).eps1eps2;
            assert_near("restart_hvp", hv, 0.5 * h, 1e-10);
        }
    }
}

#[test]
fn an_array_reset_to_a_fill_and_replaced_by_a_literal() {
    let inputs: [&[f64]; 3] = [&[], &[0.3], &[0.3, -1.7, 0.2, 0.9]];
    for x in inputs {
        for a in [0.6, -0.8] {
            let point: Vec<f64> = [a].into_iter().chain(x.iter().copied()).collect();
            let f = |p: &[f64]| reset(p[0], &p[1..]);
            let twin = |p: &[Dual64]| reset_twin(p[0], &p[1..]);
            let mut d_x = vec![0.0; x.len()];
            let (value, d_a) = reset_grad(a, x, &mut d_x);
            let gradient: Vec<f64> = [d_a].into_iter().chain(d_x).collect();
            check!(
                "reset",
                &point,
                (value, &gradient),
                against = [central(f), dual(twin)]
            );
            let v: Vec<f64> = (0..point.len()).map(|k| 0.4 - 0.2 * k as f64).collect();
            let (value, tangent) = reset_jvp(a, v[0], x, &v[1..]);
            assert_same_value("reset_jvp", value, f(&point), &point);
            assert_near("reset_jvp", tangent, twin(&duals(&point, &v)).eps, 1e-12);
            let mut hessian = vec![0.0; point.len() * point.len()];
            let value = reset_hessian(a, x, &mut hessian);
            assert_same_value("reset_hessian", value, f(&point), &point);
            oracle::Hessian::new("reset_hessian", &point, &hessian)
                .dual(|q: &[HyperDual64]| reset_twin(q[0], &q[1..]));
        }
    }
}
