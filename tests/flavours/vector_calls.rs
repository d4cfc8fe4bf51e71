//! Calls of `#[differentiable]` functions returning several values, from `#[differentiable]`
//! functions: `let [a, b] = g(..)`, `let r: [f64; 2] = g(..)` then `r[k]`, `let (u, v) =
//! h(..)`, in straight-line code, a loop and a branch. `f_grad` (through the callee's pullback
//! seeded per entry), `f_jvp` (through its tangent) and a caller's `f_jacobian`, each against
//! num-dual (`Dual64` on generic versions) and central differences.

use crate::common;

use common::{assert_gradient, assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

#[differentiable(jvp)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

fn polar_dual<D: DualNum<Primitive = f64> + Copy>(r: D, theta: D) -> [D; 2] {
    [r * theta.cos(), r * theta.sin()]
}

#[differentiable(jvp)]
fn pair(x: f64) -> (f64, f64) {
    (x.exp(), x * x)
}

fn pair_dual<D: DualNum<Primitive = f64> + Copy>(x: D) -> (D, D) {
    (x.exp(), x * x)
}

/// Every form of taking the outputs apart, in straight-line code.
#[differentiable(jvp)]
fn straight(x: f64, y: f64) -> f64 {
    let [a, b] = polar(x, y);
    let r: [f64; 2] = polar(y, x * a);
    let (u, v) = pair(b);
    let t: (f64, f64) = pair(r[1]);
    a * b + r[0] * r[1] - u / (1.0 + v) + t.0 * t.1
}

fn straight_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let [a, b] = polar_dual(x, y);
    let r = polar_dual(y, x * a);
    let (u, v) = pair_dual(b);
    let t = pair_dual(r[1]);
    a * b + r[0] * r[1] - u / (v + 1.0) + t.0 * t.1
}

/// Calls in a loop that carries a value, and in a branch.
#[differentiable(jvp)]
fn looped(x: f64, y: f64, n: usize) -> f64 {
    let mut s = x;
    for _ in 0..n {
        let [c, d] = polar(s, y);
        s = 0.5 * c + d;
    }
    if s > y {
        let (u, v) = pair(s);
        u - v
    } else {
        s * y
    }
}

fn looped_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, n: usize) -> D {
    let mut s = x;
    for _ in 0..n {
        let [c, d] = polar_dual(s, y);
        s = c * 0.5 + d;
    }
    if s.re() > y.re() {
        let (u, v) = pair_dual(s);
        u - v
    } else {
        s * y
    }
}

/// Checks `f_grad`'s gradient and `f_jvp`'s tangent of a function of `(x, y)`.
fn check(
    name: &str,
    f: &dyn Fn(f64, f64) -> f64,
    grad: (f64, f64, f64),
    jvp: &dyn Fn([f64; 2]) -> (f64, f64),
    dual: &dyn Fn(Dual64, Dual64) -> Dual64,
    [x, y]: [f64; 2],
) {
    let value = f(x, y);
    assert_eq!(grad.0.to_bits(), value.to_bits(), "{name}: f_grad's value");
    for (j, partial) in [grad.1, grad.2].into_iter().enumerate() {
        let unit = |k: usize| if k == j { 1.0 } else { 0.0 };
        let reference = dual(Dual64::new(x, unit(0)), Dual64::new(y, unit(1)));
        assert_near(name, partial, reference.eps, 1e-12);
    }
    assert_gradient(name, |p| f(p[0], p[1]), &[x, y], &[grad.1, grad.2]);
    let v = [0.8, -0.4];
    let (jvp_value, tangent) = jvp(v);
    assert_eq!(
        jvp_value.to_bits(),
        value.to_bits(),
        "{name}: f_jvp's value"
    );
    let reference = dual(Dual64::new(x, v[0]), Dual64::new(y, v[1]));
    assert_near(name, tangent, reference.eps, 1e-12);
    let along = |t: &[f64]| f(x + t[0] * v[0], y + t[0] * v[1]);
    assert_partial(name, along, &[0.0], 0, tangent);
}

