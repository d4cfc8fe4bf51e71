//! `f_graph` of a function generic over `T: Float` (issue 25; it was refused): generic the same
//! way, with the one bound a graph of `f64` values adds, `T: Into<f64>`, so it is called at
//! `f64` and `f32`. Each input's gradient on the graph against central differences of the
//! plain function at `f64` (at `f32`, of its `f64` instance, to `f32`'s tolerance), the output
//! node's value bit for bit the function's; through a loop, a branch, stores into a local array
//! (`+=` and `-=`, where the user bounds `T` by `AddAssign` and `SubAssign`), a call of a generic helper taking a slice and a float, and constants.

#![deny(warnings)]

use crate::common;

use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use std::ops::{AddAssign, SubAssign};

/// A generic helper: its partials come from its pullback, one node on the graph.
#[differentiable]
fn weigh<T: Float>(w: &[T], s: T) -> T {
    let mut t = s * T::from(0.5).unwrap();
    for i in 0..w.len() {
        t = t + w[i] * w[i] * s;
    }
    t.tanh()
}

#[differentiable(graph)]
fn looped<T: Float + AddAssign + SubAssign>(w: &[T], x: T) -> T {
    let mut s = x;
    let mut h = [T::zero(); 3];
    for i in 0..w.len() {
        if s > T::zero() {
            s = (s * w[i]).tanh();
        } else {
            s = s * T::from(0.5).unwrap() + w[i];
        }
        h[i % 3] += s;
        h[(i + 1) % 3] -= s * T::from(0.25).unwrap();
    }
    h[0] * h[1] + h[2] + weigh(w, x) * T::from(3.0).unwrap()
}

/// The gradient on `graph` of `w`'s entries, then `x`.
fn gradient(graph: &micrograd_runtime::Graph, n: usize) -> Vec<f64> {
    let mut out: Vec<f64> = (0..n)
        .map(|i| graph.find(&format!("w[{i}]")).expect("w entry").grad())
        .collect();
    out.push(graph.find("x").expect("x").grad());
    out
}

#[test]
fn a_generic_functions_graph_at_f64_against_central_differences() {
    let w = [0.3_f64, -1.2, 0.8, 0.5, -0.4];
    for x in [0.7_f64, -0.9] {
        let graph = looped_graph(&w, x);
        let output = graph.node(graph.output().expect("backward was called"));
        assert_eq!(output.data().to_bits(), looped(&w, x).to_bits());
        let mut point = w.to_vec();
        point.push(x);
        let f = |p: &[f64]| looped(&p[..5], p[5]);
        common::assert_gradient("looped_graph::<f64>", f, &point, &gradient(&graph, 5));
    }
}

#[test]
fn a_generic_functions_graph_at_f32_against_central_differences() {
    let w = [0.3_f32, -1.2, 0.8, 0.5, -0.4];
    for x in [0.7_f32, -0.9] {
        let graph = looped_graph(&w, x);
        let output = graph.node(graph.output().expect("backward was called"));
        assert_eq!(output.data(), f64::from(looped(&w, x)));
        let mut point: Vec<f64> = w.iter().map(|&v| f64::from(v)).collect();
        point.push(f64::from(x));
        let wide = |p: &[f64]| looped(&p[..5], p[5]);
        for (i, g) in gradient(&graph, 5).into_iter().enumerate() {
            common::assert_f32_partial("looped_graph::<f32>", wide, &point, i, g as f32);
        }
    }
}
