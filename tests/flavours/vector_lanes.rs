//! `f_jacobian` of functions writing their outputs, by the vector forward mode (one sweep per
//! 8 columns, `__f_jvp_lanes`): every shape it takes (`f64`s, `&[f64; N]`, `&Vec<f64>`,
//! slices, a `&mut f64` and `&mut [f64]` written, loops, branches, local arrays, a helper's
//! call), with column counts below, at and past a chunk (2, 8, 9, 19), against central
//! differences of `f` itself and num-dual's `Dual64` on twins; the outputs written as
//! `f` writes them; and a function lending an array to a helper, which keeps one `f_jvp` call
//! per column.

#![allow(clippy::needless_range_loop, clippy::ptr_arg)]

use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

type D = Dual64;

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

/// The Jacobian of `twin` at `point` by one `Dual64` run per column: `rows[i][j]`.
fn dual(twin: impl Fn(&[Dual64]) -> Vec<Dual64>, point: &[f64]) -> Vec<Vec<f64>> {
    let m = twin(
        &point
            .iter()
            .map(|&p| Dual64::from_re(p))
            .collect::<Vec<_>>(),
    )
    .len();
    let mut rows = vec![vec![0.0; point.len()]; m];
    for j in 0..point.len() {
        let x: Vec<Dual64> = (point.iter().enumerate())
            .map(|(k, &p)| Dual64::new(p, if k == j { 1.0 } else { 0.0 }))
            .collect();
        for (i, y) in twin(&x).iter().enumerate() {
            rows[i][j] = y.eps;
        }
    }
    rows
}

/// `got` (the blocks laid out as `rows[i][j]`) against `want`, entry by entry.
fn assert_rows(name: &str, got: &[Vec<f64>], want: &[Vec<f64>], tol: f64) {
    assert_eq!(got.len(), want.len(), "{name}: rows");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        for (j, (g, w)) in g.iter().zip(w).enumerate() {
            let close = (g - w).abs() <= tol * (1.0 + w.abs());
            assert!(close, "{name}: entry ({i}, {j}): {g} != {w}");
        }
    }
}

/// Rows `i` of the Jacobian from blocks laid out `m × width` each, side by side.
fn gather(m: usize, blocks: &[(&[f64], usize)]) -> Vec<Vec<f64>> {
    (0..m)
        .map(|i| {
            (blocks.iter())
                .flat_map(|(block, width)| block[i * width..(i + 1) * width].to_vec())
                .collect()
        })
        .collect()
}

/// Two `f64`s (2 columns, one partial chunk) into a slice.
#[differentiable(jacobian)]
fn poly(a: f64, b: f64, out: &mut [f64]) {
    for i in 0..out.len() {
        let t = i as f64;
        out[i] = a * t * t + b.sin() * t + a * b;
    }
}

fn poly_twin(p: &[D], m: usize) -> Vec<D> {
    (0..m)
        .map(|i| {
            let t = i as f64;
            p[0] * t * t + p[1].sin() * t + p[0] * p[1]
        })
        .collect()
}

#[test]
fn two_scalars_into_a_slice() {
    let (a, b, m) = (0.6, -1.3, 5);
    let mut out = vec![7.0; m];
    let (mut d_a, mut d_b) = (vec![0.0; m], vec![0.0; m]);
    poly_jacobian(a, &mut d_a, b, &mut d_b, &mut out);
    let mut f_out = vec![7.0; m];
    poly(a, b, &mut f_out);
    assert_eq!(out, f_out);
    let got = gather(m, &[(&d_a, 1), (&d_b, 1)]);
    let eval = |p: &[f64]| {
        let mut out = vec![0.0; m];
        poly(p[0], p[1], &mut out);
        out
    };
    assert_rows("poly central", &got, &central(eval, &[a, b]), 1e-6);
    assert_rows(
        "poly dual",
        &got,
        &dual(|p| poly_twin(p, m), &[a, b]),
        1e-12,
    );
}

/// A fixed array, a `&Vec`, a slice and an `f64` (3 + n + k + 1 columns), a loop with a
/// branch and a local array written and read back, into a slice and a `&mut f64` that
/// accumulates onto its value on entry.
#[differentiable(jacobian)]
fn mixed(x: &[f64; 3], w: &Vec<f64>, y: &[f64], a: f64, out: &mut [f64], err: &mut f64) {
    let mut h = [0.0; 4];
    for k in 0..4 {
        h[k] = x[k % 3] * a + w[k % w.len()];
    }
    for i in 0..out.len() {
        let yi = y[i % y.len()];
        if yi > 0.0 {
            out[i] = h[i % 4] * yi.exp() - x[0] * x[1];
        } else {
            out[i] = (h[(i + 1) % 4] * a).tanh() + yi * yi * x[2];
        }
        *err += out[i] * out[i];
    }
}

fn mixed_twin(p: &[D], (n, k, m): (usize, usize, usize), e0: f64) -> Vec<D> {
    let (x, w, y, a) = (&p[0..3], &p[3..3 + n], &p[3 + n..3 + n + k], p[3 + n + k]);
    let h: Vec<D> = (0..4).map(|j| x[j % 3] * a + w[j % n]).collect();
    let mut out = Vec::new();
    let mut err = D::from(e0);
    for i in 0..m {
        let yi = y[i % k];
        let o = if yi.re > 0.0 {
            h[i % 4] * yi.exp() - x[0] * x[1]
        } else {
            (h[(i + 1) % 4] * a).tanh() + yi * yi * x[2]
        };
        err += o * o;
        out.push(o);
    }
    out.push(err);
    out
}

