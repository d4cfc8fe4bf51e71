//! `.skip(k)` and `.take(k)` in iterator chains and `for` heads, and `w[a..b].iter()` inside
//! reductions (issue 25: `.zip(param.iter().skip(1))` and `param[1..n - 1].iter()` of an
//! optimization test-function crate were refused). Against central differences and the
//! `Value` engine, the value bit for bit `f`'s, and `f_hvp` against `f_grad`.

use crate::common;

use common::{assert_near, check_slice, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// Rosenbrock's function as the crate writes it: consecutive pairs by `zip(skip(1))`.
#[differentiable(hvp)]
fn rosenbrock(w: &[f64]) -> f64 {
    w.iter()
        .zip(w.iter().skip(1))
        .map(|(a, b)| 100.0 * (b - a * a).powi(2) + (1.0 - a).powi(2))
        .sum::<f64>()
}

/// The inner entries, `w[1..n - 1].iter()` in a reduction.
#[differentiable]
fn inner(w: &[f64]) -> f64 {
    let n = w.len();
    w[1..n - 1].iter().map(|x| x * x).sum::<f64>() + w[..2].iter().fold(0.0, |acc, x| acc + x)
}

/// `skip` and `take` in `for` heads (also past the end) and in chains, of ranges too.
#[differentiable]
fn heads(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for (a, b) in w.iter().zip(w.iter().skip(1)) {
        s += a * b * x;
    }
    for v in w.iter().take(2) {
        s += v.sin();
    }
    for v in w.iter().skip(10) {
        s += v;
    }
    for (i, v) in w.iter().skip(1).enumerate() {
        s += v * (i as f64);
    }
    let middle = w.iter().skip(1).take(2).map(|v| v * x).sum::<f64>();
    let counted = (0..5).skip(2).take(10).map(|i| i as f64 * x).sum::<f64>();
    s + middle + counted + w.iter().take(100).product::<f64>()
}

fn rosenbrock_value(w: &[Value]) -> Value {
    let mut s = Value::new(0.0);
    for i in 0..w.len() - 1 {
        let d = &w[i + 1] - &w[i] * &w[i];
        let e = 1.0 - &w[i];
        s = s + 100.0 * &(&d * &d) + &e * &e;
    }
    s
}

#[test]
fn skip_and_take_against_references() {
    let points: [&[f64]; 3] = [&[0.5, -1.2, 0.8, 1.1], &[1.0, 1.0, 1.0], &[-0.3, 0.7]];
    for w in points {
        check_slice("rosenbrock", rosenbrock, rosenbrock_grad, w);
        check_slice("inner", inner, inner_grad, w);
        for x in [0.5, -1.5] {
            let mut p = w.to_vec();
            p.push(x);
            let n = w.len();
            let mut d_w = vec![0.0; n];
            let (value, d_x) = heads_grad(w, &mut d_w, x);
            assert_eq!(value.to_bits(), heads(w, x).to_bits());
            let mut gradient = d_w.clone();
            gradient.push(d_x);
            common::assert_gradient("heads", |q| heads(&q[..n], q[n]), &p, &gradient);
        }
        let v = vec![1.0; w.len()];
        let mut hv = vec![0.0; w.len()];
        let value = rosenbrock_hvp(w, &v, &mut hv);
        assert_eq!(value.to_bits(), rosenbrock(w).to_bits());
        let h = 1e-6;
        let shifted = |t: f64| {
            let q: Vec<f64> = w.iter().zip(&v).map(|(a, b)| a + t * b).collect();
            let mut d = vec![0.0; w.len()];
            rosenbrock_grad(&q, &mut d);
            d
        };
        let (up, down) = (shifted(h), shifted(-h));
        for i in 0..w.len() {
            assert_near("rosenbrock hvp", hv[i], (up[i] - down[i]) / (2.0 * h), 1e-4);
        }
    }
    check_with_value(
        "rosenbrock",
        &rosenbrock,
        &|w| {
            let mut d = vec![0.0; w.len()];
            let value = rosenbrock_grad(w, &mut d);
            std::iter::once(value).chain(d).collect()
        },
        &rosenbrock_value,
        &points,
    );
}
