//! A caller whose local array has a named length (`const N: usize = 3;`) taking the outputs of
//! a callee whose length is a literal (`g3 -> [f64; 3]`): `let mut h = [0.0; N]; h = g3(..);`
//! and `let h: [f64; N] = g3(..);`. The caller's rewrite took the named length for a callee of
//! a length the macro cannot count and called a `__g3_into` that only a function returning
//! `[f64; M]` of a non-literal `M` has: rustc's "cannot find function `__g3_into`" (issue 24).
//! Now every call taken whole into a local array reads the outputs through `g3`'s own flavours
//! (`lower/desugar/array_calls.rs`). `f_grad` against central differences and num-dual twins,
//! the value bit for bit `f`'s; `f_jvp` against the twins' gradient along the tangent.

use crate::common;

use common::assert_near;
use common::oracle::{check, dual_gradient};

use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

const N: usize = 3;

#[differentiable(jvp)]
fn g3(a: f64, b: f64) -> [f64; 3] {
    [a * b, a.sin() + b, (0.5 * b).exp()]
}

fn g3_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> [D; 3] {
    [a * b, a.sin() + b, (b * D::from(0.5)).exp()]
}

/// Assigned to a local array of the named length.
#[differentiable(jvp)]
fn assigned(x: f64, y: f64) -> f64 {
    let mut h = [0.0; N];
    let s = h[0] + x;
    h = g3(y, x);
    s * h[0] + h[1] * h[2]
}

fn assigned_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let h = g3_twin(y, x);
    x * h[0] + h[1] * h[2]
}

/// Bound by a `let` whose type writes the named length.
#[differentiable(jvp)]
fn annotated(x: f64, y: f64) -> f64 {
    let h: [f64; N] = g3(y, x);
    h[0] * h[2] - h[1]
}

fn annotated_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let h = g3_twin(y, x);
    h[0] * h[2] - h[1]
}

/// Assigned in a loop from its own entries: the arguments read a copy.
#[differentiable(jvp)]
fn stepped(x: f64, y: f64) -> f64 {
    let mut h = [x; N];
    for _ in 0..2 {
        h = g3(h[1] + y, h[0] * 0.5);
    }
    h.iter().sum::<f64>()
}

fn stepped_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let mut h = [x; N];
    for _ in 0..2 {
        h = g3_twin(h[1] + y, h[0] * D::from(0.5));
    }
    h[0] + h[1] + h[2]
}

const POINTS: [[f64; 2]; 4] = [[0.3, 0.7], [-0.4, 0.2], [1.3, -0.6], [2.1, 1.4]];

type Plain = fn(f64, f64) -> f64;
type Grad = fn(f64, f64) -> (f64, f64, f64);
type Jvp = fn(f64, f64, f64, f64) -> (f64, f64);
type Twin = fn(Dual64, Dual64) -> Dual64;

/// `f_grad` and `f_jvp` of one caller at every point.
fn checked(name: &str, (f, grad, jvp, twin): (Plain, Grad, Jvp, Twin)) {
    for p in POINTS {
        let (value, d_x, d_y) = grad(p[0], p[1]);
        check!(
            name,
            &p,
            (value, &[d_x, d_y]),
            against = [
                central(|q| f(q[0], q[1])),
                dual(|q: &[Dual64]| twin(q[0], q[1]))
            ]
        );
        let v = [0.6, -1.3];
        let (value, tangent) = jvp(p[0], v[0], p[1], v[1]);
        assert_eq!(value.to_bits(), f(p[0], p[1]).to_bits(), "{name}_jvp value");
        let (_, reference) = dual_gradient(|q: &[Dual64]| twin(q[0], q[1]), &p);
        let along = reference[0] * v[0] + reference[1] * v[1];
        assert_near(&format!("{name}_jvp at {p:?}"), tangent, along, 1e-12);
    }
}

#[test]
fn a_literal_length_call_assigned_to_an_array_of_a_named_length() {
    checked(
        "assigned",
        (assigned, assigned_grad, assigned_jvp, assigned_twin),
    );
}

#[test]
fn a_literal_length_call_bound_to_a_named_length_type() {
    checked(
        "annotated",
        (annotated, annotated_grad, annotated_jvp, annotated_twin),
    );
}

#[test]
fn a_literal_length_call_assigned_from_its_own_entries() {
    checked(
        "stepped",
        (stepped, stepped_grad, stepped_jvp, stepped_twin),
    );
}
