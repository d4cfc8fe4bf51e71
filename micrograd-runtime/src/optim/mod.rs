//! Gradient-descent optimizers on flat slices: all parameters in one `&mut [f64]`, their
//! gradients in one `&[f64]` of the same length.
//!
//! micrograd's training loop, `p.data -= learning_rate * p.grad` with
//! `learning_rate = 1.0 - 0.9 * k / 100`:
//!
//! ```
//! use micrograd_runtime::optim::{Optimizer, Schedule, Sgd};
//!
//! let mut sgd = Sgd::with_schedule(Schedule::Linear { start: 1.0, end: 0.1, steps: 100 });
//! let mut w = [3.0];
//! for _ in 0..100 {
//!     let grad = [2.0 * w[0]]; // d(w^2)/dw
//!     sgd.step(&mut w, &grad);
//! }
//! assert!(w[0].abs() < 1e-12);
//! ```

mod adam;

pub use adam::Adam;

/// One update rule: moves parameters against their gradients, one step per call.
///
/// An optimizer with state (velocities, moment estimates) serves one parameter vector: its
/// state is sized on the first `step` and every later `step` must pass the same length.
///
/// ```
/// use micrograd_runtime::optim::{Adam, Momentum, Optimizer, Sgd};
///
/// let optimizers: Vec<Box<dyn Optimizer>> =
///     vec![Box::new(Sgd::new(0.1)), Box::new(Momentum::new(0.1, 0.9)), Box::new(Adam::default())];
/// for mut optimizer in optimizers {
///     let mut w = [1.0, -1.0];
///     optimizer.step(&mut w, &[1.0, -1.0]);
///     assert!(w[0] < 1.0 && w[1] > -1.0);
/// }
/// ```
pub trait Optimizer {
    /// Updates `params` from `grads` (entry `i` of `grads` is d loss / d `params[i]`).
    ///
    /// ```
    /// use micrograd_runtime::optim::{Momentum, Optimizer};
    ///
    /// let mut momentum = Momentum::new(0.1, 0.9);
    /// let mut w = [1.0, 2.0];
    /// momentum.step(&mut w, &[1.0, -1.0]);
    /// assert_eq!(w, [0.9, 2.1]);
    /// ```
    ///
    /// # Panics
    /// If the lengths differ ("grads has 5 entries but params has 6"), or differ from the
    /// length of earlier steps for an optimizer with state.
    fn step(&mut self, params: &mut [f64], grads: &[f64]);

    /// The learning rate the next `step` uses.
    ///
    /// ```
    /// use micrograd_runtime::optim::{Adam, Optimizer};
    ///
    /// assert_eq!(Adam::default().learning_rate(), 1e-3);
    /// ```
    fn learning_rate(&self) -> f64;

    /// Sets the learning rate of every later `step`, keeping the optimizer's state (velocities,
    /// moment estimates, step count), as candle's `Optimizer::set_learning_rate` does: the
    /// hook for a schedule of one's own, or for a rate found by a search. An [`Sgd`] following a
    /// [`Schedule`] keeps this constant rate from now on.
    ///
    /// ```
    /// use micrograd_runtime::optim::{Adam, Optimizer};
    ///
    /// let mut adam = Adam::new(0.1);
    /// let mut w = [1.0];
    /// for k in 0..10 {
    ///     adam.set_learning_rate(0.1 / (1.0 + k as f64)); // 1/t decay
    ///     let grad = [2.0 * w[0]]; // d/dw of w²
    ///     adam.step(&mut w, &grad);
    /// }
    /// assert_eq!(adam.learning_rate(), 0.01);
    /// assert!(w[0] < 1.0);
    /// ```
    ///
    /// # Panics
    /// If `learning_rate` is negative, infinite or NaN.
    fn set_learning_rate(&mut self, learning_rate: f64);
}

/// A learning rate as a function of the step number `k` (0 for the first step).
///
/// ```
/// use micrograd_runtime::optim::Schedule;
///
/// let micrograd = Schedule::Linear { start: 1.0, end: 0.1, steps: 100 };
/// assert_eq!(micrograd.rate(50), 1.0 - 0.9 * 50.0 / 100.0);
/// assert_eq!(micrograd.rate(500), 0.1);
/// assert_eq!(Schedule::Constant(0.05).rate(7), 0.05);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Schedule {
    /// The same rate at every step.
    Constant(f64),
    /// `start - (start - end) * k / steps` for `k < steps`, then `end`.
    Linear {
        /// The rate at step 0.
        start: f64,
        /// The rate the schedule approaches, and keeps from step `steps` on.
        end: f64,
        /// The number of steps the decay lasts.
        steps: usize,
    },
}

impl Schedule {
    /// The learning rate of step `k`.
    ///
    /// ```
    /// use micrograd_runtime::optim::Schedule;
    ///
    /// let decay = Schedule::Linear { start: 1.0, end: 0.0, steps: 4 };
    /// assert_eq!([0, 1, 2, 3, 4].map(|k| decay.rate(k)), [1.0, 0.75, 0.5, 0.25, 0.0]);
    /// ```
    pub fn rate(&self, k: usize) -> f64 {
        match *self {
            Schedule::Constant(rate) => rate,
            Schedule::Linear { end, steps, .. } if k >= steps => end,
            // Same operation order as micrograd's `1.0 - 0.9*k/100`, so the rates agree to the bit.
            Schedule::Linear { start, end, steps } => {
                start - (start - end) * k as f64 / steps as f64
            }
        }
    }
}

