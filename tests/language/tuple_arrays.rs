//! Local arrays of tuples (issue 24): `let pts = [(0.0, 1.0), (1.0, 2.5)];`, `[(x, v); N]`,
//! `vec![(0.0, 1.0), ..]`,
//! read as `pts[i].0`, `let (x, y) = pts[i];`, `for &(x, y) in &pts`, `for p in &pts`,
//! `pts.iter().map(|p| p.0 * p.1)` and `|&(x, y)|`, `.enumerate()`, `.rev()`, written as `pts[i] = (a, b);` and
//! `pts[i].1 *= c;`, copied whole. A fit, a simulation of particles and a mix of them, each
//! with `f_grad`, `f_pullback`, `f_jvp`, `f_hvp` and `f_hessian` against central differences
//! and num-dual on generic twins written by hand, at points on both sides of the branches,
//! with 0, 1 and many steps; the value bit for bit `f`'s.

use crate::common;

use common::oracle::{self, check};
use common::{assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// A line fitted to points held as `(x, y)` pairs, with a Huber loss (quadratic below 1).
#[differentiable(hvp, hessian)]
fn fit(a: f64, b: f64) -> f64 {
    let pts = [(0.0, 1.0), (1.0, 2.5), (2.0, 4.1), (3.0, 5.9)];
    let mut s = 0.0;
    for &(x, y) in &pts {
        let r = a * x + b - y;
        s += if r.abs() < 1.0 {
            0.5 * r * r
        } else {
            r.abs() - 0.5
        };
    }
    s + pts[1].0 * a * b
}

/// The same points as a `vec!` of pairs.
#[differentiable(jvp)]
fn fit_vec(a: f64, b: f64) -> f64 {
    let pts = vec![(0.0, 1.0), (1.0, 2.5), (2.0, 4.1), (3.0, 5.9)];
    let mut s = 0.0;
    for &(x, y) in &pts {
        let r = a * x + b - y;
        s += if r.abs() < 1.0 {
            0.5 * r * r
        } else {
            r.abs() - 0.5
        };
    }
    s + pts[1].0 * a * b
}

fn fit_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> D {
    let pts = [(0.0, 1.0), (1.0, 2.5), (2.0, 4.1), (3.0, 5.9)];
    let mut s = D::from(0.0);
    for &(x, y) in &pts {
        let r = a * x + b - y;
        let abs = if r.re() < 0.0 { -r } else { r };
        s += if abs.re() < 1.0 {
            r * r * 0.5
        } else {
            abs - 0.5
        };
    }
    s + a * b * pts[1].0
}

/// Particles `(position, velocity)` all started at `(x0, v0)`, stepped `n` times by a spring
/// with a damper on one side; the energy left.
#[differentiable(hvp, hessian)]
fn particles(x0: f64, v0: f64, k: f64, n: usize) -> f64 {
    let mut ps = [(x0, v0); 3];
    for i in 0..3 {
        ps[i].0 += 0.1 * i as f64;
    }
    for _ in 0..n {
        for i in 0..ps.len() {
            let (x, v) = ps[i];
            ps[i] = (x + 0.1 * v, v - 0.1 * k * x);
            if ps[i].0 > 0.0 {
                ps[i].1 *= 0.9;
            }
        }
    }
    ps.iter().map(|p| p.0 * p.0 + p.1 * p.1).sum::<f64>()
}

fn particles_twin<D: DualNum<Primitive = f64> + Copy>(x0: D, v0: D, k: D, n: usize) -> D {
    let mut ps = [(x0, v0); 3];
    for (i, p) in ps.iter_mut().enumerate() {
        p.0 += D::from(0.1 * i as f64);
    }
    for _ in 0..n {
        for p in ps.iter_mut() {
            let (x, v) = *p;
            *p = (x + v * 0.1, v - k * x * 0.1);
            if p.0.re() > 0.0 {
                p.1 *= D::from(0.9);
            }
        }
    }
    ps.iter().map(|p| p.0 * p.0 + p.1 * p.1).sum::<D>()
}

/// Tuples of the inputs: destructured, enumerated, read as views, copied and the copy written.
#[differentiable(hvp, hessian)]
fn mixed(a: f64, b: f64) -> f64 {
    let pts: [(f64, f64); 3] = [(a, 1.0), (1.0, b), (a * b, 4.1)];
    let mut s = 0.0;
    for p in &pts {
        s += p.0 * p.1;
    }
    for (x, y) in pts {
        s += (x - y).sin();
    }
    for (i, &(x, y)) in pts.iter().enumerate() {
        s += x * y * i as f64;
    }
    let w: f64 = pts.iter().map(|&(x, y)| x * y).sum();
    let z: f64 = pts.iter().map(|(x, y)| x - y).sum();
    for &(x, _) in pts.iter().rev() {
        s = s * 0.5 + x;
    }
    let mut q = pts;
    q[0].1 = a * a;
    let (u, v) = q[pts.len() - 1];
    s + u * v + q[0].1 * pts[0].1 + w * z
}

fn mixed_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> D {
    let pts = [(a, D::from(1.0)), (D::from(1.0), b), (a * b, D::from(4.1))];
    let mut s = D::from(0.0);
    for p in &pts {
        s += p.0 * p.1;
    }
    for (x, y) in pts {
        s += (x - y).sin();
    }
    for (i, &(x, y)) in pts.iter().enumerate() {
        s += x * y * i as f64;
    }
    let w: D = pts.iter().map(|&(x, y)| x * y).sum();
    let z: D = pts.iter().map(|&(x, y)| x - y).sum();
    for &(x, _) in pts.iter().rev() {
        s = s * 0.5 + x;
    }
    let mut q = pts;
    q[0].1 = a * a;
    let (u, v) = q[pts.len() - 1];
    s + u * v + q[0].1 * pts[0].1 + w * z
}

#[test]
fn a_fit_over_an_array_of_pairs() {
    // At (1.6, 0.9) every residual is under 1 (the quadratic arm); at (2.4, -1.0) some are
    // over (the linear arm), on both sides of zero.
    for point in [[1.6, 0.9], [2.4, -1.0], [-0.7, 3.0]] {
        let f = |p: &[f64]| fit(p[0], p[1]);
        let twin = |p: &[Dual64]| fit_twin(p[0], p[1]);
        let (value, d_a, d_b) = fit_grad(point[0], point[1]);
        check!(
            "fit",
            &point,
            (value, &[d_a, d_b]),
            against = [central(f), dual(twin)]
        );
        let (p_a, p_b) = fit_pullback(point[0], point[1], -2.0);
        assert_near("fit_pullback", p_a, -2.0 * d_a, 1e-12);
        assert_near("fit_pullback", p_b, -2.0 * d_b, 1e-12);
        let (value, tangent) = fit_jvp(point[0], 0.3, point[1], -1.2);
        assert_same_value("fit_jvp", value, f(&point), &point);
        let dual = fit_twin(Dual64::new(point[0], 0.3), Dual64::new(point[1], -1.2));
        assert_near("fit_jvp", tangent, dual.eps, 1e-12);
        let f_vec = |p: &[f64]| fit_vec(p[0], p[1]);
        let (value, d_a, d_b) = fit_vec_grad(point[0], point[1]);
        check!(
            "fit_vec",
            &point,
            (value, &[d_a, d_b]),
            against = [central(f_vec), dual(twin)]
        );
        let (value, tangent) = fit_vec_jvp(point[0], 0.3, point[1], -1.2);
        assert_same_value("fit_vec_jvp", value, f_vec(&point), &point);
        assert_near("fit_vec_jvp", tangent, dual.eps, 1e-12);
        let (value, hessian) = fit_hessian(point[0], point[1]);
        assert_same_value("fit_hessian", value, f(&point), &point);
        oracle::Hessian::new("fit_hessian", &point, hessian.as_flattened())
            .dual(|q: &[HyperDual64]| fit_twin(q[0], q[1]));
    }
}

#[test]
fn particles_held_as_pairs_stepped_in_place() {
    for n in [0, 1, 6] {
        for point in [[0.4, -0.8, 2.0], [-0.5, 0.6, 0.7]] {
            let f = |p: &[f64]| particles(p[0], p[1], p[2], n);
            let twin = |p: &[Dual64]| particles_twin(p[0], p[1], p[2], n);
            let (value, d_x0, d_v0, d_k) = particles_grad(point[0], point[1], point[2], n);
            check!(
                "particles",
                &point,
                (value, &[d_x0, d_v0, d_k]),
                against = [central(f), dual(twin)]
            );
            let v = [0.5, -0.25, 1.0];
            let (value, tangent) = particles_jvp(point[0], v[0], point[1], v[1], point[2], v[2], n);
            assert_same_value("particles_jvp", value, f(&point), &point);
            let duals: Vec<Dual64> = point
                .iter()
                .zip(v)
                .map(|(&p, t)| Dual64::new(p, t))
                .collect();
            assert_near("particles_jvp", tangent, twin(&duals).eps, 1e-12);
            let (value, hessian) = particles_hessian(point[0], point[1], point[2], n);
            assert_same_value("particles_hessian", value, f(&point), &point);
            oracle::Hessian::new("particles_hessian", &point, hessian.as_flattened())
                .dual(|q: &[HyperDual64]| particles_twin(q[0], q[1], q[2], n));
        }
    }
}

#[test]
fn tuples_of_the_inputs_read_every_way_and_copied() {
    for point in [[0.8, -1.5], [-1.2, 0.3]] {
        let f = |p: &[f64]| mixed(p[0], p[1]);
        let twin = |p: &[Dual64]| mixed_twin(p[0], p[1]);
        let (value, d_a, d_b) = mixed_grad(point[0], point[1]);
        check!(
            "mixed",
            &point,
            (value, &[d_a, d_b]),
            against = [central(f), dual(twin)]
        );
        let (value, ha, hb) = mixed_hvp(point[0], 1.0, point[1], 0.0);
        assert_same_value("mixed_hvp", value, f(&point), &point);
        let h = oracle::dual_hessian(|q| mixed_twin(q[0], q[1]), &point);
        assert_near("mixed_hvp", ha, h[0][0], 1e-10);
        assert_near("mixed_hvp", hb, h[1][0], 1e-10);
        let (value, hessian) = mixed_hessian(point[0], point[1]);
        assert_same_value("mixed_hessian", value, f(&point), &point);
        oracle::Hessian::new("mixed_hessian", &point, hessian.as_flattened())
            .dual(|q: &[HyperDual64]| mixed_twin(q[0], q[1]));
    }
}
