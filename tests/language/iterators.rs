//! Iterator reductions with closures (issue 12), against central differences, the index-loop
//! version of the same function (value bit for bit, gradient), a differentiable caller,
//! `f_graph` and the `Value` engine.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check_slice, check_two_slices};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable]
fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>()
}

#[differentiable]
fn dot_loop(w: &[f64], x: &[f64]) -> f64 {
    let mut s = -0.0;
    for i in 0..w.len().min(x.len()) {
        s += w[i] * x[i];
    }
    s
}

const W: [f64; 6] = [0.3, -1.2, 0.8, 2.1, -0.4, 0.9];
const X: [f64; 6] = [1.5, 0.2, -0.7, 0.9, -1.8, 0.6];

#[test]
fn dot_product_matches_the_index_loop() {
    check_two_slices("dot", dot, dot_grad, &W, &X);
    check_two_slices("dot of none", dot, dot_grad, &[], &[]);
    assert!(dot(&[], &[]).is_sign_negative(), "an empty f64 sum is -0.0");
    assert!(dot_grad(&[], &mut [], &[], &mut []).is_sign_negative());
    let (mut d_w, mut d_x) = ([0.0; 6], [0.0; 6]);
    let value = dot_grad(&W, &mut d_w, &X, &mut d_x);
    assert_eq!(value.to_bits(), dot_loop(&W, &X).to_bits());
    assert_eq!((d_w, d_x), (X, W));
    // Unequal lengths: zip stops at the shorter.
    check_two_slices("dot of unequal", dot, dot_grad, &W, &X[..4]);
}

/// The logistic loss of the issue: rows of `xs` (`d` features each) against labels `ys`.
#[differentiable]
fn logistic(w: &[f64], xs: &[f64], ys: &[f64], d: usize) -> f64 {
    xs.chunks(d)
        .zip(ys)
        .map(|(x, &y)| {
            let z = x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
            (1.0 + (-y * z).exp()).ln()
        })
        .sum::<f64>()
        / ys.len() as f64
}

fn logistic_value(w: &[Value], xs: &[f64], ys: &[f64], d: usize) -> Value {
    let mut total = Value::new(-0.0);
    for (x, &y) in xs.chunks(d).zip(ys) {
        let mut z = Value::new(-0.0);
        for (a, b) in x.iter().zip(w) {
            z += *a * b;
        }
        total += ((-y * z).exp() + 1.0).ln();
    }
    total / ys.len() as f64
}

#[test]
fn logistic_loss_with_chunks_and_closures() {
    let xs = [0.5, -1.0, 1.5, 0.3, -0.2, 0.8, 1.1, -0.6, 0.0, 0.4];
    let ys = [1.0, -1.0, 1.0, -1.0, 1.0];
    let w = [0.7, -0.3];
    check_slice(
        "logistic",
        |w| logistic(w, &xs, &ys, 2),
        |w, d_w| logistic_grad(w, d_w, &xs, &mut [0.0; 10], &ys, &mut [0.0; 5], 2),
        &w,
    );
    let mut d_w = [0.0; 2];
    logistic_grad(&w, &mut d_w, &xs, &mut [0.0; 10], &ys, &mut [0.0; 5], 2);
    let inputs = w.map(Value::new);
    let loss = logistic_value(&inputs, &xs, &ys, 2);
    loss.backward();
    assert_near(
        "logistic vs Value",
        loss.data(),
        logistic(&w, &xs, &ys, 2),
        1e-15,
    );
    assert_near("dw0 vs Value", inputs[0].grad(), d_w[0], 1e-12);
    assert_near("dw1 vs Value", inputs[1].grad(), d_w[1], 1e-12);
    // A ragged last chunk (d = 3 over 10 entries) and the gradients of the data too.
    let f = |p: &[f64]| logistic(&p[..3], &p[3..13], &ys, 3);
    let w3 = [0.2, -0.5, 0.4];
    let (mut d_w3, mut d_xs, mut d_ys) = ([0.0; 3], [0.0; 10], [0.0; 5]);
    let value = logistic_grad(&w3, &mut d_w3, &xs, &mut d_xs, &ys, &mut d_ys, 3);
    let point: Vec<f64> = w3.iter().chain(&xs).copied().collect();
    let gradient: Vec<f64> = d_w3.iter().chain(&d_xs).copied().collect();
    assert_same_value("logistic d=3", value, logistic(&w3, &xs, &ys, 3), &point);
    assert_gradient("logistic d=3", f, &point, &gradient);
}

