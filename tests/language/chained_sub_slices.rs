//! A sub-slice of a sub-slice, `&w[a..][..n]` (the entries `a..a + n`, the idiom that tells
//! rustc the view's length is `n`, where `&w[a..a + n]` leaves it `a + n - a`): of a slice
//! parameter in a loop over blocks, of a local array, chained three times, passed to a call,
//! read by `len()` and by a loop over its entries. Each against central differences and
//! num-dual, the value bit for bit `f`'s, and a chain past the end panics in `f_grad` where it
//! panics in `f`.

use crate::common;

use common::oracle::check;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// Σ_c Σᵢ bᵢ b_{d-1-i} (i + 1) over blocks `b = &w[c * d..][..d]`, and the tail of each block,
/// `&b[1..][..d - 1]`, summed through a call.
#[differentiable(jvp)]
fn blocks(w: &[f64], d: usize) -> f64 {
    let k = w.len() / d;
    let mut s = 0.0;
    for c in 0..k {
        let b = &w[c * d..][..d];
        for i in 0..b.len() {
            s += b[i] * b[d - 1 - i] * (i as f64 + 1.0);
        }
        s += total(&b[1..][..d - 1]).sin();
    }
    s
}

#[differentiable(jvp)]
fn total(v: &[f64]) -> f64 {
    let mut t = 0.0;
    for &e in v {
        t += e * e;
    }
    t
}

fn blocks_twin(w: &[Dual64], d: usize) -> Dual64 {
    let mut s = Dual64::from(0.0);
    for c in 0..w.len() / d {
        let b = &w[c * d..c * d + d];
        for i in 0..d {
            s += b[i] * b[d - 1 - i] * (i as f64 + 1.0);
        }
        let mut t = Dual64::from(0.0);
        for &e in &b[1..d] {
            t += e * e;
        }
        s += t.sin();
    }
    s
}

/// A local array's window chained three times, `&a[1..][1..][..2]` (entries 2 and 3).
#[differentiable]
fn local(w: &[f64]) -> f64 {
    let a = [w[0] * w[1], w[1].exp(), w[2] - w[0], w[0] * w[2], w[1]];
    let v = &a[1..][1..][..2];
    v[0] * v[1] + v.len() as f64 * a[4]
}

fn local_twin(w: &[Dual64]) -> Dual64 {
    let a = [w[0] * w[1], w[1].exp(), w[2] - w[0], w[0] * w[2], w[1]];
    a[2] * a[3] + a[4] * 2.0
}

/// `&w[from..][..n]`, past `w`'s end where `from + n > w.len()`.
#[differentiable]
fn window(w: &[f64], from: usize, n: usize) -> f64 {
    let v = &w[from..][..n];
    let mut s = 0.0;
    for i in 0..n {
        s += v[i] * v[i];
    }
    s
}

const W: [f64; 9] = [0.7, -1.3, 0.4, 2.2, -0.6, 1.1, 0.9, -0.2, 1.6];

#[test]
fn blocks_against_differences_and_dual_numbers() {
    for d in [1, 2, 3, 4, 9] {
        let mut d_w = [0.0; 9];
        let value = blocks_grad(&W, &mut d_w, d);
        check!(
            &format!("blocks d = {d}"),
            &W,
            (value, &d_w[..]),
            against = [central(|w| blocks(w, d)), dual(|w| blocks_twin(w, d)),]
        );
        // The tangent along a direction, against num-dual's.
        let v = [1.0, -0.5, 0.25, 2.0, -1.0, 0.5, 0.75, 0.1, -0.3];
        let (value, tangent) = blocks_jvp(&W, &v, d);
        assert_eq!(value.to_bits(), blocks(&W, d).to_bits());
        let seeded: Vec<Dual64> = W.iter().zip(&v).map(|(&w, &v)| Dual64::new(w, v)).collect();
        let reference = blocks_twin(&seeded, d).eps;
        assert!(
            (tangent - reference).abs() <= 1e-12 * reference.abs().max(1.0),
            "blocks_jvp d = {d}: {tangent} against num-dual's {reference}"
        );
    }
}

#[test]
fn local_array_chained_three_times() {
    for point in [[0.3, -0.7, 1.2], [-1.1, 0.4, 0.0]] {
        let mut d_w = [0.0; 3];
        let value = local_grad(&point, &mut d_w);
        check!(
            "local",
            &point,
            (value, &d_w[..]),
            against = [central(local), dual(local_twin),]
        );
    }
}

#[test]
fn window_inside_and_past_the_end() {
    for (from, n) in [(0, 9), (2, 3), (9, 0), (4, 5)] {
        let mut d_w = [0.0; 9];
        let value = window_grad(&W, &mut d_w, from, n);
        check!(
            &format!("window {from} {n}"),
            &W,
            (value, &d_w[..]),
            against = [central(|w| window(w, from, n)),]
        );
    }
    for (from, n) in [(5, 5), (10, 0)] {
        assert!(std::panic::catch_unwind(|| window(&W, from, n)).is_err());
        let grad = std::panic::catch_unwind(|| window_grad(&W, &mut [0.0; 9], from, n));
        assert!(
            grad.is_err(),
            "window_grad({from}, {n}) did not panic where f does"
        );
    }
}
