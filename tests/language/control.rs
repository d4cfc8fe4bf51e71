//! Control flow, signatures and calls: every branch taken, `wrt` subsets, pass-through
//! parameters, shadowing, compound assignment, and gradients flowing through calls.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check1, check2, check3};
use micrograd_runtime::prelude::*;

#[differentiable]
fn piecewise(a: f64, b: f64) -> f64 {
    let mut y = a * b;
    if a < -1.0 {
        y += a.sin();
    } else if a <= 1.0 && b > 0.0 {
        y *= b.exp();
    } else if !(b >= -0.5 && a <= 3.0) {
        y = y * y - b;
    } else {
        y -= a / b;
    }
    y
}

#[test]
fn if_else_if_else_statements() {
    // One point per arm, each well away from the boundaries.
    let points = [
        [-2.0, 0.7],  // a < -1
        [0.3, 1.2],   // -1 <= a <= 1, b > 0
        [0.3, -1.4],  // !(b >= -0.5)
        [4.0, 0.2],   // a > 3
        [2.0, -0.25], // else
        [0.5, -0.3],  // else, a <= 1 but b <= 0
    ];
    check2("piecewise", piecewise, piecewise_grad, &points);
}

#[differentiable]
fn select(a: f64, b: f64) -> f64 {
    let s = if a > b { a * a } else { b.tanh() * a };
    let t = if s < 1.0 || b >= 3.0 {
        s + 1.0
    } else if b < 0.0 {
        s * b
    } else {
        -s
    };
    t * 2.0 + if b > 0.0 { b } else { 0.0 }
}

#[test]
fn if_expressions() {
    let points = [
        [0.6, 0.2],
        [-0.5, 0.2],
        [2.0, -1.0],
        [2.0, 1.0],
        [1.5, 2.0],
        [4.0, 3.5],
    ];
    check2("select", select, select_grad, &points);
}

#[differentiable]
fn early(a: f64, b: f64) -> f64 {
    let s = a * b;
    if s > 2.0 {
        return s.ln();
    }
    if !(a > 0.0 || b >= 0.0) {
        return a * a;
    }
    let t = s + a;
    if t < 0.0 { t.exp() } else { t.sqrt() + b }
}

#[test]
fn early_returns() {
    // s > 2; a <= 0 && b < 0 (with s <= 2); t < 0; t >= 0.
    let points = [
        [2.0, 3.0],
        [-0.5, -0.6],
        [-1.0, 0.5],
        [0.5, 0.5],
        [1.0, -0.2],
    ];
    check2("early", early, early_grad, &points);
}

#[differentiable(wrt(b))]
fn only_b(a: f64, b: f64, c: f64) -> f64 {
    a * b.sin() + c * b * b
}

#[differentiable(wrt(c, a))]
fn a_and_c(a: f64, b: f64, c: f64) -> f64 {
    a * b.sin() + c * b * b + a * c
}

#[differentiable(wrt(w))]
fn slice_only(a: f64, w: &[f64], v: &[f64]) -> f64 {
    a * w[0] * v[1] + w[1] * w[1] * v[0]
}

#[differentiable(wrt(a))]
fn scalar_only(a: f64, w: &[f64]) -> f64 {
    a * w[0] + a * a * w[1]
}

