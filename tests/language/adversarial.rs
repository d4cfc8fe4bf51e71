//! Valid programs an adversary would write (issue 15): arguments at the edges of their types,
//! where `f` is fine and `f_grad` must be too; blocks whose value is a condition or an integer.
//! Names are tests/hygiene.rs's subject.
#![deny(warnings)]

use crate::common;

use common::{check1, check2};
use micrograd_runtime::prelude::*;

#[differentiable]
fn power(x: f64, n: i32) -> f64 {
    x.powi(n)
}

/// `n · xⁿ⁻¹` at `n = i32::MIN`, where `n - 1` overflows: a panic in debug builds, `x^i32::MAX`
/// in release. The references are exact: `(±1)ⁿ⁻¹ = ±1`, and away from 1 the power is 0 or ∞.
#[test]
fn powi_at_the_extremes_of_i32() {
    let n = i32::MIN;
    let cases = [
        (-1.0, n, -f64::from(n)),
        (1.0, n, f64::from(n)),
        (2.0, n, 0.0),
        (-2.0, n, 0.0),
        (0.5, n, f64::NEG_INFINITY),
        (-1.0, i32::MAX, f64::from(i32::MAX)),
        (1.0, i32::MAX, f64::from(i32::MAX)),
        (2.0, -1, -0.25),
        (-2.0, -2, 0.25),
        (0.0, 1, 1.0),
        (3.0, 0, 0.0),
    ];
    for (x, n, expected) in cases {
        let (value, d) = power_grad(x, n);
        assert_eq!(
            value.to_bits(),
            power(x, n).to_bits(),
            "value at x = {x}, n = {n}"
        );
        assert_eq!(d, expected, "d/dx x.powi({n}) at x = {x}");
    }
}

/// A block as the right side of `||` (run only when the left side fails), and as an `if`
/// condition of its own.
#[differentiable]
#[allow(clippy::blocks_in_conditions)] // the point: a block as a condition
fn block_conditions(x: f64, y: f64) -> f64 {
    let inside = x > 1.0 || {
        let t = x * y;
        t < 0.5
    };
    let z = if {
        let u = y - x;
        u.abs() < 2.0 && u > -1.5
    } {
        x * y
    } else {
        x - y
    };
    if inside { z * z } else { z + x.sin() }
}

#[test]
fn blocks_whose_value_is_a_condition() {
    let points = [
        [1.5, 0.25],
        [0.5, 0.5],
        [0.25, 3.0],
        [-1.0, -0.75],
        [2.0, -1.0],
    ];
    check2(
        "block_conditions",
        block_conditions,
        block_conditions_grad,
        &points,
    );
}

/// A block whose value is an integer, used as an exponent and as a loop bound.
#[differentiable]
fn block_integers(x: f64) -> f64 {
    let mut s = x;
    let n = {
        let k: usize = 2;
        k + 1
    };
    for i in 0..n {
        s += x.powi({
            let j = i as i32;
            j + 1
        });
    }
    s
}

#[test]
fn blocks_whose_value_is_an_integer() {
    check1(
        "block_integers",
        block_integers,
        block_integers_grad,
        &[0.5, -1.25, 2.0],
    );
}
