//! The losses, each a `#[differentiable]` function. Private: `loss` re-exports them with what
//! the attribute generates, and gives the generated `_grad` and `_pullback` their examples on
//! the re-exports (the attribute writes their documentation, without one).

use crate::prelude::*;

/// micrograd's max-margin loss `(1 - y · score).relu()`, for labels -1 and +1.
///
/// ```
/// use micrograd_runtime::loss::hinge;
///
/// assert_eq!(hinge(2.0, 1.0), 0.0); // beyond the margin: no loss
/// assert_eq!(hinge(0.5, -1.0), 1.5);
/// ```
#[differentiable(wrt(score))]
pub fn hinge(score: f64, label: f64) -> f64 {
    (1.0 - label * score).relu()
}

/// The logistic loss `ln(1 + e^(-y · score))`, for labels -1 and +1.
///
/// ```
/// use micrograd_runtime::loss::{logistic, logistic_grad};
///
/// assert_eq!(logistic(0.0, 1.0), 2.0f64.ln());
/// assert_eq!(logistic_grad(0.0, 1.0), (2.0f64.ln(), -0.5)); // -y · sigmoid(-y · score)
/// assert!(logistic(-800.0, 1.0).is_finite()); // no overflow far from the margin
/// ```
#[differentiable(wrt(score))]
pub fn logistic(score: f64, label: f64) -> f64 {
    let margin = label * score;
    if margin > 0.0 {
        (-margin).exp().ln_1p()
    } else {
        (margin.exp().ln_1p()) - margin
    }
}

/// The squared error `(prediction - target)²`.
///
/// ```
/// use micrograd_runtime::loss::{squared_error, squared_error_grad};
///
/// assert_eq!(squared_error(3.0, 1.0), 4.0);
/// assert_eq!(squared_error_grad(3.0, 1.0), (4.0, 4.0)); // 2 (prediction - target)
/// ```
#[differentiable(wrt(prediction))]
pub fn squared_error(prediction: f64, target: f64) -> f64 {
    (prediction - target).powi(2)
}

/// The sum of squares `Σ wᵢ²` (L2 regularization, as micrograd's `sum(p*p)`).
///
/// ```
/// use micrograd_runtime::loss::{sum_of_squares, sum_of_squares_grad};
///
/// let mut d_w = [0.0; 2];
/// assert_eq!(sum_of_squares_grad(&[3.0, -4.0], &mut d_w), 25.0);
/// assert_eq!((sum_of_squares(&[3.0, -4.0]), d_w), (25.0, [6.0, -8.0]));
/// ```
#[differentiable]
pub fn sum_of_squares(w: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..w.len() {
        sum += w[i] * w[i];
    }
    sum
}