#[test]
fn wrt_restricts_the_signature() {
    for [a, b, c] in [
        [0.4, -1.2, 2.0],
        [-1.5, 0.8, 0.3],
        [2.0, 2.5, -0.7],
        [0.1, -3.0, 1.1],
    ] {
        // The annotations pin the tuple shapes: one partial, then two in parameter order.
        let (value, db): (f64, f64) = only_b_grad(a, b, c);
        assert_same_value("only_b", value, only_b(a, b, c), &[a, b, c]);
        assert_gradient("only_b", |p| only_b(a, p[0], c), &[b], &[db]);
        let (value, da, dc): (f64, f64, f64) = a_and_c_grad(a, b, c);
        assert_same_value("a_and_c", value, a_and_c(a, b, c), &[a, b, c]);
        assert_gradient("a_and_c", |p| a_and_c(p[0], b, p[1]), &[a, c], &[da, dc]);
        // Closed forms.
        assert_near("a_and_c da", da, b.sin() + c, 1e-14);
        assert_near("a_and_c dc", dc, b * b + a, 1e-14);
    }
    let (w, v) = ([0.3, -1.1], [2.0, 0.5]);
    let mut d_w = [0.0; 2];
    let value: f64 = slice_only_grad(1.7, &w, &mut d_w, &v);
    assert_same_value("slice_only", value, slice_only(1.7, &w, &v), &w);
    assert_gradient("slice_only", |p| slice_only(1.7, p, &v), &w, &d_w);
    let (value, da): (f64, f64) = scalar_only_grad(-0.6, &w);
    assert_same_value("scalar_only", value, scalar_only(-0.6, &w), &[-0.6]);
    assert_near("scalar_only da", da, w[0] + 2.0 * -0.6 * w[1], 1e-14);
}

/// Calls restricted functions: the caller still gets every partial through them.
#[differentiable]
fn calls_restricted(a: f64, b: f64, c: f64) -> f64 {
    let mut v = [0.0; 2];
    v[0] = a;
    v[1] = c * a;
    only_b(a * 2.0, b, c.exp()) + a_and_c(c, a, b) * scalar_only(b, &v)
}

#[test]
fn calls_see_through_wrt() {
    let triples = [
        [0.5, 1.2, -0.3],
        [-1.0, 0.4, 0.9],
        [1.5, -2.0, 0.2],
        [0.3, 0.3, -1.0],
    ];
    check3(
        "calls_restricted",
        calls_restricted,
        calls_restricted_grad,
        &triples,
    );
}

#[differentiable]
fn passthrough(a: f64, n: usize, k: i32, flip: bool, m: i64, u: u32, b: f64) -> f64 {
    let steps = (n + 1) as f64;
    let y = if flip { -a } else { a * steps };
    y * b.powi(2) + (k as f64) * b + (m as f64) * a / ((u + 1) as f64)
}

#[test]
fn integer_and_bool_parameters_pass_through() {
    for (n, k, flip, m, u) in [
        (0, -3, false, 5, 0),
        (4, 2, true, -7, 3),
        (9, 0, false, 1, 10),
    ] {
        for [a, b] in [[0.5, -1.5], [-2.0, 0.7], [1.3, 2.2], [-0.1, -0.4]] {
            let (value, da, db) = passthrough_grad(a, n, k, flip, m, u, b);
            let f = |p: &[f64]| passthrough(p[0], n, k, flip, m, u, p[1]);
            assert_same_value("passthrough", value, f(&[a, b]), &[a, b]);
            assert_gradient("passthrough", f, &[a, b], &[da, db]);
        }
    }
}

#[differentiable]
fn rebinding(a: f64, b: f64) -> f64 {
    let x = a * b;
    let x = x.sin() + a;
    let mut y: f64 = x;
    y += b;
    y -= a * 0.5;
    y *= x;
    y /= b * b + 1.0;
    let y = y * 2.0;
    let mut z = y;
    z = z * z + x;
    z += z;
    z
}

/// Block scopes: a shadow inside `if` or `for` ends with its block.
#[differentiable]
fn scopes(a: f64, b: f64, n: usize) -> f64 {
    let mut y = a;
    let mut t = 0.0;
    if a > 0.0 {
        let a = a * 2.0;
        y += a;
    }
    for _ in 0..n {
        let s = y * 2.0;
        let y = s + b;
        t += y * s;
    }
    y * t + a
}

#[differentiable]
fn overwrite(a: f64) -> f64 {
    let mut x = a;
    x = x * x;
    x = x.sin() * a;
    x *= x;
    x
}