#[test]
fn outputs_taken_apart_in_straight_line_code() {
    for [x, y] in [[0.7, 0.3], [-1.2, 0.9], [0.4, -2.0]] {
        check(
            "straight",
            &straight,
            straight_grad(x, y),
            &|v| straight_jvp(x, v[0], y, v[1]),
            &straight_dual,
            [x, y],
        );
    }
}

#[test]
fn outputs_taken_apart_in_a_loop_and_a_branch() {
    for ([x, y], n) in [
        ([0.7, 0.3], 3),
        ([1.5, -0.2], 2),
        ([-0.4, 0.9], 4),
        ([0.5, 0.1], 0),
    ] {
        check(
            "looped",
            &|x, y| looped(x, y, n),
            looped_grad(x, y, n),
            &|v| looped_jvp(x, v[0], y, v[1], n),
            &|x, y| looped_dual(x, y, n),
            [x, y],
        );
    }
}

/// A vector output computed from the outputs of a call: its Jacobian is the chain rule's.
#[differentiable(jacobian, jvp)]
fn rotated(r: f64, theta: f64, phi: f64) -> [f64; 2] {
    let [x, y] = polar(r, theta);
    let (c, s) = (phi.cos(), phi.sin());
    [c * x - s * y, s * x + c * y]
}

#[test]
fn a_vector_output_of_a_call_has_the_chain_rule_s_jacobian() {
    let dual = |p: [Dual64; 3]| {
        let [x, y] = polar_dual(p[0], p[1]);
        let (c, s) = (p[2].cos(), p[2].sin());
        [c * x - s * y, s * x + c * y]
    };
    for p in [[2.0, 0.3, 0.5], [0.5, -1.0, 2.0]] {
        let (value, jacobian) = rotated_jacobian(p[0], p[1], p[2]);
        let exact = rotated(p[0], p[1], p[2]);
        for i in 0..2 {
            assert_eq!(value[i].to_bits(), exact[i].to_bits(), "rotated: value");
            for (j, &entry) in jacobian[i].iter().enumerate() {
                let at = |k: usize| Dual64::new(p[k], if k == j { 1.0 } else { 0.0 });
                assert_near("rotated", entry, dual([at(0), at(1), at(2)])[i].eps, 1e-12);
                let f = |q: &[f64]| rotated(q[0], q[1], q[2])[i];
                assert_partial("rotated", f, &p, j, entry);
            }
        }
        // Rotating by phi keeps the radius: along phi the tangent is (-y, x).
        let (_, tangent) = rotated_jvp(p[0], 0.0, p[1], 0.0, p[2], 1.0);
        assert_near("rotated jvp", tangent[0], -exact[1], 1e-14);
        assert_near("rotated jvp", tangent[1], exact[0], 1e-14);
    }
}

/// `f_graph` draws a call's outputs as nodes whose partials come from the seeded pullback.
#[differentiable(graph)]
fn drawn(x: f64, y: f64) -> f64 {
    let [a, b] = polar(x, y);
    let (u, _) = pair(a);
    u * b
}

#[test]
fn a_graph_through_a_vector_call_has_f_grad_s_gradient() {
    for [x, y] in [[0.7, 0.3], [-1.2, 0.9]] {
        let graph = drawn_graph(x, y);
        let (value, d_x, d_y) = drawn_grad(x, y);
        let output = graph.node(graph.output().expect("backward was called"));
        assert_eq!(output.data().to_bits(), value.to_bits());
        let input = |name: &str| graph.find(name).expect("an input").grad();
        assert_near("drawn d_x", input("x"), d_x, 1e-14);
        assert_near("drawn d_y", input("y"), d_y, 1e-14);
        assert_gradient("drawn", |p| drawn(p[0], p[1]), &[x, y], &[d_x, d_y]);
    }
}