/// Plain gradient descent, `p -= rate(k) * g`, with the rate from a [`Schedule`].
///
/// ```
/// use micrograd_runtime::optim::{Optimizer, Sgd};
///
/// let mut sgd = Sgd::new(0.5);
/// let mut w = [1.0, 2.0];
/// sgd.step(&mut w, &[2.0, -2.0]);
/// assert_eq!(w, [0.0, 3.0]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Sgd {
    schedule: Schedule,
    k: usize,
}

impl Sgd {
    /// Gradient descent with a constant learning rate.
    ///
    /// ```
    /// use micrograd_runtime::optim::{Optimizer, Sgd};
    ///
    /// assert_eq!(Sgd::new(0.1).learning_rate(), 0.1);
    /// ```
    ///
    /// # Panics
    /// If `learning_rate` is negative, infinite or NaN.
    #[track_caller]
    pub fn new(learning_rate: f64) -> Self {
        Sgd::with_schedule(Schedule::Constant(learning_rate))
    }

    /// Gradient descent whose learning rate follows `schedule`; each `step` advances it.
    ///
    /// ```
    /// use micrograd_runtime::optim::{Optimizer, Schedule, Sgd};
    ///
    /// let mut sgd = Sgd::with_schedule(Schedule::Linear { start: 1.0, end: 0.1, steps: 100 });
    /// sgd.step(&mut [0.0], &[0.0]);
    /// assert_eq!(sgd.learning_rate(), 1.0 - 0.9 * 1.0 / 100.0);
    /// ```
    ///
    /// # Panics
    /// If a rate of the schedule (`start`, `end` or the constant) is negative, infinite or NaN.
    #[track_caller]
    pub fn with_schedule(schedule: Schedule) -> Self {
        match schedule {
            Schedule::Constant(rate) => check_rate("learning_rate", rate),
            Schedule::Linear { start, end, .. } => {
                check_rate("start", start);
                check_rate("end", end);
            }
        }
        Sgd { schedule, k: 0 }
    }
}

impl Optimizer for Sgd {
    #[track_caller]
    fn step(&mut self, params: &mut [f64], grads: &[f64]) {
        check_lengths(params, grads);
        let rate = self.learning_rate();
        for (p, g) in params.iter_mut().zip(grads) {
            *p -= rate * g;
        }
        self.k = self.k.saturating_add(1);
    }

    fn learning_rate(&self) -> f64 {
        self.schedule.rate(self.k)
    }

    #[track_caller]
    fn set_learning_rate(&mut self, learning_rate: f64) {
        check_rate("learning_rate", learning_rate);
        self.schedule = Schedule::Constant(learning_rate);
    }
}

/// Classical momentum as in PyTorch: `v = momentum * v + g`, then `p -= learning_rate * v`.
///
/// ```
/// use micrograd_runtime::optim::{Momentum, Optimizer};
///
/// let mut optimizer = Momentum::new(0.5, 0.9);
/// let mut w = [0.0];
/// optimizer.step(&mut w, &[1.0]); // v = 1
/// optimizer.step(&mut w, &[1.0]); // v = 0.9 * 1 + 1
/// assert_eq!(w, [-0.5 - 0.5 * 1.9]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Momentum {
    learning_rate: f64,
    momentum: f64,
    velocity: Vec<f64>,
}

impl Momentum {
    /// Momentum descent; `momentum` is the fraction of the velocity kept from step to step.
    ///
    /// ```
    /// use micrograd_runtime::optim::{Momentum, Optimizer};
    ///
    /// assert_eq!(Momentum::new(0.01, 0.9).learning_rate(), 0.01);
    /// ```
    ///
    /// # Panics
    /// If `learning_rate` is negative, infinite or NaN, or `momentum` is outside `[0, 1)`.
    #[track_caller]
    pub fn new(learning_rate: f64, momentum: f64) -> Self {
        check_rate("learning_rate", learning_rate);
        check_fraction("momentum", momentum);
        Momentum {
            learning_rate,
            momentum,
            velocity: Vec::new(),
        }
    }
}

impl Optimizer for Momentum {
    #[track_caller]
    fn step(&mut self, params: &mut [f64], grads: &[f64]) {
        check_lengths(params, grads);
        let velocity = state(&mut self.velocity, params.len(), "velocity");
        for ((p, g), v) in params.iter_mut().zip(grads).zip(velocity) {
            *v = self.momentum * *v + g;
            *p -= self.learning_rate * *v;
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

#[track_caller]
fn check_lengths(params: &[f64], grads: &[f64]) {
    assert!(
        grads.len() == params.len(),
        "grads has {} entries but params has {}",
        grads.len(),
        params.len()
    );
}

#[track_caller]
fn check_rate(name: &str, rate: f64) {
    // `rate >= 0.0` is false for NaN as well.
    assert!(
        rate >= 0.0 && rate.is_finite(),
        "{name} must be finite and >= 0, got {rate}"
    );
}

#[track_caller]
fn check_fraction(name: &str, fraction: f64) {
    assert!(
        (0.0..1.0).contains(&fraction),
        "{name} must lie in [0, 1), got {fraction}"
    );
}

/// Per-parameter state, zero until the first step fixes its length.
#[track_caller]
fn state<'a>(values: &'a mut Vec<f64>, len: usize, name: &str) -> &'a mut [f64] {
    if values.is_empty() {
        values.resize(len, 0.0);
    }
    assert!(
        values.len() == len,
        "params has {len} entries but the optimizer's {name} has {}: \
         an optimizer with state serves one parameter vector",
        values.len()
    );
    values
}
