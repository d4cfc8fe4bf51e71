//! Slice views and references (issue 12): `let x = &xs[a..b];`, `let r = &w;`, `*r`, against
//! central differences, a differentiable caller, `f_graph` and the `Value` engine.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check_slice};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable]
fn sum_sq(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * w[i];
    }
    s
}

/// Windows of a slice, views of views, a reference to a whole slice and to one entry.
#[differentiable(graph)]
fn windows(xs: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for k in 0..n {
        let x = &xs[2 * k..2 * k + 2];
        let y = &x[1..];
        s += x[0] * y[0] + (x.len() as f64) * y.len() as f64;
    }
    let r = &xs;
    let first = &r[0];
    s * *first + sum_sq(&xs[1..=2]) + sum_sq(r) - sum_sq(&r[..n])
}

/// The same function on micrograd's run-time engine.
fn windows_value(xs: &[Value], n: usize) -> Value {
    let mut s = Value::new(0.0);
    let sq = |w: &[Value]| w.iter().fold(Value::new(0.0), |s, v| s + v * v);
    for k in 0..n {
        let x = &xs[2 * k..2 * k + 2];
        s = s + &x[0] * &x[1] + 2.0;
    }
    &s * &xs[0] + sq(&xs[1..=2]) + sq(xs) - sq(&xs[..n])
}

const XS: [f64; 7] = [0.7, -1.3, 0.4, 2.2, -0.6, 1.1, 0.9];

#[test]
fn views_against_differences_and_value() {
    for n in [0, 1, 3] {
        check_slice(
            "windows",
            |w| windows(w, n),
            |w, d| windows_grad(w, d, n),
            &XS,
        );
        let mut d_xs = [0.0; 7];
        windows_grad(&XS, &mut d_xs, n);
        let inputs: Vec<Value> = XS.iter().map(|&x| Value::new(x)).collect();
        let out = windows_value(&inputs, n);
        out.backward();
        assert_eq!(out.data().to_bits(), windows(&XS, n).to_bits());
        for (v, d) in inputs.iter().zip(d_xs) {
            assert_near("windows vs Value", v.grad(), d, 1e-12);
        }
    }
}

#[differentiable]
fn calls_windows(xs: &[f64], a: f64) -> f64 {
    let head = &xs[1..];
    windows(head, 2) * a + xs[0]
}

#[test]
fn views_through_a_caller_and_the_graph() {
    let a = 1.7;
    let mut d_xs = [0.0; 7];
    let (value, d_a) = calls_windows_grad(&XS, &mut d_xs, a);
    assert_same_value("calls_windows", value, calls_windows(&XS, a), &XS);
    let point: Vec<f64> = XS.iter().copied().chain([a]).collect();
    let gradient: Vec<f64> = d_xs.iter().copied().chain([d_a]).collect();
    assert_gradient(
        "calls_windows",
        |p| calls_windows(&p[..7], p[7]),
        &point,
        &gradient,
    );
    let graph = windows_graph(&XS, 2);
    let mut d_xs = [0.0; 7];
    let value = windows_grad(&XS, &mut d_xs, 2);
    assert_eq!(graph.node(graph.output().expect("output")).data(), value);
    for (i, d) in d_xs.iter().enumerate() {
        let node = graph.find(&format!("xs[{i}]")).expect("xs entry");
        assert_near("windows graph", node.grad(), *d, 1e-12);
    }
}

/// `*r` where `r` is an `&f64`, and a reference to a local array.
#[differentiable]
fn references(x: f64, w: &[f64; 3]) -> f64 {
    let r = &x;
    let mut h = [0.0; 3];
    h[1] = *r * w[2];
    let v = &h;
    let last = &w[1..];
    v[1] * *r + last[1] * x.sin() + sum_sq(v)
}

#[test]
fn references_to_scalars_and_arrays() {
    let w = [0.3, -0.8, 1.4];
    for x in [-1.2, 0.5, 2.0] {
        let mut d_w = [0.0; 3];
        let (value, d_x) = references_grad(x, &w, &mut d_w);
        assert_same_value("references", value, references(x, &w), &[x]);
        let point = [x, w[0], w[1], w[2]];
        let f = |p: &[f64]| references(p[0], &[p[1], p[2], p[3]]);
        assert_gradient("references", f, &point, &[d_x, d_w[0], d_w[1], d_w[2]]);
    }
}

#[differentiable]
fn past_the_view(xs: &[f64], k: usize) -> f64 {
    let x = &xs[1..3];
    x[k] * 2.0
}

/// A view indexed past its own end but inside its base: `f` panics, and so does `f_grad`, with
/// the same message; inside the view both agree.
#[test]
fn views_check_their_own_bounds() {
    let xs = [0.5, 1.5, 2.5, 3.5];
    let message = |result: std::thread::Result<f64>| {
        let payload = result.expect_err("index 2 of a view of 2 must panic");
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
    };
    let from_f = message(std::panic::catch_unwind(|| past_the_view(&xs, 2)));
    let from_grad = message(std::panic::catch_unwind(|| {
        past_the_view_grad(&xs, &mut [0.0; 4], 2)
    }));
    assert_eq!(from_grad, from_f);
    let mut d_xs = [0.0; 4];
    assert_eq!(past_the_view_grad(&xs, &mut d_xs, 1), past_the_view(&xs, 1));
    assert_eq!(d_xs, [0.0, 0.0, 2.0, 0.0]);
}
