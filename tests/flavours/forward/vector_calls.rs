//! Second order through functions returning several values: a caller's `f_hvp` and
//! `f_hessian` go through the callee's `g_tangent_pullback`, and the callee's own `g_hvp` is
//! the Hessian-vector product of `seed · g`. Against num-dual's `hessian` on generic twins and
//! central differences of `f_grad` (of `g_pullback` for the seeded one).

use super::hessian;
use super::programs::{Dual, c};
use super::{Case, check, common, points};
use micrograd_runtime::prelude::*;
use nalgebra::SVector;
use num_dual::Dual2SVec64;

#[differentiable(hvp)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

fn polar_dual<D: Dual>(r: D, theta: D) -> [D; 2] {
    [r * theta.cos(), r * theta.sin()]
}

/// A tuple output with a loop over a slice, and a branch.
#[differentiable(hvp)]
fn moments(a: f64, w: &[f64]) -> (f64, f64) {
    let mut s = 0.0;
    let mut q = 0.0;
    for x in w {
        s += (a * x).sin();
        q += x * x * a;
    }
    let q = if q > 0.0 { q.sqrt() } else { -q };
    (s, q * s)
}

fn moments_dual<D: Dual>(a: D, w: &[D]) -> (D, D) {
    let mut s: D = c(0.0);
    let mut q: D = c(0.0);
    for x in w {
        s += (a * *x).sin();
        q += *x * *x * a;
    }
    let q = if q.re() > 0.0 { q.sqrt() } else { -q };
    (s, q * s)
}

/// A function of several values calling another one.
#[differentiable(hvp)]
fn shifted(x: f64, y: f64, t: f64) -> [f64; 2] {
    let [a, b] = polar(x, t);
    [a + y * b, b.exp() - y]
}

fn shifted_dual<D: Dual>(x: D, y: D, t: D) -> [D; 2] {
    let [a, b] = polar_dual(x, t);
    [a + y * b, b.exp() - y]
}

/// Every way to take a call of several values apart (an array pattern with `_`, a tuple, an
/// annotated local array), in a loop and a branch; `x` is held constant.
#[differentiable(hessian, wrt(p, w))]
fn through(p: f64, w: &[f64], x: f64) -> f64 {
    let [a, _] = polar(p, x);
    let (s, q) = moments(a, w);
    let mut acc = 0.0;
    for i in 0..w.len() {
        let r: [f64; 2] = shifted(w[i], s, p);
        acc += r[0] * r[1];
    }
    if q > 0.5 {
        let (u, _) = moments(q, &w[1..]);
        acc += u;
    }
    acc + s * q
}

const X: f64 = 0.4;

fn through_dual<D: Dual>(params: &[D]) -> D {
    let (p, w) = (params[0], &params[1..]);
    let [a, _] = polar_dual(p, c(X));
    let (s, q) = moments_dual(a, w);
    let mut acc: D = c(0.0);
    for x in w {
        let r = shifted_dual(*x, s, p);
        acc += r[0] * r[1];
    }
    if q.re() > 0.5 {
        let (u, _) = moments_dual(q, &w[1..]);
        acc += u;
    }
    acc + s * q
}

fn through_grad_flat(params: &[f64]) -> Vec<f64> {
    let mut d = vec![0.0; params.len()];
    let (_, d_p) = through_grad(params[0], &params[1..], &mut d[1..], X);
    d[0] = d_p;
    d
}

#[test]
fn hvp_through_calls_of_several_values() {
    let case = Case::<4> {
        name: "through",
        f: &|p| through(p[0], &p[1..], X),
        grad: &through_grad_flat,
        jvp: &|p, v| through_jvp(p[0], v[0], &p[1..], &v[1..], X),
        hvp: &|p, v| {
            let mut hv = vec![0.0; 4];
            let (y, h_p) = through_hvp(p[0], v[0], &p[1..], &v[1..], &mut hv[1..], X);
            hv[0] = h_p;
            (y, hv)
        },
        dual: &through_dual,
    };
    for (p, v) in points(4, -1.2, 1.2) {
        check(&case, &p, &v);
    }
}