/// enumerate, rev, windows, ranges, product and fold, nested.
#[differentiable(graph)]
fn adaptors(w: &[f64], x: f64, n: usize) -> f64 {
    let weighted = w
        .iter()
        .enumerate()
        .map(|(i, v)| v * (i as f64 + 1.0))
        .sum::<f64>();
    let backwards = w.iter().rev().fold(0.0, |acc, &v| acc * x + v);
    let smooth: f64 = w.windows(2).map(|p| p[1] - p[0] * x).product();
    let powers = (1..=n).map(|k| x.powi(k as i32) / k as f64).sum::<f64>();
    let pairs = w
        .chunks_exact(2)
        .rev()
        .map(|c| c.iter().product::<f64>())
        .sum::<f64>();
    weighted * backwards + smooth + powers + pairs
}

#[test]
fn adaptors_against_differences() {
    let w = [0.3, -1.2, 0.8, 2.1, -0.4];
    for n in [0, 1, 4] {
        for x in [-0.9, 0.4, 1.3] {
            let mut d_w = [0.0; 5];
            let (value, d_x) = adaptors_grad(&w, &mut d_w, x, n);
            assert_same_value("adaptors", value, adaptors(&w, x, n), &[x]);
            let point: Vec<f64> = w.iter().copied().chain([x]).collect();
            let gradient: Vec<f64> = d_w.iter().copied().chain([d_x]).collect();
            assert_gradient(
                "adaptors",
                |p| adaptors(&p[..5], p[5], n),
                &point,
                &gradient,
            );
        }
    }
}

#[differentiable]
fn caller(w: &[f64], x: f64) -> f64 {
    let v = [x, x * x, 1.0];
    dot(w, &v) * adaptors(&w[1..], x, 2) + logistic(&v[..2], w, &[1.0, -1.0], 2)
}

#[test]
fn iterators_through_a_caller_and_the_graph() {
    let w = [0.3, -1.2, 0.8, 2.1];
    for x in [-0.7, 0.5] {
        let mut d_w = [0.0; 4];
        let (value, d_x) = caller_grad(&w, &mut d_w, x);
        assert_same_value("caller", value, caller(&w, x), &[x]);
        let point: Vec<f64> = w.iter().copied().chain([x]).collect();
        let gradient: Vec<f64> = d_w.iter().copied().chain([d_x]).collect();
        assert_gradient("caller", |p| caller(&p[..4], p[4]), &point, &gradient);
        let graph = adaptors_graph(&w, x, 3);
        let mut d_w = [0.0; 4];
        let (value, d_x) = adaptors_grad(&w, &mut d_w, x, 3);
        assert_eq!(graph.node(graph.output().expect("output")).data(), value);
        assert_near("graph x", graph.find("x").expect("x").grad(), d_x, 1e-12);
        for (i, d) in d_w.iter().enumerate() {
            let node = graph.find(&format!("w[{i}]")).expect("w entry");
            assert_near("graph w", node.grad(), *d, 1e-12);
        }
    }
}

/// `sum` starts from -0.0, as `f64`'s `Sum` does: a sum of negative zeros, or of nothing, is
/// -0.0 in `f_grad` as in `f` (the random programs' oracles now fold from -0.0 too: seed 81,
/// program 417 compared a +0.0 oracle with `f`'s -0.0).
#[differentiable]
fn signed_zero_sum(w: &[f64], k: f64) -> f64 {
    w.iter().zip(w).map(|(&a, &b)| a * b * k).sum::<f64>()
}

#[test]
fn sums_keep_the_sign_of_zero() {
    for w in [&[][..], &[0.0, 0.0][..]] {
        let mut d_w = vec![0.0; w.len()];
        let (value, d_k) = signed_zero_sum_grad(w, &mut d_w, -2.0);
        assert!(
            value.is_sign_negative() && value == 0.0,
            "{value:?} for {w:?}"
        );
        assert_eq!(value.to_bits(), signed_zero_sum(w, -2.0).to_bits());
        assert_eq!(d_k, 0.0);
    }
}
