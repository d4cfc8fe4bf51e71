//! `is_empty()` of a slice, of rows and of data, read as `len() == 0` (a condition on integers):
//! each function's gradient against central differences on both sides of the branch (empty and
//! not), the value bit for bit `f`'s. Before, `is_empty` was refused where `len()` was accepted.

use crate::common;

use common::{assert_gradient, assert_same_value, check_slice};
use micrograd_runtime::prelude::*;

/// A slice's emptiness chooses the formula.
#[differentiable]
fn first_or(w: &[f64]) -> f64 {
    if w.is_empty() {
        1.0
    } else {
        w[0] * w[w.len() - 1].sin()
    }
}

/// Rows that `wrt(..)` lists, tested for emptiness, beside an `f64`.
#[differentiable(wrt(a, x))]
fn rows_or(a: &[[f64; 2]], x: f64) -> f64 {
    let mut s = x * x;
    if !a.is_empty() {
        s += a[0][1] * x + a[a.len() - 1][0].exp();
    }
    s
}

/// Data (rows not in `wrt(..)`, integers) tested for emptiness in a condition with `&&`.
#[differentiable(wrt(x))]
fn data_or(x: f64, pts: &[[f64; 2]], labels: &[usize]) -> f64 {
    if pts.is_empty() || labels.is_empty() {
        x.tanh()
    } else {
        x * pts[0][0] + labels[0] as f64 * x.sin()
    }
}

#[test]
fn a_slice_is_empty_or_not() {
    for w in [vec![], vec![0.7], vec![0.3, -1.2, 2.0]] {
        check_slice("first_or", first_or, first_or_grad, &w);
    }
}

#[test]
fn rows_listed_in_wrt_are_empty_or_not() {
    let rows: [&[[f64; 2]]; 3] = [&[], &[[0.4, -0.9]], &[[0.4, -0.9], [1.1, 0.2], [-0.5, 0.8]]];
    for a in rows {
        let x = 0.6;
        let mut d_a = vec![[0.0; 2]; a.len()];
        let (value, d_x) = rows_or_grad(a, &mut d_a, x);
        let point: Vec<f64> = a.as_flattened().iter().copied().chain([x]).collect();
        assert_same_value("rows_or", value, rows_or(a, x), &point);
        let f = |p: &[f64]| {
            let (flat, x) = p.split_at(p.len() - 1);
            let (rows, _) = flat.as_chunks::<2>();
            rows_or(rows, x[0])
        };
        let gradient: Vec<f64> = d_a.as_flattened().iter().copied().chain([d_x]).collect();
        assert_gradient("rows_or", f, &point, &gradient);
    }
}

#[test]
fn data_is_empty_or_not() {
    let cases: [(&[[f64; 2]], &[usize]); 3] = [
        (&[], &[1]),
        (&[[0.5, 1.0]], &[]),
        (&[[0.5, 1.0], [2.0, 3.0]], &[2, 0]),
    ];
    for (pts, labels) in cases {
        for x in [-0.8, 1.3] {
            let (value, d_x) = data_or_grad(x, pts, labels);
            assert_same_value("data_or", value, data_or(x, pts, labels), &[x]);
            assert_gradient("data_or", |p| data_or(p[0], pts, labels), &[x], &[d_x]);
        }
    }
}
