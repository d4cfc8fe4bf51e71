//! `for` over the items of slices, arrays and views and over reversed and stepped ranges (issue 11),
//! each with 0, 1 and many iterations: the value bit for bit `f`'s, the gradient against
//! central differences, and once through a differentiable caller.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check_slice};
use micrograd_runtime::prelude::*;

#[differentiable]
fn over_slice(w: &[f64]) -> f64 {
    let mut s = 0.5;
    for x in w {
        if *x > 0.0 {
            s = s * x + 1.0;
        } else {
            s -= x * x;
        }
    }
    s
}

#[differentiable]
fn over_iter(w: &[f64]) -> f64 {
    let mut s = 1.0;
    for &x in w.iter() {
        s = s * 0.5 + x.sin();
    }
    for x in w.iter().copied() {
        s += x * s;
    }
    for x in w.iter() {
        if s > 100.0 {
            break;
        }
        s += x;
    }
    s
}

#[differentiable]
fn enumerated(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, x) in w.iter().enumerate() {
        s += x * x * (i as f64 + 1.0);
    }
    s
}

#[differentiable]
fn zipped(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (a, b) in w.iter().zip(x) {
        s += a * b;
    }
    for (a, &b) in w.iter().zip(x.iter()) {
        s = s * 0.5 + a * b;
    }
    s
}

#[differentiable]
fn enumerated_pairs(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, (a, b)) in w.iter().zip(w).enumerate() {
        if i % 2 == 0 {
            continue;
        }
        s += a * b;
    }
    s
}

#[differentiable]
fn local_array(x: f64) -> f64 {
    let a = [x, x * x, 2.0];
    let mut s = 0.0;
    for v in a.iter() {
        s = s * x + v;
    }
    s
}

#[differentiable]
fn reversed(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in (0..w.len()).rev() {
        s = s * 0.5 + w[i];
    }
    for i in (1..=w.len()).rev() {
        s *= w[i - 1];
    }
    s
}

#[differentiable]
fn over_view(w: &[f64]) -> f64 {
    let tail = &w[1..];
    let mut s = 0.25;
    for (a, b) in w.iter().zip(tail) {
        s += (a - b) * (a - b);
    }
    s
}

#[differentiable]
fn strided(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in (0..w.len()).step_by(2) {
        s = s * 0.5 + w[i] * w[i];
    }
    for i in (1..=w.len()).step_by(3) {
        s += w[i - 1].sin();
    }
    for i in (2..w.len()).step_by(1) {
        s -= w[i];
    }
    s
}

#[differentiable]
fn parts(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for c in w.chunks(2) {
        let mut p = 1.0;
        for x in c {
            p *= x;
        }
        s += p;
    }
    for c in w.chunks_exact(2) {
        s += c[0] * c[1].cos();
    }
    for (i, win) in w.windows(3).enumerate() {
        s += win[0] * win[2] * (i as f64 + 1.0) - win.len() as f64;
    }
    s
}

#[differentiable]
fn caller(w: &[f64]) -> f64 {
    over_slice(w) * 2.0 + enumerated(w)
}

fn caller_plain(w: &[f64]) -> f64 {
    over_slice(w) * 2.0 + enumerated(w)
}

const SIZES: [&[f64]; 3] = [&[], &[0.7], &[0.3, -1.2, 0.8, 2.1, -0.4]];

#[test]
fn slices_and_their_iterators() {
    for w in SIZES {
        check_slice("over_slice", over_slice, over_slice_grad, w);
        check_slice("over_iter", over_iter, over_iter_grad, w);
        check_slice("enumerated", enumerated, enumerated_grad, w);
        check_slice(
            "enumerated_pairs",
            enumerated_pairs,
            enumerated_pairs_grad,
            w,
        );
        check_slice("strided", strided, strided_grad, w);
        check_slice("parts", parts, parts_grad, w);
        check_slice("reversed", reversed, reversed_grad, w);
        check_slice("caller", caller_plain, caller_grad, w);
    }
}

#[test]
fn views() {
    // 0, 1 and 4 pairs (`&w[1..]` of an empty slice panics in `f` too).
    for w in [&[0.7][..], &[0.7, -0.2], SIZES[2]] {
        check_slice("over_view", over_view, over_view_grad, w);
    }
}

#[test]
fn one_window_and_one_exact_chunk() {
    check_slice("parts of 3", parts, parts_grad, &[0.4, -0.9, 1.3]);
}

#[test]
fn zip_stops_at_the_shorter() {
    let x = [1.5, 0.2, -0.7, 0.9];
    for w in SIZES {
        let (mut d_w, mut d_x) = (vec![0.0; w.len()], vec![0.0; x.len()]);
        let value = zipped_grad(w, &mut d_w, &x, &mut d_x);
        let point: Vec<f64> = w.iter().chain(&x).copied().collect();
        let n = w.len();
        assert_same_value("zipped", value, zipped(w, &x), &point);
        let gradient: Vec<f64> = d_w.iter().chain(&d_x).copied().collect();
        assert_gradient("zipped", |p| zipped(&p[..n], &p[n..]), &point, &gradient);
    }
}

#[test]
fn local_arrays() {
    for x in [-1.3, 0.0, 0.4, 2.0] {
        let (value, d_x) = local_array_grad(x);
        assert_same_value("local_array", value, local_array(x), &[x]);
        assert_gradient("local_array", |p| local_array(p[0]), &[x], &[d_x]);
    }
}

#[test]
fn through_the_pullback() {
    let w = [0.3, -1.2, 0.8];
    let mut d_w = [0.0; 3];
    enumerated_pullback(&w, &mut d_w, 2.0);
    // d/dw_i of the sum of w_i^2 (i + 1), times the seed 2.
    for (d, expected) in d_w.iter().zip([1.2, -9.6, 9.6]) {
        assert_near("enumerated_pullback", *d, expected, 1e-12);
    }
}

/// A user variable spelled like the index the rewrite of `for x in w` introduces keeps its
/// meaning inside the loop (issue 15: no name a user picks changes what the code means).
#[differentiable]
#[allow(non_snake_case)]
fn index_named_like_the_rewrite(w: &[f64], __mg_k0: usize) -> f64 {
    let mut s = 0.0;
    for x in w {
        s += x * w[__mg_k0];
    }
    s
}

#[test]
fn a_user_name_like_the_rewritten_index_keeps_its_meaning() {
    for k in 0..3 {
        let w = [0.5, -1.25, 2.0];
        check_slice(
            "index_named_like_the_rewrite",
            |w| index_named_like_the_rewrite(w, k),
            |w, d_w| index_named_like_the_rewrite_grad(w, d_w, k),
            &w,
        );
    }
}
