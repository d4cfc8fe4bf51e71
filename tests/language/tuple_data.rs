//! Tuples inside slices and arrays as data (issue 24): samples passed as
//! `&[([f64; 2], f64)]` or `&[(f64, f64); 3]`, read as `f` reads them (destructured in a `for`,
//! `samples[i].0[1]`, `let (x, y) = samples[i];`), never differentiated. Against central
//! differences, the value bit for bit `f`'s, with 0, 1 and many samples.

use crate::common;

use common::{assert_gradient, assert_same_value};
use micrograd_runtime::prelude::*;

/// A least-squares fit of `w · (x, 1)` to labelled samples, with a hinge on the label's sign.
#[differentiable]
fn fit(w: &[f64], samples: &[([f64; 2], f64)]) -> f64 {
    let mut loss = 0.0;
    for (x, y) in samples {
        let p = w[0] * x[0] + w[1] * x[1] + w[2];
        let r = p - y;
        loss += if *y > 0.0 { r * r } else { 0.5 * r.abs() };
    }
    for i in 0..samples.len() {
        let (x, y) = samples[i];
        loss += 0.1 * w[0] * samples[i].0[1] * x[0] - 0.01 * y * w[1];
    }
    loss
}

/// Three fixed points by value in an array of tuples.
#[differentiable]
fn spread(a: f64, pts: &[(f64, f64); 3]) -> f64 {
    let mut s = 0.0;
    for &(u, v) in pts {
        s += (a * u - v).powi(2);
    }
    s + pts[1].0 * a.sin()
}

#[test]
fn slices_of_tuples_with_arrays_are_data() {
    let all = [([0.5, -1.0], 1.5), ([1.2, 0.3], -0.5), ([-0.7, 0.9], 2.0)];
    let w = [0.4, -0.3, 0.2];
    for samples in [&all[..0], &all[..1], &all[..]] {
        let mut d_w = [0.0; 3];
        let value = fit_grad(&w, &mut d_w, samples);
        assert_same_value("fit_grad", value, fit(&w, samples), &w);
        assert_gradient("fit_grad", |p| fit(p, samples), &w, &d_w);
    }
}

#[test]
fn arrays_of_tuples_are_data() {
    let pts = [(0.5, 1.0), (-1.5, 0.25), (2.0, -0.75)];
    for a in [-0.8, 0.3, 1.7] {
        let (value, d_a) = spread_grad(a, &pts);
        assert_same_value("spread_grad", value, spread(a, &pts), &[a]);
        assert_gradient("spread_grad", |p| spread(p[0], &pts), &[a], &[d_a]);
    }
}
