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
#[differentiable(wrt(score))]
pub fn hinge(score: f64, label: f64) -> f64 {
    (1.0 - label * score).relu()
}

/// The logistic loss `ln(1 + e^(-y · score))`, for labels -1 and +1.
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
#[differentiable(wrt(prediction))]
pub fn squared_error(prediction: f64, target: f64) -> f64 {
    (prediction - target).powi(2)
}

/// The sum of squares `Σ wᵢ²` (L2 regularization, as micrograd's `sum(p*p)`).
#[differentiable]
pub fn sum_of_squares(w: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..w.len() {
        sum += w[i] * w[i];
    }
    sum
}

/// A loss of one prediction against its label.
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
