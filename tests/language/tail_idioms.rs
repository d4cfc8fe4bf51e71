//! The long tail of issue 25, as numeric code writes it: integer compound assignments
//! (`m |= k`, `<<=`, `^=`, `&=`, `>>=`) and `.step_by(k)` anywhere in an iterator chain or a
//! `for` head; slice patterns with a rest, `[first, .., last]` and `[a, rest @ ..]`; `break 'label value`
//! out of nested loops; arrays of integers (`let idx = [4, 7, 3];`, read by a run-time index,
//! iterated, measured); outside constants typed by use in `match` arms and by `as f64`. Against central differences, `f_hvp` against central differences of `f_grad`,
//! the value bit for bit `f`'s, with 0, 1 and many elements.

use crate::common;

use common::{assert_near, check_slice};
use micrograd_runtime::prelude::*;

/// A hash-like integer state picks the weights: `|=`, `<<=`, `^=`, `&=`, `>>=` in a loop, so
/// the state is carried from one iteration to the next.
#[differentiable(hvp)]
fn mixed(w: &[f64], seed: usize) -> f64 {
    let mut m = seed;
    let mut s = 0.0;
    for k in 0..w.len() {
        m |= k;
        m <<= 1;
        m ^= 5;
        m &= 63;
        let j = m % w.len();
        m >>= 1;
        s += w[j] * w[k] * (m as f64 + 1.0);
    }
    s
}

/// Every other entry, and every third after the first (with their indices), in reductions.
#[differentiable(hvp)]
fn strided(x: &[f64]) -> f64 {
    x.iter().step_by(2).map(|v| v * v).sum::<f64>()
        + x.iter()
            .enumerate()
            .skip(1)
            .step_by(3)
            .map(|(i, v)| v * i as f64)
            .sum::<f64>()
        + (0..x.len())
            .step_by(2)
            .map(|i| x[i].sin())
            .fold(1.0, |acc, t| acc * t)
}

/// `step_by` in `for` heads: a run-time step after `enumerate`, and after `rev`.
#[differentiable(hvp)]
fn strided_for(x: &[f64], k: usize) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate().step_by(k) {
        s += v * v * (i + 1) as f64;
    }
    for &v in x.iter().rev().step_by(2) {
        s += v.sin() * s.cos();
    }
    s
}

/// The same stride written by hand, for the value: `rev().step_by(2)` visits the last, then
/// every second entry before it.
fn strided_for_by_hand(x: &[f64], k: usize) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < x.len() {
        s += x[i] * x[i] * (i + 1) as f64;
        i += k;
    }
    let mut j = x.len();
    while j > 0 {
        s += x[j - 1].sin() * s.cos();
        j = j.saturating_sub(2);
    }
    s
}

/// Slice patterns with a rest, of an array by value and through a reference.
#[differentiable(hvp)]
fn ends(x: [f64; 4], w: &[f64; 3]) -> f64 {
    let [first, .., last] = x;
    let [a, rest @ ..] = x;
    let [.., y, z] = x;
    let [p, mid @ .., q] = *w;
    let mut s = first * last + a * rest[0] + rest[2] * rest.len() as f64 + y / z + p * q;
    for m in mid.iter() {
        s += m * m * first;
    }
    s
}

/// `break 'outer value` from one and from two loops deep, beside a plain `break value`.
#[differentiable(hvp)]
fn search(x: f64, w: &[f64]) -> f64 {
    let mut y = x;
    let v = 'outer: loop {
        for &a in w {
            y = y * 1.5 + a;
            if y > 10.0 {
                break 'outer y * x;
            }
            let mut k = 0;
            while k < 2 {
                y += 0.25 * a;
                if y < -10.0 {
                    break 'outer y.sin();
                }
                k += 1;
            }
        }
        if y.abs() > 5.0 {
            break y * 2.0;
        }
        y += 1.0;
    };
    v + y
}

const N: usize = 4;
const MAX: usize = 3;
const K: f64 = 3.0;
static SCALE: f64 = 0.5;

/// Arrays of integers pick the entries: indexed by a loop variable and by a literal, iterated
/// by `for` and by a reduction, measured, built of variables, written inline.
#[differentiable(hvp)]
fn picked(w: &[f64], n: usize) -> f64 {
    let idx = [2, 0, 1];
    let ends = [0, n - 1];
    let mut s = w[idx[1]] * w[ends[1]];
    for i in 0..idx.len() {
        s += w[idx[i]] * (i + 1) as f64;
    }
    for k in idx {
        s += w[k].sin() * [3, 1, 2][k] as f64;
    }
    s + idx.iter().map(|&k| w[k] * w[k]).sum::<f64>() + w[ends[0]]
}

/// Outside names decided by their uses: a `match` of integer constants used as a count and as
/// `m as f64`, a `match` of float constants used as a factor.
#[differentiable(hvp)]
fn by_use(x: f64, k: usize) -> f64 {
    let m = match k {
        0 => N,
        1 => MAX,
        _ => 2,
    };
    let c = match k {
        0 => K,
        _ => SCALE,
    };
    let count = match k {
        0 => MAX,
        _ => N,
    };
    let mut s = c * x * m as f64;
    for _ in 0..count {
        s += x * x;
    }
    s
}

