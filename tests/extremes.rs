//! Arguments at the edges of their types, where `f` is fine, must leave `f_grad` fine too.
#![deny(warnings)]

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
