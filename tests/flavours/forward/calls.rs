//! Calls between `#[differentiable(hvp)]` functions, slices and local arrays, and the demo
//! network's loss.

use super::programs::{Dual, c, relu};
use super::{Case, check, points};
use micrograd_runtime::prelude::*;

#[differentiable(hvp)]
fn dot_tanh(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s.tanh()
}

#[differentiable(hvp)]
fn scale(a: f64, b: f64) -> f64 {
    a * b.exp()
}

/// Calls with sub-slices, a slice passed twice, and a constant slice (`x` is not in `wrt`).
#[differentiable(hvp, wrt(w))]
fn calls(w: &[f64], x: &[f64]) -> f64 {
    let h = dot_tanh(&w[0..2], x);
    let g = dot_tanh(&w[2..4], x);
    scale(h, g) + dot_tanh(w, w)
}

fn dot_tanh_dual<D: Dual>(w: &[D], x: &[D]) -> D {
    let mut s: D = c(0.0);
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s.tanh()
}

const X: [f64; 2] = [0.7, -1.3];

fn calls_dual<D: Dual>(w: &[D]) -> D {
    let x = X.map(c::<D>);
    let h = dot_tanh_dual(&w[0..2], &x);
    let g = dot_tanh_dual(&w[2..4], &x);
    h * g.exp() + dot_tanh_dual(w, w)
}

#[test]
fn calls_of_every_argument_kind() {
    let case = Case::<4> {
        name: "calls",
        f: &|w| calls(w, &X),
        grad: &|w| {
            let mut d = vec![0.0; 4];
            calls_grad(w, &mut d, &X);
            d
        },
        jvp: &|w, v| calls_jvp(w, v, &X),
        hvp: &|w, v| {
            let mut hv = vec![0.0; 4];
            let y = calls_hvp(w, v, &mut hv, &X);
            (y, hv)
        },
        dual: &calls_dual,
    };
    for (w, v) in points(4, -1.0, 1.0) {
        check(&case, &w, &v);
    }
}

/// A local array written in a loop and updated in place, an array literal, and an array
/// parameter.
#[differentiable(hessian)]
pub fn arrays(a: f64, w: &[f64; 3]) -> f64 {
    let mut h = [0.0; 3];
    for i in 0..3 {
        h[i] = (a * w[i]).sin();
    }
    h[1] += w[0] * h[2];
    let q = [a, w[1], h[0]];
    let mut s = 0.0;
    for i in 0..3 {
        s += q[i] * h[i];
    }
    s + h[2].powi(2)
}

pub fn arrays_dual<D: Dual>(p: &[D]) -> D {
    let (a, w) = (p[0], &p[1..]);
    let mut h = [c::<D>(0.0); 3];
    for i in 0..3 {
        h[i] = (a * w[i]).sin();
    }
    h[1] += w[0] * h[2];
    let q = [a, w[1], h[0]];
    let mut s: D = c(0.0);
    for i in 0..3 {
        s += q[i] * h[i];
    }
    s + h[2].powi(2)
}

#[test]
fn slices_and_local_arrays() {
    let split = |p: &[f64]| (p[0], [p[1], p[2], p[3]]);
    let case = Case::<4> {
        name: "arrays",
        f: &|p| {
            let (a, w) = split(p);
            arrays(a, &w)
        },
        grad: &|p| {
            let (a, w) = split(p);
            let mut d_w = [0.0; 3];
            let (_, d_a) = arrays_grad(a, &w, &mut d_w);
            vec![d_a, d_w[0], d_w[1], d_w[2]]
        },
        jvp: &|p, v| {
            let ((a, w), (v_a, v_w)) = (split(p), split(v));
            arrays_jvp(a, v_a, &w, &v_w)
        },
        hvp: &|p, v| {
            let ((a, w), (v_a, v_w)) = (split(p), split(v));
            let mut hv_w = [0.0; 3];
            let (y, hv_a) = arrays_hvp(a, v_a, &w, &v_w, &mut hv_w);
            (y, vec![hv_a, hv_w[0], hv_w[1], hv_w[2]])
        },
        dual: &arrays_dual,
    };
    for (p, v) in points(4, -1.5, 1.5) {
        check(&case, &p, &v);
    }
}

