//! Names the function does not define, typed by a helper's value (issue 25, `lower/typing.rs`):
//! a call of a `#[differentiable]` helper is a float to the unification as it is to the lowering,
//! so `(PI * K2) > helper(x)`, `K1 * K1 * helper(x)` and `let k = K2; .. k - helper(x)` decide
//! the names beside it, where the arithmetic of two such names alone reads as integers. The
//! random generator found the first (seed 2, program 171) once the older rule that lowered
//! such names again beside a float (`expr::beside_float`) was deleted. Against central
//! differences, the value bit for bit `f`'s.

use crate::common;

use common::check1;
use micrograd_runtime::prelude::*;
use std::f64::consts::PI;

const K1: f64 = 1.5;
const K2: f64 = -0.75;
static S1: f64 = 0.5;

#[differentiable]
fn helper(x: f64) -> f64 {
    x * x - 0.25 * x
}

/// `PI * K2` and `S1` are compared with the helper's value only.
#[differentiable]
fn compared(x: f64) -> f64 {
    if (PI * K2) > helper(x) || helper(x) >= S1 * K2 {
        x * 3.0
    } else {
        x.sin()
    }
}

/// `K1 * K1` multiplies the helper's value: nothing else says what `K1` is.
#[differentiable]
fn scaled(x: f64) -> f64 {
    K1 * K1 * helper(x)
}

/// `k` (and so `K2`) is decided by `k - helper(x)` below it.
#[differentiable]
fn bound(x: f64) -> f64 {
    let k = K2;
    let d = k - helper(x);
    d * d
}

#[test]
fn outside_names_beside_a_helpers_value() {
    let points = [-1.2, -0.3, 0.4, 1.1];
    check1("compared", compared, compared_grad, &points);
    check1("scaled", scaled, scaled_grad, &points);
    check1("bound", bound, bound_grad, &points);
}