#[test]
fn shadowing_and_compound_assignment() {
    check2(
        "rebinding",
        rebinding,
        rebinding_grad,
        &[[0.4, -1.2], [-1.5, 0.8], [2.0, 2.5], [0.1, -3.0]],
    );
    check1(
        "overwrite",
        overwrite,
        overwrite_grad,
        &[-1.8, -0.3, 0.6, 1.4],
    );
    for n in [0, 1, 3] {
        for ab in [[0.5, 0.2], [-0.5, 0.3], [1.2, -0.7], [-1.1, -0.4]] {
            let (value, da, db) = scopes_grad(ab[0], ab[1], n);
            assert_same_value("scopes", value, scopes(ab[0], ab[1], n), &ab);
            assert_gradient("scopes", |p| scopes(p[0], p[1], n), &ab, &[da, db]);
        }
    }
}

#[differentiable]
fn square(a: f64) -> f64 {
    a * a
}

#[differentiable]
fn affine(a: f64, b: f64) -> f64 {
    square(a).tanh() * b + b.sin()
}

#[differentiable]
fn outer(a: f64, b: f64, c: f64) -> f64 {
    // Two levels deep: outer -> affine -> square, plus a direct call with an expression.
    let y = affine(a * c, b) + square(b - c);
    y * affine(b, 0.5) + square(2.0) + square(square(a) + affine(c, square(b)))
}

#[test]
fn scalar_calls_carry_the_gradient() {
    check1("square", square, square_grad, &[-1.5, -0.2, 0.7, 3.0]);
    check2(
        "affine",
        affine,
        affine_grad,
        &[[0.4, -1.2], [-1.5, 0.8], [1.0, 2.5], [0.1, -3.0]],
    );
    let triples = [
        [0.7, -1.3, 2.0],
        [-2.1, 0.4, -0.6],
        [1.6, 2.9, 0.3],
        [-0.8, -3.5, -1.9],
    ];
    check3("outer", outer, outer_grad, &triples);
}

#[differentiable]
fn weighted(w: &[f64], a: f64) -> f64 {
    w[0] * a + w[1] * a * a + w.len() as f64
}

#[differentiable]
fn through_slices(w: &[f64], x: &[f64], a: f64) -> f64 {
    let s = weighted(w, a) * weighted(x, w[2]);
    s + weighted(&w[1..], x[0]).sin()
}

#[differentiable]
fn deeper(w: &[f64], x: &[f64], a: f64) -> f64 {
    through_slices(w, x, a * x[1]).tanh() + weighted(x, a)
}

#[test]
fn slice_calls_carry_the_gradient() {
    let (w, x, a) = ([0.3, -0.8, 1.2], [0.5, -1.1], 0.9);
    let all: Vec<f64> = w.iter().chain(&x).copied().chain([a]).collect();
    let split = |p: &[f64]| (p[..3].to_vec(), p[3..5].to_vec(), p[5]);
    for (name, f, g) in [
        (
            "through_slices",
            through_slices as fn(&[f64], &[f64], f64) -> f64,
            through_slices_grad as Grad,
        ),
        ("deeper", deeper, deeper_grad),
    ] {
        let (mut d_w, mut d_x) = ([0.0; 3], [0.0; 2]);
        let (value, da) = g(&w, &mut d_w, &x, &mut d_x, a);
        assert_same_value(name, value, f(&w, &x, a), &all);
        let gradient: Vec<f64> = d_w.iter().chain(&d_x).copied().chain([da]).collect();
        let reference = |p: &[f64]| {
            let (w, x, a) = split(p);
            f(&w, &x, a)
        };
        assert_gradient(name, reference, &all, &gradient);
    }
}

type Grad = fn(&[f64], &mut [f64], &[f64], &mut [f64], f64) -> (f64, f64);

/// A function of no parameters (found by fuzzing: its pullback's signature began with a comma).
#[differentiable]
fn constant() -> f64 {
    let two: f64 = 2.0;
    two.sqrt() + 1.0
}

#[test]
fn a_function_without_parameters_has_a_value_only() {
    let value: f64 = constant_grad();
    assert_eq!(value, constant());
    let (): () = constant_pullback(3.0);
}
