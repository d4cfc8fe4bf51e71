//! Integer counters a loop body steps (`i += 1`, `k -= 1`, `i = i + 2`), several at once, read
//! as indices and as bounds, nested, and updated under a branch; booleans set in a loop (issue
//! 11). Each against central finite differences and the `Value` engine, and through the
//! pullback.

use crate::common;

use common::{assert_near, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// The slice part of a point whose last entry is a scalar.
fn split(p: &[f64]) -> (&[f64], f64) {
    (&p[..p.len() - 1], p[p.len() - 1])
}

/// `f_grad` of `f(w: &[f64], x: f64)`.
type SliceGrad = fn(&[f64], &mut [f64], f64) -> (f64, f64);

/// `f_grad(w, d_w, x)` as `[value, d_w.., d_x]`.
fn slice_and_scalar(g: SliceGrad) -> impl Fn(&[f64]) -> Vec<f64> {
    move |p| {
        let (w, x) = split(p);
        let mut d_w = vec![0.0; w.len()];
        let (value, d_x) = g(w, &mut d_w, x);
        [vec![value], d_w, vec![d_x]].concat()
    }
}

/// `f_pullback(w, d_w, x, seed)` is the seed times `f_grad`'s partials.
fn check_pullback(
    name: &str,
    g: SliceGrad,
    pullback: fn(&[f64], &mut [f64], f64, f64) -> f64,
    p: &[f64],
) {
    let (w, x) = split(p);
    let (mut d_w, mut e_w) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (_, d_x) = g(w, &mut d_w, x);
    let e_x = pullback(w, &mut e_w, x, -1.5);
    assert_near(&format!("{name}_pullback d_x"), e_x, -1.5 * d_x, 1e-12);
    for (e, d) in e_w.iter().zip(&d_w) {
        assert_near(&format!("{name}_pullback d_w"), *e, -1.5 * d, 1e-12);
    }
}

/// The plainest counted `while`: the counter is an index.
#[differentiable]
fn counted(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < w.len() {
        s = s * x + w[i] * w[i];
        i += 1;
    }
    s
}

fn counted_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut s = Value::new(0.0);
    for wi in w {
        s = &s * x + wi * wi;
    }
    s
}

#[test]
fn counter_as_an_index() {
    let f = |p: &[f64]| {
        let (w, x) = split(p);
        counted(w, x)
    };
    let points: [&[f64]; 4] = [
        &[0.7],
        &[0.3, 0.7],
        &[0.3, -1.2, 0.8, 2.0, 0.9],
        &[1.5, 0.2, -0.4, 1.1],
    ];
    check_with_value(
        "counted",
        &f,
        &slice_and_scalar(counted_grad),
        &counted_value,
        &points,
    );
    for p in points {
        check_pullback("counted", counted_grad, counted_pullback, p);
    }
}

/// Horner's rule from the last coefficient down: `k -= 1` before the read.
#[differentiable]
fn horner(w: &[f64], x: f64) -> f64 {
    let mut y = 0.0;
    let mut k = w.len();
    while k > 0 {
        k -= 1;
        y = y * x + w[k];
    }
    y
}

fn horner_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut y = Value::new(0.0);
    for wk in w.iter().rev() {
        y = &y * x + wk;
    }
    y
}

#[test]
fn counting_down() {
    let f = |p: &[f64]| {
        let (w, x) = split(p);
        horner(w, x)
    };
    let points: [&[f64]; 3] = [&[0.4], &[2.0, 0.4], &[1.0, -2.0, 0.5, 3.0, 1.3]];
    check_with_value(
        "horner",
        &f,
        &slice_and_scalar(horner_grad),
        &horner_value,
        &points,
    );
    for p in points {
        check_pullback("horner", horner_grad, horner_pullback, p);
    }
}

/// Pairs of entries: `i = i + 2`, and a second counter going down from the other end.
#[differentiable]
#[allow(clippy::assign_op_pattern)] // the form under test
fn pairs(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    let mut j = w.len();
    while i + 1 < j {
        j -= 1;
        s += (w[i] * x - w[j]).tanh() * w[i + 1];
        i = i + 2;
    }
    s + (i as f64) * x
}