/// micrograd's demo: an MLP (here 2-3-1, `tanh`) under the max-margin loss with L2
/// regularization, over a few points; `p` holds the weights, then the biases.
#[differentiable(hessian, wrt(p))]
pub fn network_loss(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let mut total = 0.0;
    for k in 0..ys.len() {
        let x = &xs[2 * k..2 * k + 2];
        let mut out = p[12];
        for j in 0..3 {
            let h = (p[3 * j] * x[0] + p[3 * j + 1] * x[1] + p[3 * j + 2]).tanh();
            out += p[9 + j] * h;
        }
        total += (1.0 - ys[k] * out).relu();
    }
    let mut l2 = 0.0;
    for i in 0..p.len() {
        l2 += p[i] * p[i];
    }
    total / ys.len() as f64 + 1e-3 * l2
}

pub const XS: [f64; 8] = [0.5, 1.0, -1.0, 0.3, 1.5, -0.5, -0.2, -1.1];
pub const YS: [f64; 4] = [1.0, -1.0, 1.0, -1.0];

pub fn network_loss_dual<D: Dual>(p: &[D]) -> D {
    let mut total: D = c(0.0);
    for k in 0..YS.len() {
        let x = &XS[2 * k..2 * k + 2];
        let mut out = p[12];
        for j in 0..3 {
            let h = (p[3 * j] * x[0] + p[3 * j + 1] * x[1] + p[3 * j + 2]).tanh();
            out += p[9 + j] * h;
        }
        total += relu(c::<D>(1.0) - out * YS[k]);
    }
    let mut l2: D = c(0.0);
    for w in p {
        l2 += *w * *w;
    }
    total / YS.len() as f64 + l2 * 1e-3
}

#[test]
fn demo_network_loss() {
    let case = Case::<13> {
        name: "network_loss",
        f: &|p| network_loss(p, &XS, &YS),
        grad: &|p| {
            let mut d = vec![0.0; 13];
            network_loss_grad(p, &mut d, &XS, &YS);
            d
        },
        jvp: &|p, v| network_loss_jvp(p, v, &XS, &YS),
        hvp: &|p, v| {
            let mut hv = vec![0.0; 13];
            let y = network_loss_hvp(p, v, &mut hv, &XS, &YS);
            (y, hv)
        },
        dual: &network_loss_dual,
    };
    for (p, v) in points(13, -1.0, 1.0) {
        check(&case, &p, &v);
    }
}

/// Reads a sub-slice of its parameter and hands it on: called with a constant array, its
/// tangent is empty (zeros), and so must be the part of it it hands on.
#[differentiable(hvp)]
fn head_times(x: &[f64], d: &[f64]) -> f64 {
    dot_tanh(&x[0..2], &d[1..3]) + d[0]
}

/// A constant local array passed (as a sub-slice) to a callee that re-slices it: random
/// program 2459 of seed 20261123, where `f_jvp` sliced the empty tangent and panicked.
#[differentiable(hvp)]
fn constant_array_handed_on(a: f64, w: &[f64]) -> f64 {
    let k = [0.5, -0.25, 2.0, 1.0];
    head_times(&k[..], &w[..3]) * a
}

fn constant_array_handed_on_dual<D: Dual>(p: &[D]) -> D {
    let (a, w) = (p[0], &p[1..]);
    let k = [0.5, -0.25].map(c::<D>);
    (dot_tanh_dual(&k, &w[1..3]) + w[0]) * a
}

#[test]
fn constant_arrays_handed_on_have_zero_tangents() {
    let case = Case::<4> {
        name: "constant_array_handed_on",
        f: &|p| constant_array_handed_on(p[0], &p[1..]),
        grad: &|p| {
            let mut d_w = vec![0.0; 3];
            let (_, d_a) = constant_array_handed_on_grad(p[0], &p[1..], &mut d_w);
            [vec![d_a], d_w].concat()
        },
        jvp: &|p, v| constant_array_handed_on_jvp(p[0], v[0], &p[1..], &v[1..]),
        hvp: &|p, v| {
            let mut hv = vec![0.0; 3];
            let (y, hv_a) = constant_array_handed_on_hvp(p[0], v[0], &p[1..], &v[1..], &mut hv);
            (y, [vec![hv_a], hv].concat())
        },
        dual: &constant_array_handed_on_dual,
    };
    for (p, v) in points(4, -1.0, 1.0) {
        check(&case, &p, &v);
    }
}
