//! Adam, the optimizer with per-parameter step sizes from moment estimates.

use super::{Optimizer, check_fraction, check_lengths, check_rate, state};

/// Adam (Kingma & Ba, 2015) with bias correction: at step `t` (from 1),
/// `m = b1 m + (1 - b1) g`, `v = b2 v + (1 - b2) g^2`,
/// `p -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)`.
///
/// ```
/// use micrograd_runtime::optim::{Adam, Optimizer};
///
/// // The first step moves each parameter by about `lr`, whatever the gradient's size.
/// let mut adam = Adam::new(0.1);
/// let mut w = [0.0, 0.0];
/// adam.step(&mut w, &[1000.0, -0.001]);
/// assert!((w[0] + 0.1).abs() < 1e-6 && (w[1] - 0.1).abs() < 1e-5);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Adam {
    learning_rate: f64,
    beta1: f64,
    beta2: f64,
    epsilon: f64,
    /// `b1^t` and `b2^t`, kept as running products for the bias correction.
    beta_powers: (f64, f64),
    first_moment: Vec<f64>,
    second_moment: Vec<f64>,
}

impl Adam {
    /// Adam with learning rate `learning_rate`, betas 0.9 / 0.999 and epsilon 1e-8.
    ///
    /// ```
    /// use micrograd_runtime::optim::{Adam, Optimizer};
    ///
    /// assert_eq!(Adam::new(0.01).learning_rate(), 0.01);
    /// ```
    ///
    /// # Panics
    /// If `learning_rate` is negative, infinite or NaN.
    #[track_caller]
    pub fn new(learning_rate: f64) -> Self {
        check_rate("learning_rate", learning_rate);
        Adam {
            learning_rate,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            beta_powers: (1.0, 1.0),
            first_moment: Vec::new(),
            second_moment: Vec::new(),
        }
    }

    /// The same optimizer with decay rates `beta1` (gradient mean) and `beta2` (its square).
    ///
    /// ```
    /// let adam = micrograd_runtime::optim::Adam::new(0.01).with_betas(0.8, 0.99);
    /// ```
    ///
    /// # Panics
    /// If a beta is outside `[0, 1)`.
    #[track_caller]
    pub fn with_betas(self, beta1: f64, beta2: f64) -> Self {
        check_fraction("beta1", beta1);
        check_fraction("beta2", beta2);
        Adam {
            beta1,
            beta2,
            ..self
        }
    }

    /// The same optimizer with `epsilon`, the term that keeps the step finite where the
    /// second moment is 0.
    ///
    /// ```
    /// let adam = micrograd_runtime::optim::Adam::default().with_epsilon(1e-6);
    /// ```
    ///
    /// # Panics
    /// If `epsilon` is not positive and finite.
    #[track_caller]
    pub fn with_epsilon(self, epsilon: f64) -> Self {
        assert!(
            epsilon > 0.0 && epsilon.is_finite(),
            "epsilon must be positive and finite, got {epsilon}"
        );
        Adam { epsilon, ..self }
    }
}

impl Default for Adam {
    /// Adam with PyTorch's defaults: learning rate 1e-3, betas 0.9 / 0.999, epsilon 1e-8.
    ///
    /// ```
    /// use micrograd_runtime::optim::{Adam, Optimizer};
    ///
    /// assert_eq!(Adam::default().learning_rate(), 1e-3);
    /// ```
    fn default() -> Self {
        Adam::new(1e-3)
    }
}

impl Optimizer for Adam {
    #[track_caller]
    fn step(&mut self, params: &mut [f64], grads: &[f64]) {
        check_lengths(params, grads);
        let (b1, b2) = (self.beta1, self.beta2);
        self.beta_powers = (self.beta_powers.0 * b1, self.beta_powers.1 * b2);
        let (correction1, correction2) = (1.0 - self.beta_powers.0, 1.0 - self.beta_powers.1);
        let m = state(&mut self.first_moment, params.len(), "first moment");
        let v = state(&mut self.second_moment, params.len(), "second moment");
        for (((p, g), m), v) in params.iter_mut().zip(grads).zip(m).zip(v) {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let m_hat = *m / correction1;
            let v_hat = *v / correction2;
            *p -= self.learning_rate * m_hat / (v_hat.sqrt() + self.epsilon);
        }
    }

    fn learning_rate(&self) -> f64 {
        self.learning_rate
    }

    #[track_caller]
    fn set_learning_rate(&mut self, learning_rate: f64) {
        check_rate("learning_rate", learning_rate);
        self.learning_rate = learning_rate;
    }
}
