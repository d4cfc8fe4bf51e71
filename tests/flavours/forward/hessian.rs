//! `f_hessian`: against num-dual's `hessian`, central differences of `f_grad`, symmetry, and
//! micrograd's README expression against a hand derivation.

#![allow(clippy::misrefactored_assign_op)] // micrograd's README expression, as written there

use super::calls::{XS, YS, arrays, arrays_dual, arrays_grad, arrays_hessian};
use super::calls::{network_loss, network_loss_dual, network_loss_grad, network_loss_hessian};
use super::common;
use super::points;
use super::programs::{Dual, relu};
use micrograd_runtime::prelude::*;
use nalgebra::SVector;
use num_dual::Dual2SVec64;

/// Checks a row-major `hessian` at `x` against num-dual and central differences of `grad`.
pub fn check<const N: usize>(
    name: &str,
    hessian: &[f64],
    grad: &dyn Fn(&[f64]) -> Vec<f64>,
    dual: &dyn Fn(&[Dual2SVec64<N>]) -> Dual2SVec64<N>,
    x: &[f64],
) {
    let (_, _, reference) = num_dual::hessian(
        |p: SVector<Dual2SVec64<N>, N>| dual(p.as_slice()),
        &SVector::from_column_slice(x),
    );
    for i in 0..N {
        for j in 0..N {
            let (h, r) = (hessian[i * N + j], reference[(i, j)]);
            assert!(
                (h - r).abs() <= 1e-10 * h.abs().max(r.abs()).max(1.0),
                "{name}: H[{i}][{j}] {h:e}, num-dual {r:e}"
            );
            assert_eq!(
                h,
                hessian[j * N + i],
                "{name}: H is not symmetric at [{i}][{j}]"
            );
            let component = |p: &[f64]| grad(p)[j];
            common::assert_partial(name, component, x, i, h);
        }
    }
}

#[test]
fn hessian_of_slices_and_arrays() {
    let grad = |p: &[f64]| {
        let mut d_w = [0.0; 3];
        let (_, d_a) = arrays_grad(p[0], &[p[1], p[2], p[3]], &mut d_w);
        vec![d_a, d_w[0], d_w[1], d_w[2]]
    };
    for (p, _) in points(4, -1.5, 1.5) {
        let mut h = [0.0; 16];
        let value = arrays_hessian(p[0], &[p[1], p[2], p[3]], &mut h);
        assert_eq!(value.to_bits(), arrays(p[0], &[p[1], p[2], p[3]]).to_bits());
        check::<4>("arrays", &h, &grad, &arrays_dual, &p);
    }
}

#[test]
fn hessian_of_the_demo_network_loss() {
    let grad = |p: &[f64]| {
        let mut d = vec![0.0; 13];
        network_loss_grad(p, &mut d, &XS, &YS);
        d
    };
    for (p, _) in points(13, -1.0, 1.0) {
        let mut h = vec![0.0; 169];
        let value = network_loss_hessian(&p, &XS, &YS, &mut h);
        assert_eq!(value.to_bits(), network_loss(&p, &XS, &YS).to_bits());
        check::<13>("network_loss", &h, &grad, &network_loss_dual, &p);
    }
}

/// micrograd's README expression.
#[differentiable(hessian)]
fn readme(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).relu();
    d += 3.0 * d + (b - a).relu();
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}

fn readme_dual<D: Dual>(p: &[D]) -> D {
    let (a, b) = (p[0], p[1]);
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += c + 1.0 + (-a);
    d += d * 2.0 + relu(b + a);
    d += d * 3.0 + relu(b - a);
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += D::from(10.0) / f;
    g
}