fn pairs_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut s = Value::new(0.0);
    let (mut i, mut j) = (0, w.len());
    while i + 1 < j {
        j -= 1;
        s = &s + (&w[i] * x - &w[j]).tanh() * &w[i + 1];
        i += 2;
    }
    s + i as f64 * x
}

#[test]
fn two_counters_and_a_stride() {
    let f = |p: &[f64]| {
        let (w, x) = split(p);
        pairs(w, x)
    };
    let points: [&[f64]; 4] = [
        &[0.9],
        &[0.3, 0.5, 0.9],
        &[0.3, -1.2, 0.8, 2.0, 0.9, -0.7],
        &[0.5, 1.2, -0.8, 0.1, 0.6, 1.4, 0.2, -0.3],
    ];
    check_with_value(
        "pairs",
        &f,
        &slice_and_scalar(pairs_grad),
        &pairs_value,
        &points,
    );
    for p in points {
        check_pullback("pairs", pairs_grad, pairs_pullback, p);
    }
}

/// An `i32` counter read by `powi` in the reverse sweep, going below zero.
#[differentiable]
fn signed(x: f64) -> f64 {
    let mut y = 1.0;
    let mut k: i32 = 3;
    while k > -2 {
        y = y * x.powi(k) + 0.5;
        k -= 1;
    }
    y
}

fn signed_value(p: &[Value]) -> Value {
    let mut y = Value::new(1.0);
    for k in (-1..=3).rev() {
        y = &y * p[0].powi(k) + 0.5;
    }
    y
}

#[test]
fn signed_counter() {
    check_with_value(
        "signed",
        &|p| signed(p[0]),
        &|p| {
            let (value, d) = signed_grad(p[0]);
            vec![value, d]
        },
        &signed_value,
        &[&[0.7], &[1.3], &[-0.9]],
    );
    assert_near(
        "signed_pullback",
        signed_pullback(0.7, 2.0),
        2.0 * signed_grad(0.7).1,
        1e-12,
    );
}

/// A data-dependent trip count, counted in the loop and used after it, and a counter stepped
/// under a branch (a join of integers).
#[differentiable]
fn steps(x: f64, h: f64) -> f64 {
    let mut y = 3.0;
    let mut n = 0;
    let mut big = 0;
    while y > 0.0 {
        y -= h * (1.0 + x * x);
        if y > 1.0 {
            big += 1;
        }
        n += 1;
    }
    y * (n as f64) + (big as f64) * x
}

fn steps_value(p: &[Value]) -> Value {
    let (x, h) = (&p[0], &p[1]);
    let mut y = Value::new(3.0);
    let (mut n, mut big) = (0, 0);
    while y.data() > 0.0 {
        y = &y - h * (1.0 + x * x);
        if y.data() > 1.0 {
            big += 1;
        }
        n += 1;
    }
    y * n as f64 + big as f64 * x
}

#[test]
fn data_dependent_counts() {
    check_with_value(
        "steps",
        &|p| steps(p[0], p[1]),
        &|p| {
            let (value, dx, dh) = steps_grad(p[0], p[1]);
            vec![value, dx, dh]
        },
        &steps_value,
        // Many steps, two, one (the first step lands) and none is impossible (y starts at 3).
        &[&[0.3, 0.21], &[0.5, 1.1], &[1.0, 2.0], &[-0.7, 0.37]],
    );
    let (dx, dh) = steps_pullback(0.3, 0.21, 0.5);
    let (_, gx, gh) = steps_grad(0.3, 0.21);
    assert_near("steps_pullback", dx, 0.5 * gx, 1e-12);
    assert_near("steps_pullback", dh, 0.5 * gh, 1e-12);
}

