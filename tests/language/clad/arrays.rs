//! Range-based `for` loops from Clad's `test/Gradient/Loops.C`, over arrays built from the
//! inputs, with `break` and `continue`.

use crate::common::{check_slice, check_with_value, check1, check2};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// Loops.C `fn34`: `for (auto& i : a)` over a local array of expressions.
#[differentiable]
fn fn34(x: f64, y: f64) -> f64 {
    let mut r = 0.0;
    let a = [y, x * y, x * x + y];
    for v in a {
        r += v * v;
    }
    r
}

/// Loops.C `fn35`: two nested loops over one array; the inner one breaks once `r` passes `x^2`.
#[differentiable]
fn fn35(x: f64, y: f64) -> f64 {
    let mut r = 0.0;
    let a = [x, x * y, 0.0];
    for u in a.iter() {
        for v in a.iter() {
            if r <= x * x {
                r += u * v;
            } else if r > x * x {
                break;
            }
        }
    }
    r
}

fn fn35_value(p: &[Value]) -> Value {
    let (x, y) = (&p[0], &p[1]);
    let mut r = Value::new(0.0);
    let a = [x.clone(), x * y, Value::new(0.0)];
    for u in &a {
        for v in &a {
            let xx = x.data() * x.data();
            if r.data() <= xx {
                r = &r + u * v;
            } else if r.data() > xx {
                break;
            }
        }
    }
    r
}

/// Loops.C `fn36`: `continue` once the sum passes `x`, over a constant array.
#[differentiable]
fn fn36(x: f64, _y: f64) -> f64 {
    let a: [f64; 3] = [1.0, 2.0, 3.0];
    let mut sum = 0.0;
    for &v in &a {
        if sum > x {
            continue;
        }
        sum += v.sin() * x;
    }
    sum
}

/// Loops.C `fn37`: an array literal mixing inputs and constants.
#[differentiable]
fn fn37(x: f64, y: f64) -> f64 {
    let mut sum = 0.0;
    for elem in [x, 4.0, y] {
        sum += elem;
    }
    sum
}

/// Loops.C `fn38`: the loop (over an initializer list) under a branch.
#[differentiable]
fn fn38(x: f64, y: f64) -> f64 {
    let mut sum = 0.0;
    if x > 0.0 {
        for elem in [1.0, x, 2.0, y, 3.0] {
            sum += elem;
        }
    }
    sum
}

/// Loops.C `fn39`: an explicit iterator over `{1, 2, 3}`.
#[differentiable]
fn fn39(x: f64) -> f64 {
    let mut res = 0.0;
    for k in [1.0, 2.0, 3.0].iter() {
        res += x * k;
    }
    res
}

/// Loops.C `tmp::forward`: one layer adds its offset.
#[differentiable]
fn forward(z: f64, x: f64) -> f64 {
    x + z
}

/// Loops.C `fn42`/`layer::forward`: a `std::vector<tmp>` of one-float structs is a slice of
/// their offsets here (methods on `self` are outside the language).
#[differentiable]
fn fn42(w: &[f64], x: f64) -> f64 {
    let mut x = x;
    for i in 0..w.len() {
        x = forward(w[i], x);
    }
    x
}

/// STLCustomDerivatives.C `fn6`: `std::array::fill` then a loop of `at(i)`: 3x. The fill is
/// `[x; 3]`.
#[differentiable]
fn stl_fn6(x: f64, _y: f64) -> f64 {
    let a = [x; 3];
    let mut res = 0.0;
    for i in 0..a.len() {
        res += a[i];
    }
    res
}

/// STLCustomDerivatives.C `fn10`: `push_back` in a loop (an array here), a sum, then
/// `assign(2, y)` leaves `[y, y, 0]`: 3x + 2y.
#[differentiable]
fn stl_fn10(x: f64, y: f64) -> f64 {
    let mut v = [0.0; 3];
    for i in 0..3 {
        v[i] = x;
    }
    let mut res = 0.0;
    for i in 0..v.len() {
        res += v[i];
    }
    v[0] = y;
    v[1] = y;
    v[2] = 0.0;
    res + v[0] + v[1] + v[2]
}

/// STLCustomDerivatives.C `fn14` and `fn17`: a two-entry vector built in every trip feeds `u`.
#[differentiable]
fn stl_fn17(mut u: f64, v: f64) -> f64 {
    for _ in 0..3 {
        let mut ls = [u, v];
        ls[1] += ls[0];
        u = ls[1];
    }
    u
}

