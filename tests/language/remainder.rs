//! `%` on floats (issue 25): ∂(a % b)/∂a = 1, ∂/∂b = -trunc(a / b), as PyTorch's `fmod`, and
//! `%=`; against central differences away from the jumps, the value bit for bit `f`'s, in
//! every flavour.

use crate::common;

use common::{assert_near, check2};
use micrograd_runtime::prelude::*;

#[differentiable(hessian)]
fn wrapped(x: f64, y: f64) -> f64 {
    let phase = (x * 3.0) % y;
    let mut s = phase * phase + x;
    s %= 2.5 + y;
    s
}

#[differentiable]
fn angle(x: f64) -> f64 {
    (x % std::f64::consts::TAU).sin()
}

#[test]
fn remainder_against_central_differences() {
    let points = [[0.7, 1.3], [-2.2, 0.9], [4.1, -1.7], [1.45, 3.0]];
    check2("wrapped", wrapped, wrapped_grad, &points);
    for [x, y] in points {
        let (value, hessian) = wrapped_hessian(x, y);
        assert_eq!(value.to_bits(), wrapped(x, y).to_bits());
        let (value, tangent) = wrapped_jvp(x, 1.0, y, -0.5);
        assert_eq!(value.to_bits(), wrapped(x, y).to_bits());
        let (_, dx, dy) = wrapped_grad(x, y);
        assert_near("wrapped jvp", tangent, dx - 0.5 * dy, 1e-12);
        // Away from the jumps `phase` is x * 3 - q y for a constant q, so H is that of phase².
        let q = ((x * 3.0) / y).trunc();
        let expected = [[18.0, -6.0 * q], [-6.0 * q, 2.0 * q * q]];
        for i in 0..2 {
            for j in 0..2 {
                assert_near("wrapped hessian", hessian[i][j], expected[i][j], 1e-9);
            }
        }
    }
    for x in [-7.0, 0.3, 12.5] {
        let (value, d) = angle_grad(x);
        assert_eq!(value.to_bits(), angle(x).to_bits());
        assert_near("angle", d, (x % std::f64::consts::TAU).cos(), 1e-12);
    }
}

/// A remainder of two typed literals, then a method on it, in a condition's right operand:
/// it compiles only if the generated code keeps the literal's type (`let t0 = -2.75 % -2.25;`
/// alone is an ambiguous `{float}` whose `tanh` does not resolve).
#[differentiable(hvp)]
fn literal_remainder(a: f64) -> f64 {
    let mut s = a;
    if a > 10.0 || (-2.75_f64 % -2.25_f64).tanh() * 3.0 < a {
        s *= a;
    }
    s
}

#[test]
fn a_remainder_of_literals_keeps_its_type() {
    for a in [-1.0, 0.5, 12.0] {
        let (value, d_a) = literal_remainder_grad(a);
        assert_eq!(value.to_bits(), literal_remainder(a).to_bits());
        let expected = if a > 10.0 || (-0.5_f64).tanh() * 3.0 < a {
            2.0 * a
        } else {
            1.0
        };
        assert_near("literal_remainder", d_a, expected, 1e-12);
    }
}