#[test]
fn hessian_through_calls_of_several_values() {
    for (p, _) in points(4, -1.2, 1.2) {
        let mut h = [0.0; 16];
        let value = through_hessian(p[0], &p[1..], X, &mut h);
        assert_eq!(value.to_bits(), through(p[0], &p[1..], X).to_bits());
        hessian::check::<4>("through", &h, &through_grad_flat, &through_dual, &p);
    }
}

/// `shifted_hvp` with a seed: the value bit for bit `shifted`'s, `H v` of `seed · shifted`
/// against num-dual and against central differences of `shifted_pullback` along `v`.
#[test]
fn seeded_hvp_of_several_values() {
    let seeds = [[1.0, 0.0], [0.0, 1.0], [0.7, -1.9]];
    for ((x, v), seed) in points(3, -1.5, 1.5).into_iter().zip(seeds.iter().cycle()) {
        let (value, h_x, h_y, h_t) = shifted_hvp(x[0], v[0], x[1], v[1], x[2], v[2], *seed);
        let exact = shifted(x[0], x[1], x[2]);
        for k in 0..2 {
            assert_eq!(value[k].to_bits(), exact[k].to_bits(), "value {k}");
        }
        let weighted = |p: SVector<Dual2SVec64<3>, 3>| {
            let [a, b] = shifted_dual(p[0], p[1], p[2]);
            a * seed[0] + b * seed[1]
        };
        let (_, _, reference) = num_dual::hessian(weighted, &SVector::from_column_slice(&x));
        let h_v: SVector<f64, 3> = reference * SVector::<f64, 3>::from_column_slice(&v);
        let hv = [h_x, h_y, h_t];
        for i in 0..3 {
            let (a, b) = (hv[i], h_v[i]);
            assert!(
                (a - b).abs() <= 1e-10 * a.abs().max(b.abs()).max(1.0),
                "shifted: (H v)[{i}] {a:e}, num-dual {b:e}"
            );
            let component = |t: &[f64]| {
                let p: Vec<f64> = x.iter().zip(&v).map(|(x, v)| x + t[0] * v).collect();
                let (d_x, d_y, d_t) = shifted_pullback(p[0], p[1], p[2], *seed);
                [d_x, d_y, d_t][i]
            };
            common::assert_partial("shifted", component, &[0.0], 0, a);
        }
    }
}

/// `moments_hvp` of a tuple output with a slice parameter: the seed is a tuple, and the slice's
/// entries of `H v` are added into its shadow.
#[test]
fn seeded_hvp_of_a_tuple_with_a_slice() {
    let seed = (0.3, -1.1);
    for (x, v) in points(4, -1.2, 1.2) {
        let mut h_w = [0.0; 3];
        let (value, h_a) = moments_hvp(x[0], v[0], &x[1..], &v[1..], &mut h_w, seed);
        let exact = moments(x[0], &x[1..]);
        assert_eq!(
            (value.0.to_bits(), value.1.to_bits()),
            (exact.0.to_bits(), exact.1.to_bits())
        );
        let weighted = |p: SVector<Dual2SVec64<4>, 4>| {
            let (s, q) = moments_dual(p[0], &[p[1], p[2], p[3]]);
            s * seed.0 + q * seed.1
        };
        let (_, _, reference) = num_dual::hessian(weighted, &SVector::from_column_slice(&x));
        let h_v: SVector<f64, 4> = reference * SVector::<f64, 4>::from_column_slice(&v);
        let hv = [h_a, h_w[0], h_w[1], h_w[2]];
        for i in 0..4 {
            let (a, b) = (hv[i], h_v[i]);
            assert!(
                (a - b).abs() <= 1e-10 * a.abs().max(b.abs()).max(1.0),
                "moments: (H v)[{i}] {a:e}, num-dual {b:e}"
            );
            let component = |t: &[f64]| {
                let p: Vec<f64> = x.iter().zip(&v).map(|(x, v)| x + t[0] * v).collect();
                let mut d_w = [0.0; 3];
                let d_a = moments_pullback(p[0], &p[1..], &mut d_w, seed);
                [d_a, d_w[0], d_w[1], d_w[2]][i]
            };
            common::assert_partial("moments", component, &[0.0], 0, a);
        }
    }
}