/// By hand, where `a + b < 0 < b - a` (micrograd's point): `c = 3a + 4b + 3`,
/// `d = 12 (ab + b³) + (b - a)`, so `e = 4a + 3b + 3 - 12ab - 12b³`, and `g = e²/2 + 10/e²`
/// gives `H = g''(e) ∇e ∇eᵀ + g'(e) ∇²e` with `g' = e - 20/e³`, `g'' = 1 + 60/e⁴`,
/// `∇e = (4 - 12b, 3 - 12a - 36b²)`, `∇²e = [[0, -12], [-12, -72b]]`.
fn readme_by_hand(a: f64, b: f64) -> [[f64; 2]; 2] {
    let e = 4.0 * a + 3.0 * b + 3.0 - 12.0 * a * b - 12.0 * b.powi(3);
    let (g1, g2) = (e - 20.0 / e.powi(3), 1.0 + 60.0 / e.powi(4));
    let (ea, eb) = (4.0 - 12.0 * b, 3.0 - 12.0 * a - 36.0 * b * b);
    [
        [g2 * ea * ea, g2 * ea * eb - 12.0 * g1],
        [g2 * eb * ea - 12.0 * g1, g2 * eb * eb - 72.0 * b * g1],
    ]
}

#[test]
fn readme_hessian_matches_a_hand_derivation() {
    for (a, b) in [(-4.0, 2.0), (-3.0, 1.5), (-2.5, 0.5)] {
        let (value, h) = readme_hessian(a, b);
        assert_eq!(value.to_bits(), readme(a, b).to_bits());
        let by_hand = readme_by_hand(a, b);
        for i in 0..2 {
            for j in 0..2 {
                let (x, y) = (h[i][j], by_hand[i][j]);
                assert!(
                    (x - y).abs() <= 1e-12 * x.abs().max(1.0),
                    "H[{i}][{j}] {x} vs {y}"
                );
            }
        }
        let grad = |p: &[f64]| {
            let (_, da, db) = readme_grad(p[0], p[1]);
            vec![da, db]
        };
        let flat = [h[0][0], h[0][1], h[1][0], h[1][1]];
        check::<2>("readme", &flat, &grad, &readme_dual, &[a, b]);
    }
}

/// Every kind of parameter in one function: `f64`s, a slice, an array by value, an array by
/// reference, in mixed order, so the rows of `H` mix them too.
#[differentiable(hessian)]
fn mixed(a: f64, w: &[f64], p: [f64; 2], q: &[f64; 2], b: f64) -> f64 {
    let mut s = a * b;
    for i in 0..w.len() {
        s += (w[i] * p[i % 2]).sin() * q[i % 2] + a * w[i] * w[i];
    }
    s * b + p[0] * p[1] * q[0] * q[1]
}

/// `mixed` on a flat point `(a, w.., p0, p1, q0, q1, b)`.
fn mixed_dual<D: Dual>(x: &[D]) -> D {
    let (a, b, k) = (x[0], x[x.len() - 1], x.len() - 6);
    let (w, p, q) = (&x[1..1 + k], &x[1 + k..3 + k], &x[3 + k..5 + k]);
    let mut s = a * b;
    for i in 0..w.len() {
        s += (w[i] * p[i % 2]).sin() * q[i % 2] + a * w[i] * w[i];
    }
    s * b + p[0] * p[1] * q[0] * q[1]
}

/// `mixed`'s gradient and Hessian on a flat point with `k` entries of `w`.
fn mixed_flat(x: &[f64], k: usize, hess: &mut [f64]) -> (f64, Vec<f64>) {
    let (w, p, q) = (&x[1..1 + k], [x[1 + k], x[2 + k]], [x[3 + k], x[4 + k]]);
    let (a, b) = (x[0], x[5 + k]);
    let value = mixed_hessian(a, w, p, &q, b, hess);
    assert_eq!(value.to_bits(), mixed(a, w, p, &q, b).to_bits());
    let (mut d_w, mut d_q) = (vec![0.0; k], [0.0; 2]);
    let (_, d_a, d_p, d_b) = mixed_grad(a, w, &mut d_w, p, &q, &mut d_q, b);
    let gradient = [&[d_a][..], &d_w, &d_p, &d_q, &[d_b]].concat();
    (value, gradient)
}

