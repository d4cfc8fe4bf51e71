//! `f_jacobian`'s sweeps fitted to the columns (`WIDTHS`: 8 while 8 or more are left, then
//! the narrowest of 4, 2, 1 that holds the rest): every column count from 0 to 27, so every
//! remainder of 8 and every narrower sweep, with 1, 2, 3 and more chunks, against central
//! differences of `f` and num-dual's `Dual64` on a twin; the outputs as `f` writes them, an
//! accumulated `&mut f64` among them (restored before each sweep, whatever its width).

#![allow(clippy::needless_range_loop)]

use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

type D = Dual64;

/// `x.len() + 1` columns (x's entries, then `a`), `out.len() + 1` outputs, each output
/// reading every column, so a lane that is dropped or swapped shows.
#[differentiable(jacobian)]
fn blend(x: &[f64], a: f64, out: &mut [f64], err: &mut f64) {
    let mut s = 0.0;
    for j in 0..x.len() {
        s += (x[j] * (j as f64 + 1.0)).sin();
    }
    for i in 0..out.len() {
        let t = i as f64 + 0.5;
        out[i] = (s * t + a).tanh() + a * a * t;
        for j in 0..x.len() {
            out[i] += x[j] * x[(j + i) % x.len()] * t;
        }
        *err += out[i] * a;
    }
}

fn blend_twin(p: &[D], m: usize, e0: f64) -> Vec<D> {
    let n = p.len() - 1;
    let (x, a) = (&p[..n], p[n]);
    let mut s = D::from(0.0);
    for j in 0..n {
        s += (x[j] * (j as f64 + 1.0)).sin();
    }
    let mut out = Vec::new();
    let mut err = D::from(e0);
    for i in 0..m {
        let t = i as f64 + 0.5;
        let mut o = (s * t + a).tanh() + a * a * t;
        for j in 0..n {
            o += x[j] * x[(j + i) % n] * t;
        }
        err += o * a;
        out.push(o);
    }
    out.push(err);
    out
}

/// `blend_jacobian` at `n + 1` columns and `m + 1` outputs against central differences and
/// duals, the outputs as `blend` writes them.
fn check(n: usize, m: usize) {
    let x: Vec<f64> = (0..n).map(|j| 0.37 * j as f64 - 0.9).collect();
    let (a, e0) = (0.7, 0.25);
    let rows = m + 1;
    let (mut out, mut err) = (vec![2.0; m], e0);
    let (mut d_x, mut d_a) = (vec![0.0; rows * n], vec![0.0; rows]);
    blend_jacobian(&x, &mut d_x, a, &mut d_a, &mut out, &mut err);
    let (mut f_out, mut f_err) = (vec![2.0; m], e0);
    blend(&x, a, &mut f_out, &mut f_err);
    assert_eq!((&out, err), (&f_out, f_err), "n = {n}: the outputs");
    let got: Vec<Vec<f64>> = (0..rows)
        .map(|i| {
            (d_x[i * n..(i + 1) * n].iter().copied())
                .chain([d_a[i]])
                .collect()
        })
        .collect();
    let point: Vec<f64> = x.iter().copied().chain([a]).collect();
    let want = dual(|p| blend_twin(p, m, e0), &point);
    let central = central(
        |p| {
            let (mut out, mut err) = (vec![2.0; m], e0);
            blend(&p[..n], p[n], &mut out, &mut err);
            out.push(err);
            out
        },
        &point,
    );
    for (i, (g, (w, c))) in got.iter().zip(want.iter().zip(&central)).enumerate() {
        assert_eq!(g.len(), n + 1, "n = {n}: row {i}'s columns");
        for (j, (g, (w, c))) in g.iter().zip(w.iter().zip(c)).enumerate() {
            assert!(
                (g - w).abs() <= 1e-12 * (1.0 + w.abs()),
                "n = {n}: ({i}, {j}) {g} != {w}"
            );
            assert!(
                (g - c).abs() <= 1e-5 * (1.0 + c.abs()),
                "n = {n}: ({i}, {j}) {g} != {c}"
            );
        }
    }
}

/// The Jacobian of `twin` at `point` by one `Dual64` run per column: `rows[i][j]`.
fn dual(twin: impl Fn(&[Dual64]) -> Vec<Dual64>, point: &[f64]) -> Vec<Vec<f64>> {
    let m = twin(&point.iter().map(|&p| D::from_re(p)).collect::<Vec<_>>()).len();
    let mut rows = vec![vec![0.0; point.len()]; m];
    for j in 0..point.len() {
        let x: Vec<D> = (point.iter().enumerate())
            .map(|(k, &p)| D::new(p, if k == j { 1.0 } else { 0.0 }))
            .collect();
        for (i, y) in twin(&x).iter().enumerate() {
            rows[i][j] = y.eps;
        }
    }
    rows
}

/// The central-difference Jacobian of `eval` at `point`: `rows[i][j]`.
fn central(eval: impl Fn(&[f64]) -> Vec<f64>, point: &[f64]) -> Vec<Vec<f64>> {
    let h = 1e-6;
    let m = eval(point).len();
    let mut rows = vec![vec![0.0; point.len()]; m];
    for j in 0..point.len() {
        let (mut plus, mut minus) = (point.to_vec(), point.to_vec());
        plus[j] += h;
        minus[j] -= h;
        let (p, q) = (eval(&plus), eval(&minus));
        for i in 0..m {
            rows[i][j] = (p[i] - q[i]) / (2.0 * h);
        }
    }
    rows
}

#[test]
fn every_column_count_from_1_to_27() {
    // n + 1 columns: 1 (one lane), 2, 3 (a sweep of 4, one idle), 4, 5..7 (a sweep of 8),
    // 8 (one whole chunk), 9..16 (a chunk and each narrower sweep), 26 (ht's: 8, 8, 8, 2),
    // 27 (8, 8, 8, 4 with one idle).
    for n in 0..27 {
        check(n, 3);
    }
}

#[test]
fn no_output_rows_and_many() {
    check(5, 0);
    check(12, 20);
}

/// No differentiated column: one call along no direction writes the outputs.
#[differentiable(jacobian, wrt(x, out))]
fn scaled(x: &[f64], s: f64, out: &mut [f64]) {
    let mut t = 0.0;
    for j in 0..x.len() {
        t += x[j] * x[j];
    }
    for i in 0..out.len() {
        out[i] = s * i as f64 + t;
    }
}

#[test]
fn zero_columns_write_the_outputs() {
    let mut out = vec![9.0; 3];
    let mut d_x: Vec<f64> = Vec::new();
    scaled_jacobian(&[], &mut d_x, 2.0, &mut out);
    assert_eq!(out, [0.0, 2.0, 4.0]);
}