/// STLCustomDerivatives.C `fn16`: `vector(i, v + u)` for `i` = 3, 2, 1, its last entry
/// multiplied in: (u + v)^3. The first `i` entries are filled by an inner loop.
#[differentiable]
fn stl_fn16(u: f64, v: f64) -> f64 {
    let mut prod = 1.0;
    for i in (1..=3).rev() {
        let mut vec = [0.0; 3];
        for k in 0..i {
            vec[k] = v + u;
        }
        prod *= vec[i - 1];
    }
    prod
}

/// STLCustomDerivatives.C `fn18`: a buffer written in one loop, read in the next, in `f32`.
#[differentiable(wrt(theta))]
fn stl_fn18(x: &[f32], theta: &[f32]) -> f32 {
    let mut arr = [0.0f32; 2];
    for id in 0..2 {
        arr[id] = x[id] * theta[0];
    }
    let mut out = 0.0;
    for id in 0..2 {
        out += (-arr[id]).exp();
    }
    out
}

/// STLCustomDerivatives.C `fn20`: a loop from an iterator `start` to `end`, a slice here.
#[differentiable]
fn stl_fn20(w: &[f64]) -> f64 {
    let mut sum = 0.0;
    let mut u = 1;
    for &x in w {
        sum += u as f64 * x;
        u += 2;
    }
    sum
}

#[test]
fn over_local_arrays() {
    let points = [[2.0, 2.0], [-0.7, 1.3]];
    check2("fn34", fn34, fn34_grad, &points);
    assert_eq!(fn34_grad(2.0, 2.0), (fn34(2.0, 2.0), 64.0, 32.0));
    check2("fn37", fn37, fn37_grad, &points);
    check1("fn39", fn39, fn39_grad, &[9.0]);
    assert_eq!(fn39_grad(9.0).1, 6.0);
    // The loop runs (x > 0) or not.
    check2("fn38", fn38, fn38_grad, &[[6.0, 3.0], [-1.0, 3.0]]);
}

#[test]
fn over_arrays_with_exits() {
    // (2, 2) is Clad's point; the others break after a few products or continue from the second.
    check2(
        "fn35",
        fn35,
        fn35_grad,
        &[[2.0, 2.0], [1.5, -0.4], [0.5, 3.0]],
    );
    assert_eq!(fn35_grad(2.0, 2.0), (fn35(2.0, 2.0), 12.0, 4.0));
    let f = |p: &[f64]| fn35(p[0], p[1]);
    let g = |p: &[f64]| {
        let (v, a, b) = fn35_grad(p[0], p[1]);
        vec![v, a, b]
    };
    let points: [&[f64]; 3] = [&[2.0, 2.0], &[1.5, -0.4], &[0.5, 3.0]];
    check_with_value("fn35", &f, &g, &fn35_value, &points);
    check2(
        "fn36",
        fn36,
        fn36_grad,
        &[[1.0, 1.0], [0.5, 0.0], [3.0, 0.0]],
    );
    assert_eq!(fn36_grad(1.0, 1.0).1, 1.0f64.sin() + 2.0f64.sin());
}

#[test]
fn layers_as_a_slice() {
    let f = |p: &[f64]| fn42(&p[..4], p[4]);
    let g = |p: &[f64], d: &mut [f64]| {
        let (value, d_x) = fn42_grad(&p[..4], &mut d[..4], p[4]);
        d[4] = d_x;
        value
    };
    check_slice("fn42", f, g, &[3.0, 4.0, 5.0, 6.0, 2.0]);
    // No layers: the identity.
    assert_eq!(fn42_grad(&[], &mut [], 2.0), (2.0, 1.0));
}

#[test]
fn containers_as_arrays() {
    let points = [[2.0, 3.0], [-0.7, 1.3]];
    check2("STL fn6", stl_fn6, stl_fn6_grad, &points);
    check2("STL fn10", stl_fn10, stl_fn10_grad, &points);
    assert_eq!(stl_fn10_grad(2.0, 3.0), (12.0, 3.0, 2.0));
    check2("STL fn16", stl_fn16, stl_fn16_grad, &points);
    check2("STL fn17", stl_fn17, stl_fn17_grad, &points);
    check_slice("STL fn20", stl_fn20, stl_fn20_grad, &[1.0, -2.0, 0.5]);
    check_slice("STL fn20", stl_fn20, stl_fn20_grad, &[]);
    let (x, theta) = ([1.5f32, -0.5], [0.75f32]);
    let mut d = [0.0f32];
    assert_eq!(stl_fn18_grad(&x, &theta, &mut d), stl_fn18(&x, &theta));
    let wide = |t: &[f64]| (-1.5 * t[0]).exp() + (0.5 * t[0]).exp();
    crate::common::assert_f32_partial("STL fn18", wide, &[0.75], 0, d[0]);
}