/// `mixed_jacobian` at sizes giving `3 + n + k + 1` columns, against central differences and
/// duals, the outputs as `mixed` writes them.
fn check_mixed(n: usize, k: usize, m: usize) {
    let x = [0.4, -0.7, 1.1];
    let w: Vec<f64> = (0..n).map(|j| 0.3 * j as f64 - 0.5).collect();
    let y: Vec<f64> = (0..k)
        .map(|j| {
            if j % 2 == 0 {
                0.2 + 0.1 * j as f64
            } else {
                -0.4
            }
        })
        .collect();
    let a = 0.9;
    let e0 = 0.125;
    let rows = m + 1;
    let (mut out, mut err) = (vec![3.0; m], e0);
    let (mut d_x, mut d_w, mut d_y, mut d_a) = (
        vec![0.0; rows * 3],
        vec![0.0; rows * n],
        vec![0.0; rows * k],
        vec![0.0; rows],
    );
    mixed_jacobian(
        &x, &mut d_x, &w, &mut d_w, &y, &mut d_y, a, &mut d_a, &mut out, &mut err,
    );
    let (mut f_out, mut f_err) = (vec![3.0; m], e0);
    mixed(&x, &w, &y, a, &mut f_out, &mut f_err);
    assert_eq!(
        (&out, err),
        (&f_out, f_err),
        "the outputs as `mixed` writes them"
    );
    let got = gather(rows, &[(&d_x, 3), (&d_w, n), (&d_y, k), (&d_a, 1)]);
    let point: Vec<f64> = (x.iter().chain(&w).chain(&y).copied()).chain([a]).collect();
    let eval = |p: &[f64]| {
        let x: [f64; 3] = p[0..3].try_into().unwrap();
        let w = p[3..3 + n].to_vec();
        let (mut out, mut err) = (vec![3.0; m], e0);
        mixed(
            &x,
            &w,
            &p[3 + n..3 + n + k],
            p[3 + n + k],
            &mut out,
            &mut err,
        );
        out.push(err);
        out
    };
    let name = format!("mixed n = {n}, k = {k}, m = {m}");
    assert_rows(&name, &got, &central(eval, &point), 1e-5);
    let twin = |p: &[Dual64]| mixed_twin(p, (n, k, m), e0);
    assert_rows(&name, &got, &dual(twin, &point), 1e-12);
}

#[test]
fn every_kind_at_a_chunk_below_and_past_it() {
    // 8 columns (one whole chunk), 9 (a chunk and one), 19 (two and three), and many rows.
    check_mixed(2, 2, 6);
    check_mixed(3, 2, 4);
    check_mixed(7, 8, 13);
}

/// A helper with `jvp`, called per entry (its tangent call follows the primal one in each
/// lane), and a `while` loop.
#[differentiable(jvp)]
fn bump(t: f64, s: f64) -> f64 {
    (t * s).sin() + t * t
}

#[differentiable(jacobian)]
fn calls(x: &[f64], s: f64, out: &mut [f64]) {
    let mut i = 0;
    while i < out.len() {
        out[i] = bump(x[i % x.len()], s) * x[(i + 1) % x.len()];
        i += 1;
    }
}

fn calls_twin(p: &[D], n: usize, m: usize) -> Vec<D> {
    let (x, s) = (&p[..n], p[n]);
    let bump = |t: D| (t * s).sin() + t * t;
    (0..m).map(|i| bump(x[i % n]) * x[(i + 1) % n]).collect()
}

#[test]
fn a_helper_called_per_entry() {
    let x = [0.3, -0.8, 1.2, 0.5, -0.1, 0.9, 1.4, -1.1, 0.05, 0.7];
    let (n, s, m) = (x.len(), 1.3, 12);
    let mut out = vec![0.0; m];
    let (mut d_x, mut d_s) = (vec![0.0; m * n], vec![0.0; m]);
    calls_jacobian(&x, &mut d_x, s, &mut d_s, &mut out);
    let got = gather(m, &[(&d_x, n), (&d_s, 1)]);
    let point: Vec<f64> = x.iter().copied().chain([s]).collect();
    let eval = |p: &[f64]| {
        let mut out = vec![0.0; m];
        calls(&p[..n], p[n], &mut out);
        out
    };
    assert_rows("calls central", &got, &central(eval, &point), 1e-6);
    assert_rows(
        "calls dual",
        &got,
        &dual(|p| calls_twin(p, n, m), &point),
        1e-12,
    );
}

/// A helper writing into an array it is lent: the lanes would replace the call, so
/// `f_jacobian` keeps one `f_jvp` call per column; the same numbers either way.
#[differentiable(jvp)]
fn fill(h: &mut [f64], t: f64) {
    for k in 0..h.len() {
        h[k] = t * (k as f64 + 1.0);
    }
}

#[differentiable(jacobian)]
fn lends(x: &[f64], out: &mut [f64]) {
    let mut h = [0.0; 3];
    for i in 0..out.len() {
        fill(&mut h, x[i % x.len()]);
        out[i] = h[0] * h[2] + h[1];
    }
}

#[test]
fn a_lent_array_keeps_the_columns_calls() {
    let x: Vec<f64> = (0..10).map(|j| 0.1 * j as f64 - 0.3).collect();
    let (n, m) = (x.len(), 11);
    let mut out = vec![0.0; m];
    let mut d_x = vec![0.0; m * n];
    lends_jacobian(&x, &mut d_x, &mut out);
    let got = gather(m, &[(&d_x, n)]);
    let eval = |p: &[f64]| {
        let mut out = vec![0.0; m];
        lends(p, &mut out);
        out
    };
    assert_rows("lends central", &got, &central(eval, &x), 1e-6);
}
