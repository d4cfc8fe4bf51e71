//! `mul_add`, the one three-operand method (issue 12): fused, so its value is bit for bit `f`'s
//! even where `a * b + c` rounds differently; its gradient against central differences, the
//! `Value` engine, a caller's pullback and `f_graph`.

use crate::common;

use common::{assert_near, check_with_value, check3};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable(graph)]
fn fma(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// Inside an expression, by UFCS, with an operand used twice and a constant operand.
#[differentiable(graph)]
fn horner(x: f64, w: &[f64]) -> f64 {
    let mut acc: f64 = 0.0;
    for k in 0..w.len() {
        acc = acc.mul_add(x, w[k]);
    }
    f64::mul_add(acc, acc.tanh(), 0.5) + x.mul_add(2.0, x)
}

fn horner_value(x: &Value, w: &[Value]) -> Value {
    let mut acc = Value::new(0.0);
    for wk in w {
        acc = acc * x + wk;
    }
    &acc * acc.tanh() + 0.5 + x * 2.0 + x
}

/// A caller: `fma`'s pullback runs in its reverse sweep.
#[differentiable]
fn calls_fma(x: f64, y: f64) -> f64 {
    fma(x * y, y, x).tanh() + fma(1.5, x, 0.25)
}

#[test]
fn fused_value_is_fs_value() {
    // 0.1 * 10.0 rounds to 1.0, so unfused gives 0; fused gives the rounding error itself.
    let (value, da, db, dc) = fma_grad(0.1, 10.0, -1.0);
    assert_eq!(value.to_bits(), fma(0.1, 10.0, -1.0).to_bits());
    assert_ne!(value, 0.1 * 10.0 - 1.0);
    assert_eq!((da, db, dc), (10.0, 0.1, 1.0));
    let points = [[0.7, -1.3, 0.4], [0.0, 2.0, -3.0], [1e8, 1e-8, 1.0]];
    check3("fma", fma, fma_grad, &points);
}

#[test]
fn mul_add_in_loops_against_differences_and_value() {
    let f = |p: &[f64]| horner(p[0], &p[1..]);
    let g = |p: &[f64]| {
        let mut d_w = vec![0.0; p.len() - 1];
        let (value, d_x) = horner_grad(p[0], &p[1..], &mut d_w);
        [vec![value, d_x], d_w].concat()
    };
    let v = |p: &[Value]| horner_value(&p[0], &p[1..]);
    let points: [&[f64]; 3] = [&[0.7, 1.0, -2.0, 0.5], &[-1.2, 0.3], &[0.4]];
    for point in points {
        // The Value engine rounds `acc * x + w` twice, `f` once: compare it at 1e-12.
        let out = g(point);
        assert_eq!(out[0].to_bits(), f(point).to_bits());
        common::assert_gradient("horner", f, point, &out[1..]);
        let inputs: Vec<Value> = point.iter().map(|&x| Value::new(x)).collect();
        let value = v(&inputs);
        value.backward();
        assert_near("horner (Value)", value.data(), out[0], 1e-12);
        for (i, input) in inputs.iter().enumerate() {
            assert_near("horner d (Value)", input.grad(), out[i + 1], 1e-9);
        }
    }
}

#[test]
fn mul_add_through_a_caller_and_the_graph() {
    let f = |p: &[f64]| calls_fma(p[0], p[1]);
    let g = |p: &[f64]| {
        let (value, d_x, d_y) = calls_fma_grad(p[0], p[1]);
        vec![value, d_x, d_y]
    };
    let v = |p: &[Value]| {
        let (x, y) = (&p[0], &p[1]);
        (x * y * y + x).tanh() + x * 1.5 + 0.25
    };
    check_with_value("calls_fma", &f, &g, &v, &[&[0.3, -0.8], &[1.1, 0.6]]);
    let graph = fma_graph(0.7, -1.3, 0.4);
    let (value, da, db, dc) = fma_grad(0.7, -1.3, 0.4);
    assert_eq!(graph.node(graph.output().expect("output")).data(), value);
    for (name, d) in [("a", da), ("b", db), ("c", dc)] {
        let node = graph.find(name).expect("parameter node");
        assert_near("fma graph", node.grad(), d, 1e-12);
    }
    let graph = horner_graph(0.5, &[1.0, 2.0]);
    let mut d_w = [0.0; 2];
    let (value, d_x) = horner_grad(0.5, &[1.0, 2.0], &mut d_w);
    assert_eq!(graph.node(graph.output().expect("output")).data(), value);
    assert_near(
        "horner graph",
        graph.find("x").expect("x").grad(),
        d_x,
        1e-12,
    );
}