#[test]
fn hessian_of_every_parameter_kind() {
    for (x, _) in points(8, -1.2, 1.2) {
        let mut h = [0.0; 64];
        mixed_flat(&x, 2, &mut h);
        let grad = |x: &[f64]| mixed_flat(x, 2, &mut [0.0; 64]).1;
        check::<8>("mixed", &h, &grad, &mixed_dual, &x);
    }
    // No entries in `w`: the slice has no rows, the others keep theirs.
    for (x, _) in points(6, -1.2, 1.2) {
        let mut h = [0.0; 36];
        mixed_flat(&x, 0, &mut h);
        let grad = |x: &[f64]| mixed_flat(x, 0, &mut [0.0; 36]).1;
        check::<6>("mixed, empty w", &h, &grad, &mixed_dual, &x);
    }
}

#[differentiable(hessian)]
fn cubes(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i].powi(3) * (1.0 + w[i]);
    }
    s
}

/// A `&Vec<f64>` parameter beside an `f64`: its tangent is a `Vec` too.
#[allow(clippy::ptr_arg)] // the `&Vec<f64>` parameter kind is what is tested
#[differentiable(hessian)]
fn vec_loss(u: &Vec<f64>, a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..u.len() {
        s += (a * u[i]).tanh() * u[i];
    }
    s
}

fn vec_loss_dual<D: Dual>(x: &[D]) -> D {
    let (u, a) = (&x[..x.len() - 1], x[x.len() - 1]);
    let mut s: D = super::programs::c(0.0);
    for &u in u {
        s += (a * u).tanh() * u;
    }
    s
}

#[test]
fn hessians_of_one_and_no_rows_and_of_a_vec() {
    // One entry: H = [12 w² + 6 w]; none: H is empty and the value is still f's.
    let mut h = [7.0; 1];
    assert_eq!(cubes_hessian(&[0.5], &mut h), cubes(&[0.5]));
    assert_eq!(h, [12.0 * 0.25 + 6.0 * 0.5]);
    assert_eq!(cubes_hessian(&[], &mut []), 0.0);
    let grad = |x: &[f64]| {
        let mut d_u = vec![0.0; 3];
        let (_, d_a) = vec_loss_grad(&x[..3].to_vec(), &mut d_u, x[3]);
        [&d_u[..], &[d_a]].concat()
    };
    for (x, _) in points(4, -1.0, 1.0) {
        let mut h = [0.0; 16];
        let value = vec_loss_hessian(&x[..3].to_vec(), x[3], &mut h);
        assert_eq!(value.to_bits(), vec_loss(&x[..3].to_vec(), x[3]).to_bits());
        check::<4>("vec_loss", &h, &grad, &vec_loss_dual, &x);
    }
}

/// How many allocations `f` makes (the counting allocator is this test binary's).
fn allocations<T>(f: impl FnOnce() -> T) -> u64 {
    allocation_counter::measure(|| {
        std::hint::black_box(f());
    })
    .count_total
}

#[test]
fn dense_hessians_allocate_nothing() {
    let (p, _) = &points(13, -1.0, 1.0)[0];
    let mut h = vec![0.0; 169];
    let network = allocations(|| network_loss_hessian(p, &XS, &YS, &mut h));
    assert_eq!(network, 0, "the demo network's loss");
    let (x, w) = ([0.3, -0.8, 0.5, 1.1, 0.7, -0.4], [0.2, -0.9]);
    let mut h = [0.0; 64];
    let every_kind =
        allocations(|| mixed_hessian(x[0], &w, [x[1], x[2]], &[x[3], x[4]], x[5], &mut h));
    assert_eq!(every_kind, 0, "every parameter kind");
    let mut h = [0.0; 1];
    assert_eq!(allocations(|| cubes_hessian(&[0.5], &mut h)), 0, "one row");
    // The `Vec` tangent is the one allocation, which also shows the counter counts.
    let u = vec![0.1, 0.2, 0.3];
    let mut h = [0.0; 16];
    assert_eq!(
        allocations(|| vec_loss_hessian(&u, 0.5, &mut h)),
        1,
        "a `&Vec<f64>`"
    );
}