fn points() -> Vec<Vec<f64>> {
    (0..8)
        .map(|n| {
            (0..n)
                .map(|i| 0.3 + 0.7 * i as f64 - 0.1 * (i * i) as f64)
                .collect()
        })
        .collect()
}

/// `f_hvp(w, v)`'s H v against central differences of `f_grad` along `v`.
fn check_hvp(
    name: &str,
    grad: impl Fn(&[f64], &mut [f64]) -> f64,
    hvp: impl Fn(&[f64], &[f64], &mut [f64]) -> f64,
    w: &[f64],
) {
    let v: Vec<f64> = (0..w.len()).map(|i| 1.0 - 0.4 * i as f64).collect();
    let mut hv = vec![0.0; w.len()];
    hvp(w, &v, &mut hv);
    let h = 1e-6;
    let at = |t: f64| {
        let moved: Vec<f64> = w.iter().zip(&v).map(|(a, b)| a + t * b).collect();
        let mut d = vec![0.0; w.len()];
        grad(&moved, &mut d);
        d
    };
    let (hi, lo) = (at(h), at(-h));
    for i in 0..w.len() {
        let numeric = (hi[i] - lo[i]) / (2.0 * h);
        assert_near(&format!("{name} (H v)[{i}] at {w:?}"), hv[i], numeric, 1e-5);
    }
}

#[test]
fn integer_compound_assignments_carry_the_state() {
    for w in points() {
        for seed in [0, 3, 17] {
            check_slice(
                "mixed",
                |w| mixed(w, seed),
                |w, d| mixed_grad(w, d, seed),
                &w,
            );
            check_hvp(
                "mixed",
                |w, d| mixed_grad(w, d, seed),
                |w, v, hv| mixed_hvp(w, v, hv, seed),
                &w,
            );
        }
    }
}

#[test]
fn step_by_in_reductions() {
    for w in points() {
        check_slice("strided", strided, strided_grad, &w);
        check_hvp("strided", strided_grad, strided_hvp, &w);
    }
}

#[test]
fn step_by_in_for_heads() {
    for w in points() {
        for k in [1, 2, 3, 10] {
            assert_eq!(
                strided_for(&w, k).to_bits(),
                strided_for_by_hand(&w, k).to_bits(),
                "k = {k}, w = {w:?}"
            );
            check_slice(
                "strided_for",
                |w| strided_for(w, k),
                |w, d| strided_for_grad(w, d, k),
                &w,
            );
            check_hvp(
                "strided_for",
                |w, d| strided_for_grad(w, d, k),
                |w, v, hv| strided_for_hvp(w, v, hv, k),
                &w,
            );
        }
    }
}

#[test]
fn slice_patterns_with_a_rest() {
    for point in [
        [0.5, 1.5, -2.0, 3.0, 0.25, -1.0, 2.0],
        [-1.5, 0.1, 4.0, -0.5, 1.0, 2.0, -3.0],
    ] {
        let x = [point[0], point[1], point[2], point[3]];
        let w = [point[4], point[5], point[6]];
        let mut d_w = [0.0; 3];
        let (value, d_x) = ends_grad(x, &w, &mut d_w);
        assert_eq!(value.to_bits(), ends(x, &w).to_bits());
        let gradient: Vec<f64> = d_x.iter().chain(&d_w).copied().collect();
        let f = |q: &[f64]| ends([q[0], q[1], q[2], q[3]], &[q[4], q[5], q[6]]);
        common::assert_gradient("ends", f, &point, &gradient);
    }
}

#[test]
fn break_with_a_value_to_a_label() {
    for w in [vec![0.5], vec![1.0, -2.0], vec![-3.0, -1.0, 0.5]] {
        for x in [0.5, 2.0, 3.0, 4.5, -4.0, 8.0, 20.0] {
            let n = w.len();
            let mut d_w = vec![0.0; n];
            let (value, d_x) = search_grad(x, &w, &mut d_w);
            assert_eq!(value.to_bits(), search(x, &w).to_bits());
            let mut point = w.clone();
            point.push(x);
            let mut gradient = d_w.clone();
            gradient.push(d_x);
            common::assert_gradient("search", |q| search(q[n], &q[..n]), &point, &gradient);
        }
    }
}

#[test]
fn arrays_of_integers() {
    for w in [vec![0.5, -1.0, 2.0], vec![1.5, 0.25, -0.75, 3.0]] {
        let n = w.len();
        check_slice("picked", |w| picked(w, n), |w, d| picked_grad(w, d, n), &w);
        check_hvp(
            "picked",
            |w, d| picked_grad(w, d, n),
            |w, v, hv| picked_hvp(w, v, hv, n),
            &w,
        );
    }
}

#[test]
fn outside_constants_typed_by_use_in_match_arms() {
    for k in [0, 1, 2] {
        for x in [-1.5, 0.5, 2.0] {
            let (value, d_x) = by_use_grad(x, k);
            assert_eq!(value.to_bits(), by_use(x, k).to_bits());
            common::assert_gradient("by_use", |p| by_use(p[0], k), &[x], &[d_x]);
        }
    }
}
