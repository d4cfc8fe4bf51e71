//! `f_graph`: the generated computation graph, checked against micrograd's numbers and `f_grad`.

// micrograd's README expression, verbatim: `c += c + 1.0` is what it computes.
#![allow(clippy::misrefactored_assign_op)]

use micrograd_runtime::prelude::*;

#[differentiable(graph)]
fn readme(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).relu();
    d += 3.0 * d + (b - a).relu();
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}

#[differentiable(graph)]
fn looped(w: &[f64], x: f64) -> f64 {
    let mut s = x;
    let mut h = [0.0; 3];
    for i in 0..w.len() {
        if s > 0.0 {
            s = (s * w[i]).tanh();
        } else {
            s = s * 0.5 + w[i];
        }
        h[i % 3] += s;
    }
    h[0] * h[1] + h[2]
}

#[test]
fn readme_graph_has_micrograd_numbers() {
    let graph = readme_graph(-4.0, 2.0);
    let output = graph.node(graph.output().expect("backward was called"));
    assert_eq!(format!("{:.4}", output.data()), "24.7041");
    assert_eq!(output.grad(), 1.0);
    assert_eq!(output.data(), readme(-4.0, 2.0));
    let a = graph.find("a").expect("input a");
    let b = graph.find("b").expect("input b");
    assert_eq!(
        format!("{:.4} {:.4}", a.grad(), b.grad()),
        "138.8338 645.5773"
    );
    let dot = graph.to_dot();
    assert!(
        dot.contains("data 24.7041") && dot.contains("grad 138.8338"),
        "{dot}"
    );
}

#[test]
fn graph_gradients_equal_f_grad_through_loops_branches_and_arrays() {
    let w = [0.3, -1.2, 0.8, 0.5, -0.4];
    for x in [0.7, -0.9] {
        let mut d_w = [0.0; 5];
        let (value, d_x) = looped_grad(&w, &mut d_w, x);
        let graph = looped_graph(&w, x);
        let output = graph.node(graph.output().expect("backward was called"));
        assert_eq!(output.data(), value);
        assert_eq!(value, looped(&w, x));
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()));
        assert!(close(graph.find("x").expect("x").grad(), d_x));
        for (i, d) in d_w.iter().enumerate() {
            let node = graph.find(&format!("w[{i}]")).expect("w entry");
            assert!(
                close(node.grad(), *d),
                "w[{i}]: graph {} vs grad {d}",
                node.grad()
            );
        }
    }
}

/// A callee taking an integer before a float.
#[differentiable]
fn power_times(x: f64, n: usize, y: f64) -> f64 {
    x.powi(n as i32) * y
}

#[differentiable(graph)]
fn calls_with_an_integer_first(a: f64, b: f64) -> f64 {
    power_times(a * b, 3, b) + a
}

#[test]
fn a_call_with_an_integer_before_a_float() {
    // Each `f64` argument's node gets its own partial: `b`'s was paired with the integer
    // before it, and dropped with it.
    for (a, b) in [(0.7, -0.2), (-1.1, 0.9)] {
        let graph = calls_with_an_integer_first_graph(a, b);
        let da = graph.find("a").expect("input a").grad();
        let db = graph.find("b").expect("input b").grad();
        let f = |p: &[f64]| calls_with_an_integer_first(p[0], p[1]);
        crate::common::assert_gradient("calls_with_an_integer_first_graph", f, &[a, b], &[da, db]);
    }
}
