//! `f_jacobian` differentiating read-only slices: after each slice `w` comes its Jacobian block
//! `d_w: &mut [f64]` of `m × w.len()` entries, row `i` (output `i`'s gradient over `w`) at
//! `i * w.len()`, length-checked and overwritten. Against num-dual (`Dual64` along each unit
//! vector, on generic versions) and central differences, with the rows shared, with the rows
//! replaying a loop's tape, and for a `&Vec<f64>`.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// Checks the scalar rows and the block of `w` (flattened after the scalars in `point`)
/// against num-dual's `dual` and central differences of `f`.
fn check<const M: usize, const N: usize>(
    name: &str,
    f: &dyn Fn(&[f64]) -> [f64; M],
    dual: &dyn Fn(&[Dual64]) -> [Dual64; M],
    point: &[f64],
    (value, rows, block): ([f64; M], [[f64; N]; M], &[f64]),
) {
    let exact = f(point);
    let len = point.len() - N;
    assert_eq!(block.len(), M * len, "{name}: block length");
    for i in 0..M {
        assert_eq!(value[i].to_bits(), exact[i].to_bits(), "{name}: value {i}");
        for j in 0..point.len() {
            let entry = if j < N {
                rows[i][j]
            } else {
                block[i * len + j - N]
            };
            let at: Vec<Dual64> = (0..point.len())
                .map(|k| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 }))
                .collect();
            assert_near(name, entry, dual(&at)[i].eps, 1e-12);
            assert_partial(name, |p| f(p)[i], point, j, entry);
        }
    }
}

/// Two outputs of a scale `a` and weights `w`: straight-line rows that share one sweep.
#[differentiable(jacobian)]
fn features(a: f64, w: &[f64]) -> [f64; 2] {
    let mut s = 0.0;
    let mut q = 0.0;
    for i in 0..w.len() {
        s += w[i];
        q += w[i] * w[i];
    }
    [a * s, (a * q).sqrt()]
}

fn features_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> [D; 2] {
    let (a, w) = (p[0], &p[1..]);
    let s = w.iter().fold(D::from(0.0), |s, &x| s + x);
    let q = w.iter().fold(D::from(0.0), |q, &x| q + x * x);
    [a * s, (a * q).sqrt()]
}

#[test]
fn a_slice_s_block_follows_it() {
    for point in [vec![1.5, 0.5, -1.0, 2.0], vec![0.3, 2.0, 0.1]] {
        let w = &point[1..];
        let mut d_w = vec![f64::NAN; 2 * w.len()];
        let (value, rows) = features_jacobian(point[0], w, &mut d_w);
        let f = |p: &[f64]| features(p[0], &p[1..]);
        check("features", &f, &features_dual, &point, (value, rows, &d_w));
    }
}

/// A recurrence over `w` (its loop records values for the reverse sweep, so each row replays
/// the tape) with three outputs, one of them from a branch; `x` is not differentiated.
#[allow(clippy::ptr_arg)] // `&Vec` is the parameter kind under test
#[differentiable(jacobian, wrt(c, w))]
fn recurrence(c: f64, w: &Vec<f64>, x: f64) -> (f64, f64, f64) {
    let mut h = x;
    let mut peak = 0.0;
    for i in 0..w.len() {
        h = (h * w[i] + c).tanh();
        if h > peak {
            peak = h;
        }
    }
    (h, peak * c, h * h)
}

fn recurrence_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D], x: f64) -> [D; 3] {
    let (c, w) = (p[0], &p[1..]);
    let mut h = D::from(x);
    let mut peak = D::from(0.0);
    for &wi in w {
        h = (h * wi + c).tanh();
        if h.re() > peak.re() {
            peak = h;
        }
    }
    [h, peak * c, h * h]
}

#[test]
fn a_vec_s_block_with_rows_replaying_a_tape() {
    let x = 0.4;
    for point in [vec![0.2, 1.5, -0.5, 0.8], vec![-0.3, 0.9, 1.1]] {
        let w = point[1..].to_vec();
        let mut d_w = vec![f64::NAN; 3 * w.len()];
        let ((h, p, q), rows) = recurrence_jacobian(point[0], &w, &mut d_w, x);
        let f = |p: &[f64]| {
            let (h, peak, q) = recurrence(p[0], &p[1..].to_vec(), x);
            [h, peak, q]
        };
        let dual = |p: &[Dual64]| recurrence_dual(p, x);
        check("recurrence", &f, &dual, &point, ([h, p, q], rows, &d_w));
    }
}

#[test]
#[should_panic(
    expected = "the Jacobian block `d_w` has 4 entries but `w` has 3 and there are 2 outputs"
)]
fn a_block_of_the_wrong_length_is_a_clear_panic() {
    features_jacobian(1.0, &[1.0, 2.0, 3.0], &mut [0.0; 4]);
}

/// Regression (random programs 103, 112, 134, 253 and 277 of seed 1): a loop that only adds
/// each iteration's contribution into an output, which `f_grad` reverses inside the forward
/// loop (diff/fuse.rs). `f_jacobian`'s rows seed each output after their one forward sweep,
/// which ran that fused reverse before any seed was set: "cannot find value `d_sum`". One
/// output alone through the loop (the rows replay one seeded sweep), and both through it (the
/// rows share the forward sweep).
#[differentiable(jacobian)]
fn summed(a: f64, w: &[f64]) -> [f64; 2] {
    [w.iter().map(|x| x * a).sum::<f64>(), a]
}

fn summed_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> [D; 2] {
    let (a, w) = (p[0], &p[1..]);
    [w.iter().fold(D::from(0.0), |s, &x| s + x * a), a]
}

#[differentiable(jacobian)]
fn accumulated(a: f64, w: &[f64]) -> [f64; 2] {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += (w[i] * a).tanh();
    }
    [s, s * a]
}

fn accumulated_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> [D; 2] {
    let (a, w) = (p[0], &p[1..]);
    let s = w.iter().fold(D::from(0.0), |s, &x| s + (x * a).tanh());
    [s, s * a]
}

#[test]
fn rows_through_a_loop_that_only_accumulates() {
    for point in [vec![1.5, 0.5, -1.0, 2.0], vec![-0.7, 2.0, 0.1]] {
        let w = &point[1..];
        let mut d_w = vec![f64::NAN; 2 * w.len()];
        let (value, rows) = summed_jacobian(point[0], w, &mut d_w);
        let f = |p: &[f64]| summed(p[0], &p[1..]);
        check("summed", &f, &summed_dual, &point, (value, rows, &d_w));
        let mut d_w = vec![f64::NAN; 2 * w.len()];
        let (value, rows) = accumulated_jacobian(point[0], w, &mut d_w);
        let f = |p: &[f64]| accumulated(p[0], &p[1..]);
        check(
            "accumulated",
            &f,
            &accumulated_dual,
            &point,
            (value, rows, &d_w),
        );
    }
}