/// Nested counters: the outer one is the inner loop's bound, both index a local array that the
/// body overwrites.
#[differentiable]
fn triangle(w: &[f64], x: f64) -> f64 {
    let mut h = [0.0; 4];
    let mut s = 0.0;
    let mut i = 0;
    while i < w.len() {
        let mut j = 0;
        while j <= i {
            h[j % 4] = (h[j % 4] + w[i] * w[j] * x).tanh();
            j += 1;
        }
        s += h[i % 4];
        i += 1;
    }
    s
}

fn triangle_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut h: Vec<Value> = (0..4).map(|_| Value::new(0.0)).collect();
    let mut s = Value::new(0.0);
    for i in 0..w.len() {
        for j in 0..=i {
            h[j % 4] = (&h[j % 4] + &w[i] * &w[j] * x).tanh();
        }
        s = &s + &h[i % 4];
    }
    s
}

#[test]
fn nested_counters() {
    let f = |p: &[f64]| {
        let (w, x) = split(p);
        triangle(w, x)
    };
    let points: [&[f64]; 3] = [&[0.5], &[0.8, 0.5], &[0.3, -1.2, 0.8, 0.6, 0.9, -0.4, 0.5]];
    check_with_value(
        "triangle",
        &f,
        &slice_and_scalar(triangle_grad),
        &triangle_value,
        &points,
    );
    for p in points {
        check_pullback("triangle", triangle_grad, triangle_pullback, p);
    }
}

/// Counters in a `for` body and a `loop`: an index that hops through the slice, and a boolean
/// that stays set once a large entry was seen.
#[differentiable]
fn hops(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    let mut seen = false;
    for t in 0..w.len() {
        if w[k] > 1.0 {
            seen = true;
        }
        if seen {
            s += w[k] * x;
        } else {
            s += (w[t] * x).tanh();
        }
        k = (k + 3) % w.len();
    }
    let mut m = 0;
    loop {
        if m >= w.len() {
            break;
        }
        s = s * 0.5 + w[m];
        m += 2;
    }
    s
}

fn hops_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut s = Value::new(0.0);
    let mut k = 0;
    let mut seen = false;
    for t in 0..w.len() {
        seen |= w[k].data() > 1.0;
        s = if seen {
            &s + &w[k] * x
        } else {
            &s + (&w[t] * x).tanh()
        };
        k = (k + 3) % w.len();
    }
    for wm in w.iter().step_by(2) {
        s = &s * 0.5 + wm;
    }
    s
}

#[test]
fn counters_in_for_and_loop() {
    let f = |p: &[f64]| {
        let (w, x) = split(p);
        hops(w, x)
    };
    let points: [&[f64]; 4] = [
        &[0.5],
        &[0.8, 0.5],
        &[0.3, -1.2, 0.8, 0.6, 0.9, -0.4, 0.5],
        &[0.3, 0.2, 0.8, 1.6, 0.9, -0.4, 0.5],
    ];
    check_with_value(
        "hops",
        &f,
        &slice_and_scalar(hops_grad),
        &hops_value,
        &points,
    );
    for p in points {
        check_pullback("hops", hops_grad, hops_pullback, p);
    }
}

/// Integers updated in a branch and in the right operand of `||`, outside any loop: the
/// branch joins them.
#[differentiable]
#[allow(clippy::assign_op_pattern)] // the form under test
fn branch_counts(x: f64) -> f64 {
    let mut k: usize = 1;
    if x > 0.0 || {
        k = k + 1;
        x * 2.0
    } > 1.0
    {
        return x * (k as f64);
    }
    if x < -1.0 {
        k += 3;
    }
    x * x * (k as f64)
}

fn branch_counts_value(p: &[Value]) -> Value {
    let x = &p[0];
    if x.data() > 0.0 {
        return x * 1.0;
    }
    let k = if x.data() < -1.0 { 5.0 } else { 2.0 };
    x * x * k
}

#[test]
fn integers_joined_after_branches() {
    check_with_value(
        "branch_counts",
        &|p| branch_counts(p[0]),
        &|p| {
            let (value, d) = branch_counts_grad(p[0]);
            vec![value, d]
        },
        &branch_counts_value,
        &[&[0.4], &[-0.5], &[-1.7]],
    );
}
