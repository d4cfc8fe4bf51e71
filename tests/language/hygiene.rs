//! No name a user picks changes what the generated code means (issue 15): parameters and
//! locals named like the macro's own names (shadows `d_w`, adjoints `d_x`, a callee's
//! `g_pullback`, the locals of the aliased-shadow and graph code `i`, `value`, `inputs`), raw
//! identifiers, and `relu` from the runtime's trait. Each function is checked against central
//! differences of itself, with the value bit for bit `f`'s. tests/random/hygiene.rs draws such
//! names at random; tests/ui/user_trait_relu.rs is the refused case.
#![deny(warnings)]

use crate::common;

use common::{assert_gradient, assert_same_value, check2, check3};
use micrograd_runtime::prelude::*;

/// A parameter named like the shadow of another: the shadow becomes `d_w_`.
#[differentiable]
fn shadow_named(w: &[f64], d_w: f64) -> f64 {
    w[0] * d_w + w[1]
}

#[test]
fn a_parameter_named_like_a_shadow() {
    let (w, d_w) = ([1.5, -2.0], 0.75);
    let mut shadow = [0.0; 2];
    let (value, partial) = shadow_named_grad(&w, &mut shadow, d_w);
    assert_same_value(
        "shadow_named",
        value,
        shadow_named(&w, d_w),
        &[1.5, -2.0, d_w],
    );
    let f = |p: &[f64]| shadow_named(&p[..2], p[2]);
    let gradient = [shadow[0], shadow[1], partial];
    assert_gradient("shadow_named", f, &[1.5, -2.0, d_w], &gradient);
}

/// Parameters named like adjoints of each other.
#[differentiable]
fn adjoint_named(x: f64, d_x: f64, d_d_x: f64) -> f64 {
    let t0 = x * d_x;
    t0 * d_d_x + (x - d_d_x).tanh()
}

#[test]
fn parameters_named_like_adjoints() {
    check3(
        "adjoint_named",
        adjoint_named,
        adjoint_named_grad,
        &[[0.5, -1.25, 2.0], [-0.3, 0.7, 0.1]],
    );
}

#[differentiable]
fn square(x: f64) -> f64 {
    x * x
}

/// A parameter named like the callee's pullback, which `f_grad` calls.
#[differentiable]
fn pullback_named(x: f64, square_pullback: f64) -> f64 {
    square(x) * square_pullback
}

#[test]
fn a_parameter_named_like_a_callee_pullback() {
    check2(
        "pullback_named",
        pullback_named,
        pullback_named_grad,
        &[[1.5, -0.5], [-2.0, 3.0]],
    );
}

#[differentiable]
fn cross(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// Integer parameters named like the locals of the aliased-shadow code (`w` is passed twice,
/// so its second shadow is a buffer added back entry by entry).
#[differentiable]
fn aliased(w: &[f64], i: usize, inputs: usize, value: f64) -> f64 {
    cross(&w[i..], &w[inputs..]) * value + cross(w, &w[i..])
}

#[test]
fn integer_parameters_named_like_generated_locals() {
    let w = [0.5, -1.5, 2.0, 0.25];
    for (i, inputs) in [(1, 2), (2, 1), (0, 2)] {
        let mut d_w = [0.0; 4];
        let (result, d_value) = aliased_grad(&w, &mut d_w, i, inputs, 1.25);
        assert_same_value("aliased", result, aliased(&w, i, inputs, 1.25), &w);
        let mut point = w.to_vec();
        point.push(1.25);
        let f = |p: &[f64]| aliased(&p[..4], i, inputs, p[4]);
        let mut gradient = d_w.to_vec();
        gradient.push(d_value);
        assert_gradient("aliased", f, &point, &gradient);
    }
}

/// Raw identifiers as parameters, `wrt` entries, locals and loop indices.
#[differentiable(wrt(r#in, r#type))]
fn raw(r#in: f64, r#type: &[f64], r#loop: usize, r#as: f64) -> f64 {
    let r#gen = r#as * 0.5;
    let mut r#match = r#in * 2.0 + r#gen;
    for r#for in 0..r#loop {
        let r#let = r#type[r#for] * r#in;
        r#match += r#let.sin();
    }
    r#match
}

#[test]
fn raw_identifiers() {
    let w = [0.5, -1.0, 2.0];
    let mut d_type = [0.0; 3];
    let (value, d_in) = raw_grad(1.5, &w, &mut d_type, 3, 0.25);
    let point = [1.5, 0.5, -1.0, 2.0];
    assert_same_value("raw", value, raw(1.5, &w, 3, 0.25), &point);
    let f = |p: &[f64]| raw(p[0], &p[1..], 3, 0.25);
    assert_gradient("raw", f, &point, &[d_in, d_type[0], d_type[1], d_type[2]]);
}

/// An array parameter passed on, whole and in part, to a function of slices.
#[differentiable]
fn array_passed_on(v: &[f64; 3]) -> f64 {
    cross(v, &v[1..]) + cross(&v[..2], &v[..])
}

#[test]
fn an_array_parameter_passed_to_a_callee() {
    let v = [0.5, -1.5, 2.0];
    let mut d_v = [0.0; 3];
    let value = array_passed_on_grad(&v, &mut d_v);
    assert_same_value("array_passed_on", value, array_passed_on(&v), &v);
    let f = |p: &[f64]| array_passed_on(&[p[0], p[1], p[2]]);
    assert_gradient("array_passed_on", f, &v, &d_v);
}

/// `relu` and `sigmoid` from the prelude's trait, in both spellings: accepted.
#[differentiable]
fn activations(x: f64, y: f64) -> f64 {
    x.relu() * f64::sigmoid(y) + f64::relu(y) * x.sigmoid()
}

#[test]
fn the_runtime_activations_are_accepted() {
    check2(
        "activations",
        activations,
        activations_grad,
        &[[0.5, -1.5], [-0.75, 2.0], [1.25, 0.5]],
    );
}
