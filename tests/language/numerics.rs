//! Edge cases against PyTorch float64's conventions (its `derivatives.yaml` formulas):
//! infinities and NaN propagate, saturation gives 0 rather than NaN, kinks and ties as PyTorch.

use micrograd_runtime::prelude::*;

#[differentiable]
fn exp(x: f64) -> f64 {
    x.exp()
}

#[differentiable]
fn ln(x: f64) -> f64 {
    x.ln()
}

#[differentiable]
fn sqrt(x: f64) -> f64 {
    x.sqrt()
}

#[differentiable]
fn inverse_square(x: f64) -> f64 {
    x.powi(-2)
}

#[differentiable]
fn power(x: f64, n: i32) -> f64 {
    x.powi(n)
}

#[differentiable]
fn tanh(x: f64) -> f64 {
    x.tanh()
}

#[differentiable]
fn sigmoid(x: f64) -> f64 {
    x.sigmoid()
}

#[differentiable]
fn divide(a: f64, b: f64) -> f64 {
    a / b
}

#[differentiable]
fn relu(x: f64) -> f64 {
    x.relu()
}

#[differentiable]
fn abs(x: f64) -> f64 {
    x.abs()
}

#[differentiable]
fn max(a: f64, b: f64) -> f64 {
    a.max(b)
}

#[differentiable]
fn min(a: f64, b: f64) -> f64 {
    a.min(b)
}

#[differentiable]
fn powf(a: f64, b: f64) -> f64 {
    a.powf(b)
}

#[test]
fn exp_overflows_to_infinity_in_value_and_gradient() {
    assert_eq!(exp_grad(1000.0), (f64::INFINITY, f64::INFINITY));
    assert_eq!(exp_grad(-1000.0), (0.0, 0.0));
}

#[test]
fn ln_of_zero_is_minus_infinity_with_infinite_gradient() {
    assert_eq!(ln_grad(0.0), (f64::NEG_INFINITY, f64::INFINITY));
    let (value, d) = ln_grad(-1.0);
    assert!(
        value.is_nan() && d == -1.0,
        "ln(-1): PyTorch gives nan with gradient 1/x = -1"
    );
}

#[test]
fn sqrt_of_zero_has_infinite_gradient() {
    assert_eq!(sqrt_grad(0.0), (0.0, f64::INFINITY));
}

#[test]
fn negative_powers_at_zero_are_infinite() {
    assert_eq!(inverse_square_grad(0.0), (f64::INFINITY, f64::NEG_INFINITY));
    assert_eq!(power_grad(0.0, -3), (f64::INFINITY, f64::NEG_INFINITY));
    assert_eq!(power_grad(0.0, -2), (f64::INFINITY, f64::NEG_INFINITY));
    assert_eq!(
        power_grad(0.0, 0),
        (1.0, 0.0),
        "x^0: PyTorch's gradient is 0, not 0 * 0^-1"
    );
}

#[test]
fn saturated_tanh_and_sigmoid_give_zero_gradient_never_nan() {
    for x in [50.0, 1000.0, f64::INFINITY] {
        assert_eq!(tanh_grad(x), (1.0, 0.0));
        assert_eq!(tanh_grad(-x), (-1.0, 0.0));
    }
    for x in [1000.0, f64::INFINITY] {
        assert_eq!(sigmoid_grad(x), (1.0, 0.0));
        assert_eq!(sigmoid_grad(-x), (0.0, 0.0));
    }
}

#[test]
fn division_by_zero_follows_ieee() {
    let (value, d_a, d_b) = divide_grad(1.0, 0.0);
    assert_eq!(
        (value, d_a, d_b),
        (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY)
    );
    let (value, d_a, d_b) = divide_grad(0.0, 0.0);
    assert!(value.is_nan() && d_a == f64::INFINITY && d_b.is_nan());
}

#[test]
fn nan_propagates_through_value_and_gradient() {
    let nan = f64::NAN;
    for (value, d) in [
        exp_grad(nan),
        ln_grad(nan),
        sqrt_grad(nan),
        tanh_grad(nan),
        abs_grad(nan),
    ] {
        assert!(value.is_nan() && d.is_nan());
    }
    let (value, d) = relu_grad(nan);
    assert!(value.is_nan());
    assert_eq!(
        d, 1.0,
        "PyTorch's threshold_backward passes the gradient where the result is not <= 0"
    );
}

#[test]
fn kinks_follow_pytorch() {
    assert_eq!(relu_grad(0.0), (0.0, 0.0));
    assert_eq!(relu_grad(-0.0), (0.0, 0.0));
    assert_eq!(relu_grad(2.0), (2.0, 1.0));
    assert_eq!(relu_grad(-2.0), (0.0, 0.0));
    assert_eq!(abs_grad(0.0), (0.0, 0.0));
    assert_eq!(abs_grad(-0.0), (0.0, 0.0));
    assert_eq!(abs_grad(-3.0), (3.0, -1.0));
    assert_eq!(abs_grad(3.0), (3.0, 1.0));
}

#[test]
fn max_and_min_split_ties_and_skip_nan_like_f64_max() {
    assert_eq!(max_grad(1.0, 1.0), (1.0, 0.5, 0.5));
    assert_eq!(min_grad(1.0, 1.0), (1.0, 0.5, 0.5));
    assert_eq!(max_grad(2.0, 1.0), (2.0, 1.0, 0.0));
    assert_eq!(max_grad(1.0, 2.0), (2.0, 0.0, 1.0));
    assert_eq!(min_grad(2.0, 1.0), (1.0, 0.0, 1.0));
    // f64::max returns the operand that is not NaN; the gradient goes to it (PyTorch's fmax).
    assert_eq!(max_grad(f64::NAN, 2.0), (2.0, 0.0, 1.0));
    assert_eq!(max_grad(2.0, f64::NAN), (2.0, 1.0, 0.0));
    assert_eq!(min_grad(f64::NAN, 2.0), (2.0, 0.0, 1.0));
}

#[test]
fn powf_masks_like_pytorch() {
    // d/da a^b at b = 0 is 0 (not 0 * a^-1); d/db at a = 0, b >= 0 is 0 (not y * ln 0).
    assert_eq!(powf_grad(0.0, 0.0), (1.0, 0.0, 0.0));
    assert_eq!(powf_grad(0.0, 2.0), (0.0, 0.0, 0.0));
    let (value, d_a, d_b) = powf_grad(2.0, 3.0);
    assert_eq!(value, 8.0);
    assert_eq!(d_a, 12.0);
    assert!((d_b - 8.0 * 2f64.ln()).abs() < 1e-15);
}
