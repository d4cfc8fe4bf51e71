//! Losses of one prediction, each a `#[differentiable]` function, and L2 regularization.
//!
//! ```
//! use micrograd_runtime::loss::{hinge, hinge_grad};
//!
//! assert_eq!(hinge(0.25, 1.0), 0.75); // (1 - y · score).relu()
//! assert_eq!(hinge_grad(0.25, 1.0), (0.75, -1.0));
//! ```

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

/// A loss of one prediction against its label.
///
/// ```
/// use micrograd_runtime::loss::{Loss, hinge_grad};
///
/// assert_eq!(Loss::Hinge.grad(0.25, 1.0), hinge_grad(0.25, 1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// [`hinge`], micrograd's demo loss; labels -1 or +1.
    Hinge,
    /// [`logistic`]; labels -1 or +1.
    Logistic,
    /// [`squared_error`]; any finite target.
    Squared,
}

impl Loss {
    /// The loss and its derivative with respect to the score.
    ///
    /// ```
    /// use micrograd_runtime::loss::Loss;
    ///
    /// assert_eq!(Loss::Squared.grad(3.0, 1.0), (4.0, 4.0));
    /// ```
    pub fn grad(self, score: f64, label: f64) -> (f64, f64) {
        match self {
            Loss::Hinge => hinge_grad(score, label),
            Loss::Logistic => logistic_grad(score, label),
            Loss::Squared => squared_error_grad(score, label),
        }
    }

    /// Its code in the generated network functions (`dense::point_loss`).
    pub(crate) fn code(self) -> usize {
        match self {
            Loss::Hinge => 0,
            Loss::Logistic => 1,
            Loss::Squared => 2,
        }
    }

    /// Checks that every label suits this loss.
    ///
    /// ```should_panic
    /// use micrograd_runtime::loss::Loss;
    ///
    /// Loss::Squared.check_labels(&[0.5, 2.0]); // any finite target
    /// Loss::Hinge.check_labels(&[1.0, 0.0]); // panics: "Hinge loss: label 1 is 0, expected .."
    /// ```
    ///
    /// # Panics
    /// On the first label it does not accept, naming its index and value.
    pub fn check_labels(self, labels: &[f64]) {
        for (i, label) in labels.iter().enumerate() {
            self.check_label(i, *label);
        }
    }

    /// Checks label number `i`.
    pub(crate) fn check_label(self, i: usize, label: f64) {
        let accepted = match self {
            Loss::Hinge | Loss::Logistic => label == 1.0 || label == -1.0,
            Loss::Squared => label.is_finite(),
        };
        assert!(
            accepted,
            "{self:?} loss: label {i} is {label}, expected {}",
            self.expected()
        );
    }

    fn expected(self) -> &'static str {
        match self {
            Loss::Hinge | Loss::Logistic => "-1 or +1",
            Loss::Squared => "a finite number",
        }
    }
}
