//! A loop whose inner loops record nothing (a dot product whose terms are read again) records
//! its own values into a region of the tape, one chunk per iteration (`emit/loops/records.rs`,
//! `records_inside`), where it pushed and popped each value; a loop around it whose body runs a
//! recording loop still pushes. The gradients must be the chain rule's, against central
//! differences and num-dual twins, at every depth of the nesting.

use crate::common;

use common::oracle::check;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// ‖Q x‖ through a nonlinearity, Q lower triangular and row-major: each row a dot product over
/// the entries before the diagonal (an inner loop that records nothing), the row's value
/// recorded for `sin`.
#[differentiable]
fn rows(q: &[f64], x: &[f64], d: usize) -> f64 {
    let mut norm = 0.0;
    for row in 0..d {
        let mut y = q[row * d + row] * x[row];
        for col in 0..row {
            y += q[row * d + col] * x[col];
        }
        norm += y.sin() * y;
    }
    norm
}

fn rows_twin<D: DualNum<Primitive = f64> + Copy>(q: &[D], x: &[D], d: usize) -> D {
    let mut norm = D::zero();
    for row in 0..d {
        let mut y = q[row * d + row] * x[row];
        for col in 0..row {
            y += q[row * d + col] * x[col];
        }
        norm += y.sin() * y;
    }
    norm
}

/// Three levels: the outer loop records `s` and its body runs the middle loop, which records
/// into a region while its innermost loop records nothing.
#[differentiable(wrt(w))]
fn nested(w: &[f64], x: &[f64], n: usize) -> f64 {
    let mut acc = 0.0;
    for i in 0..n {
        let s = (w[i] * x[i]).sin();
        for r in 0..n {
            let mut y = s;
            for c in 0..r {
                y += w[c] * x[c];
            }
            acc += (y * acc).tanh() + y.cos();
        }
        acc *= s.exp();
    }
    acc
}

fn nested_twin<D: DualNum<Primitive = f64> + Copy>(w: &[D], x: &[f64], n: usize) -> D {
    let mut acc = D::zero();
    for i in 0..n {
        let s = (w[i] * x[i]).sin();
        for r in 0..n {
            let mut y = s;
            for c in 0..r {
                y += w[c] * x[c];
            }
            acc += (y * acc).tanh() + y.cos();
        }
        acc *= s.exp();
    }
    acc
}

#[test]
fn rows_recorded_around_a_dot_product() {
    let d = 4;
    let q: Vec<f64> = (0..d * d).map(|i| 0.3 - 0.07 * i as f64).collect();
    let x = [0.9, -0.4, 0.25, 1.1];
    let mut point = q.clone();
    point.extend(x);
    let mut d_q = vec![0.0; d * d];
    let mut d_x = [0.0; 4];
    let value = rows_grad(&q, &mut d_q, &x, &mut d_x, d);
    let mut gradient = d_q.clone();
    gradient.extend(d_x);
    let f = |p: &[f64]| rows(&p[..d * d], &p[d * d..], d);
    let twin = |p: &[Dual64]| rows_twin(&p[..d * d], &p[d * d..], d);
    check!(
        "rows",
        &point,
        (value, &gradient),
        against = [central(f), dual(twin)]
    );
}

#[test]
fn region_between_pushing_loops() {
    for n in [1, 3, 5] {
        let w: Vec<f64> = (0..n).map(|i| 0.2 + 0.15 * i as f64).collect();
        let x: Vec<f64> = (0..n).map(|i| 0.5 - 0.1 * i as f64).collect();
        let mut d_w = vec![0.0; n];
        let value = nested_grad(&w, &mut d_w, &x, n);
        let f = |p: &[f64]| nested(p, &x, n);
        let twin = |p: &[Dual64]| nested_twin(p, &x, n);
        check!(
            "nested",
            &w,
            (value, &d_w),
            against = [central(f), dual(twin)]
        );
    }
}
