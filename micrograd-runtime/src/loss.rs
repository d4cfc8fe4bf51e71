//! Losses of one prediction, each a `#[differentiable]` function, and L2 regularization.
//!
//! ```
//! use micrograd_runtime::loss::{hinge, hinge_grad};
//!
//! assert_eq!(hinge(0.25, 1.0), 0.75); // (1 - y · score).relu()
//! assert_eq!(hinge_grad(0.25, 1.0), (0.75, -1.0));
//! ```

mod functions;
pub use functions::*;

/// ```
/// use micrograd_runtime::loss::hinge_grad;
///
/// assert_eq!(hinge_grad(0.25, 1.0), (0.75, -1.0)); // inside the margin: -y
/// assert_eq!(hinge_grad(2.0, 1.0), (0.0, 0.0)); // beyond it: no gradient
/// ```
pub use functions::hinge_grad;

/// ```
/// use micrograd_runtime::loss::hinge_pullback;
///
/// // Every parameter's partial, label included: seed · (-y, -score).
/// assert_eq!(hinge_pullback(0.25, -1.0, 0.5), (0.5, -0.125));
/// ```
pub use functions::hinge_pullback;

/// ```
/// use micrograd_runtime::loss::logistic_grad;
///
/// let (value, d_score) = logistic_grad(0.0, -1.0);
/// assert_eq!((value, d_score), (2.0f64.ln(), 0.5)); // -y · sigmoid(-y · score)
/// ```
pub use functions::logistic_grad;

/// ```
/// use micrograd_runtime::loss::logistic_pullback;
///
/// let (d_score, _) = logistic_pullback(0.0, 1.0, 2.0);
/// assert_eq!(d_score, -1.0); // 2 · (-1 · sigmoid(0))
/// ```
pub use functions::logistic_pullback;

/// ```
/// use micrograd_runtime::loss::squared_error_grad;
///
/// assert_eq!(squared_error_grad(1.0, 3.0), (4.0, -4.0)); // 2 (prediction - target)
/// ```
pub use functions::squared_error_grad;

/// ```
/// use micrograd_runtime::loss::squared_error_pullback;
///
/// // seed · (2 (p - t), -2 (p - t))
/// assert_eq!(squared_error_pullback(3.0, 1.0, 0.5), (2.0, -2.0));
/// ```
pub use functions::squared_error_pullback;

/// ```
/// use micrograd_runtime::loss::sum_of_squares_grad;
///
/// let mut d_w = [0.0; 3];
/// assert_eq!(sum_of_squares_grad(&[1.0, -2.0, 0.5], &mut d_w), 5.25);
/// assert_eq!(d_w, [2.0, -4.0, 1.0]); // 2 w
/// ```
pub use functions::sum_of_squares_grad;

/// ```
/// use micrograd_runtime::loss::sum_of_squares_pullback;
///
/// // L2 regularization's gradient, scaled by its weight α = 1e-4, added into d_w.
/// let mut d_w = [1.0, 1.0];
/// sum_of_squares_pullback(&[3.0, -4.0], &mut d_w, 1e-4);
/// assert_eq!(d_w, [1.0 + 6e-4, 1.0 - 8e-4]);
/// ```
pub use functions::sum_of_squares_pullback;

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
