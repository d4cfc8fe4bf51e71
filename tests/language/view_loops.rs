//! Entries of a view the function took (`let row = &w[a..b];` read at `row[j]` in a loop over
//! `j`), which the generated code takes through a sub-slice of the view once per loop
//! (`emit/views.rs`, `Offset::Checked`): rows of a matrix, a row of a row, a loop from 1 and a
//! loop of length 0, the shadow added into at the same entries; against central differences of
//! `f`, values bit for bit. A loop reading past the view's end where the base goes on panics in
//! every flavour, as `f` does.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;

/// Σᵣ (Σⱼ₌₁ rowᵣ[j] x[j - 1])² + Σᵣ Σⱼ<ᵣ tailᵣ[j] rowᵣ[0], over the rows of `w` (`d` wide), where
/// `tailᵣ` is `rowᵣ[1..]` cut to its first r entries (of length 0 in row 0).
#[differentiable(jvp, hvp)]
fn rows(w: &[f64], x: &[f64], d: usize) -> f64 {
    let mut s = 0.0;
    for r in 0..w.len() / d {
        let row = &w[r * d..(r + 1) * d];
        let mut y = 0.0;
        for j in 1..d {
            y += row[j] * x[j - 1];
        }
        s += y * y;
        let tail = &row[1..];
        let start = (r * r - r) / 2 % (d - 1);
        let cut = &tail[start..start + r.min(d - 1 - start)];
        for j in 0..cut.len() {
            s += cut[j] * row[0];
        }
    }
    s
}

/// Σⱼ<n row[j]² of the view `row = &w[from..from + 2]`: reads past the view's end when n > 2.
#[differentiable(jvp, hvp)]
fn past_the_view(w: &[f64], from: usize, n: usize) -> f64 {
    let row = &w[from..from + 2];
    let mut s = 0.0;
    for j in 0..n {
        s += row[j] * row[j];
    }
    s
}

const W: [f64; 12] = [
    0.7, -1.3, 0.4, 2.2, -0.6, 1.1, 0.9, -0.2, 1.6, 0.3, -0.8, 0.5,
];
const X: [f64; 4] = [0.2, 0.5, -0.8, 1.7];

#[test]
fn rows_of_views_against_differences() {
    for d in [2, 3, 4, 5] {
        let x = &X[..d - 1];
        let mut d_w = [0.0; 12];
        let mut d_x = vec![0.0; d - 1];
        let value = rows_grad(&W, &mut d_w, x, &mut d_x, d);
        assert_same_value("rows", value, rows(&W, x, d), &W);
        assert_gradient("rows", |w| rows(w, x, d), &W, &d_w);
        assert_gradient("rows in x", |x| rows(&W, x, d), x, &d_x);
        let v: Vec<f64> = (0..12).map(|i| 0.3 * i as f64 - 1.0).collect();
        let (value, tangent) = rows_jvp(&W, &v, x, &vec![0.0; d - 1], d);
        assert_eq!(value.to_bits(), rows(&W, x, d).to_bits());
        let h = 1e-6;
        let at = |t: f64| {
            let w: Vec<f64> = W.iter().zip(&v).map(|(w, v)| w + t * v).collect();
            rows(&w, x, d)
        };
        assert_near("rows_jvp", tangent, (at(h) - at(-h)) / (2.0 * h), 1e-6);
    }
}

#[test]
fn in_the_view_against_differences() {
    for (from, n) in [(0, 2), (3, 1), (10, 0), (5, 2)] {
        let mut d_w = [0.0; 12];
        let value = past_the_view_grad(&W, &mut d_w, from, n);
        assert_eq!(value.to_bits(), past_the_view(&W, from, n).to_bits());
        assert_gradient("past_the_view", |w| past_the_view(w, from, n), &W, &d_w);
    }
}

#[test]
#[should_panic(expected = "index out of bounds: the len is 2 but the index is 2")]
fn f_panics_past_the_view() {
    past_the_view(&W, 3, 3);
}

#[test]
#[should_panic]
fn and_so_does_its_gradient() {
    let mut d_w = [0.0; 12];
    past_the_view_grad(&W, &mut d_w, 3, 3);
}

#[test]
#[should_panic]
fn and_its_pullback() {
    let mut d_w = [0.0; 12];
    past_the_view_pullback(&W, &mut d_w, 3, 3, 1.0);
}

#[test]
#[should_panic]
fn and_its_jvp() {
    past_the_view_jvp(&W, &[1.0; 12], 3, 3);
}

#[test]
#[should_panic]
fn and_its_hvp() {
    let mut d_w = [0.0; 12];
    past_the_view_hvp(&W, &[1.0; 12], &mut d_w, 3, 3);
}
