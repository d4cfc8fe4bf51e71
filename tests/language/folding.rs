//! The reverse sweep's linear folding (micrograd-codegen/src/diff/linear.rs): adjoints summed
//! once with like terms collected, copies and constant multiples written in terms of the
//! adjoint they copy, and terms of one adjoint sharing it. The gradients it writes must be the
//! chain rule's, at ordinary points and where infinities and NaN meet cancelling terms.

use crate::common;

use common::{assert_gradient, assert_near};
use micrograd_runtime::prelude::*;

/// `c - c`: the two contributions to `d_c` cancel to `d_c * 0.0`, not to a bare `0.0`.
#[differentiable]
#[allow(clippy::eq_op)] // the point: two contributions that cancel
fn cancel(a: f64, b: f64) -> f64 {
    let c = a * b;
    c - c
}

/// `4x` reached as `x + 3x`, then scaled twice: constant multiples of one adjoint.
#[differentiable]
fn multiples(x: f64) -> f64 {
    let mut y = x + 3.0 * x;
    y += y * 2.0;
    -y / 4.0
}

/// A relu and a product that share one adjoint: the relu's kink stays a choice on its input's
/// sign, beside the product's term.
#[differentiable]
fn relu_and_product(a: f64, k: f64) -> f64 {
    let s = a * k;
    (s.relu() + s * 2.0) * k
}

/// More contributions to one adjoint than the folding sums in one expression.
#[differentiable]
fn many_uses(x: f64) -> f64 {
    let mut s = 0.0;
    s += x * 1.0;
    s += x * 2.0;
    s += x.sin();
    s += x * x;
    s += x.exp();
    s += x * 3.0;
    s += x.tanh();
    s += x * 4.0;
    s += x.cos();
    s += x * 5.0;
    s += x.sqrt();
    s += x * 6.0;
    s += x.ln();
    s += x * 7.0;
    s += x.abs();
    s += x * 8.0;
    s += x.cbrt();
    s += x * 9.0;
    s += x.atan();
    s += x * 10.0;
    s
}

#[test]
fn cancelling_terms_are_zero_and_keep_infinities() {
    assert_eq!(cancel_grad(3.0, 5.0), (0.0, 0.0, 0.0));
    // d_c = 1 - 1 = 0, then d_a = d_c * b = 0 * inf = NaN: PyTorch float64 gives the same.
    let (_, d_a, d_b) = cancel_grad(3.0, f64::INFINITY);
    assert!(d_a.is_nan(), "d_a = {d_a}");
    assert_eq!(d_b, 0.0);
}

#[test]
fn constant_multiples_fold_to_the_closed_form() {
    // y = 4x, then y + 2y = 12x, and -12x / 4 = -3x.
    for x in [-2.0, 0.0, 0.7, 1e300] {
        let (value, d_x) = multiples_grad(x);
        assert_eq!(value, multiples(x));
        assert_eq!(d_x, -3.0);
    }
}

#[test]
fn a_dead_relu_passes_back_zero_beside_a_shared_adjoint() {
    // s = a k = -2 < 0: f = 2 s k = 2 a k², df/da = 2 k², df/dk = 4 a k.
    let (value, d_a, d_k) = relu_and_product_grad(-1.0, 2.0);
    assert_eq!(value, relu_and_product(-1.0, 2.0));
    assert_eq!((d_a, d_k), (8.0, -8.0));
    // s > 0: f = 3 s k = 3 a k², df/da = 3 k², df/dk = 6 a k.
    assert_eq!(relu_and_product_grad(1.0, 2.0).1, 12.0);
    assert_gradient(
        "relu_and_product",
        |p| relu_and_product(p[0], p[1]),
        &[0.3, -1.7],
        &{
            let (_, d_a, d_k) = relu_and_product_grad(0.3, -1.7);
            [d_a, d_k]
        },
    );
}

#[test]
fn long_accumulations_match_finite_differences() {
    for x in [0.3, 1.1, 2.5] {
        let (value, d_x) = many_uses_grad(x);
        assert_eq!(value, many_uses(x));
        let h = 1e-6;
        let reference = (many_uses(x + h) - many_uses(x - h)) / (2.0 * h);
        assert_near("many_uses", d_x, reference, 1e-6);
    }
}
