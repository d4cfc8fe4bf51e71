//! micrograd's training loop, with observers: each step's loss, accuracy and time, as it happens.
//!
//! A [`Trainer`] runs full-batch steps of an [`Optimizer`] on [`Mlp::train_loss`] (micrograd's
//! loss: the mean of a [`Loss`] over the data plus `alpha · Σ p²`) and tells every observer
//! about each step right after it, in the spirit of argmin's `Executor::add_observer`: an
//! observer is anything that implements [`Observe`], closures included. It returns the
//! [`History`] of the run. The loop is the one micrograd's notebook writes, and the numbers are
//! the same as a loop written with `train_loss` and `Optimizer::step` by hand.
//!
//! ```
//! use micrograd_runtime::data::make_moons;
//! use micrograd_runtime::loss::Loss;
//! use micrograd_runtime::nn::{Activation, Mlp};
//! use micrograd_runtime::optim::{Schedule, Sgd};
//! use micrograd_runtime::training::{Step, Trainer};
//!
//! let moons = make_moons(100, 0.1, 1337);
//! let mut model = Mlp::new(2, &[16, 16, 1], Activation::Relu, 1337);
//! let sgd = Sgd::with_schedule(Schedule::Linear { start: 1.0, end: 0.1, steps: 100 });
//! let mut lines = Vec::new();
//! let history = Trainer::new(Loss::Hinge, sgd)
//!     .alpha(1e-4)
//!     .steps(100)
//!     .observe(|step: &Step| lines.push(format!("step {} accuracy {:.1}%", step.step, 100.0 * step.accuracy)))
//!     .run(&mut model, &moons.points, &moons.labels);
//! assert_eq!(lines[0], "step 0 accuracy 50.0%");
//! assert_eq!(history.accuracies[99], 1.0);
//! assert!(history.losses[99] < 0.011);
//! ```

use crate::data::accuracy;
use crate::loss::Loss;
use crate::nn::{Mlp, Module};
use crate::optim::Optimizer;
use std::time::{Duration, Instant};

/// What an observer is told after each step.
///
/// ```
/// use micrograd_runtime::training::Step;
///
/// fn line(step: &Step) -> String {
///     format!(
///         "{}/{} loss {:.4} accuracy {:.1}% lr {} after {:?}",
///         step.step + 1, step.steps, step.loss, 100.0 * step.accuracy, step.learning_rate, step.elapsed
///     )
/// }
/// # let _ = line;
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Step {
    /// The step's number, from 0.
    pub step: usize,
    /// How many steps the run takes.
    pub steps: usize,
    /// The training loss at the parameters the step started from (before its update).
    pub loss: f64,
    /// The fraction of points on the right side, at the same parameters.
    pub accuracy: f64,
    /// The learning rate the step's update used.
    pub learning_rate: f64,
    /// Time since the run started, this step's update included.
    pub elapsed: Duration,
}

/// An observer of training: told about every step, in order, right after it.
///
/// Closures `FnMut(&Step)` are observers; a type of your own implements it to keep state
/// (a progress bar, a log file, early reporting).
///
/// ```
/// use micrograd_runtime::training::{Observe, Step};
///
/// /// Remembers the best accuracy seen.
/// #[derive(Default)]
/// struct Best(f64);
///
/// impl Observe for Best {
///     fn observe(&mut self, step: &Step) {
///         self.0 = self.0.max(step.accuracy);
///     }
/// }
/// # let _ = Best::default();
/// ```
pub trait Observe {
    /// Called once per step, in order, after the step's update.
    ///
    /// ```
    /// use micrograd_runtime::data::make_moons;
    /// use micrograd_runtime::loss::Loss;
    /// use micrograd_runtime::nn::{Activation, Mlp};
    /// use micrograd_runtime::optim::Sgd;
    /// use micrograd_runtime::training::{Observe, Step, Trainer};
    ///
    /// /// Counts the steps whose loss went down.
    /// struct Improving<'a> { last: f64, count: &'a mut usize }
    ///
    /// impl Observe for Improving<'_> {
    ///     fn observe(&mut self, step: &Step) {
    ///         *self.count += usize::from(step.loss < self.last);
    ///         self.last = step.loss;
    ///     }
    /// }
    ///
    /// let moons = make_moons(40, 0.1, 5);
    /// let mut model = Mlp::new(2, &[8, 1], Activation::Relu, 5);
    /// let mut count = 0;
    /// Trainer::new(Loss::Hinge, Sgd::new(0.05))
    ///     .steps(10)
    ///     .observe(Improving { last: f64::INFINITY, count: &mut count })
    ///     .run(&mut model, &moons.points, &moons.labels);
    /// assert!(count >= 1);
    /// ```
    fn observe(&mut self, step: &Step);
}

impl<F: FnMut(&Step)> Observe for F {
    fn observe(&mut self, step: &Step) {
        self(step)
    }
}

/// The loss and accuracy of every step of a run, in order.
///
/// ```
/// use micrograd_runtime::training::History;
///
/// let history = History::default();
/// assert!(history.losses.is_empty() && history.accuracies.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// The loss at the parameters each step started from.
    pub losses: Vec<f64>,
    /// The accuracy at the same parameters.
    pub accuracies: Vec<f64>,
}

/// A training run: the loss, the optimizer, the number of steps, the observers. Built with
/// [`Trainer::new`] and the setters, run with [`Trainer::run`]; see [the module](self).
///
/// ```
/// use micrograd_runtime::data::make_moons;
/// use micrograd_runtime::loss::Loss;
/// use micrograd_runtime::nn::{Activation, Mlp};
/// use micrograd_runtime::optim::Momentum;
/// use micrograd_runtime::training::Trainer;
///
/// let moons = make_moons(100, 0.1, 3);
/// let mut model = Mlp::new(2, &[16, 1], Activation::Tanh, 3);
/// let mut trainer = Trainer::new(Loss::Hinge, Momentum::new(0.05, 0.9)).alpha(1e-4).steps(50);
/// let first = trainer.run(&mut model, &moons.points, &moons.labels);
/// let second = trainer.run(&mut model, &moons.points, &moons.labels); // 50 more steps
/// assert!(second.losses[49] < first.losses[0]);
/// ```
pub struct Trainer<'o, O> {
    loss: Loss,
    optimizer: O,
    alpha: f64,
    steps: usize,
    observers: Vec<Box<dyn Observe + 'o>>,
}

impl<'o, O: Optimizer> Trainer<'o, O> {
    /// A run of 100 steps of `optimizer` on `loss`, without L2 (`alpha` 0) and without
    /// observers.
    ///
    /// ```
    /// use micrograd_runtime::loss::Loss;
    /// use micrograd_runtime::optim::{Optimizer, Sgd};
    /// use micrograd_runtime::training::Trainer;
    ///
    /// let trainer = Trainer::new(Loss::Hinge, Sgd::new(0.1));
    /// assert_eq!(trainer.optimizer().learning_rate(), 0.1);
    /// ```
    pub fn new(loss: Loss, optimizer: O) -> Self {
        Trainer {
            loss,
            optimizer,
            alpha: 0.0,
            steps: 100,
            observers: Vec::new(),
        }
    }

    /// The L2 strength: the loss adds `alpha · Σ p²` (micrograd's is `1e-4`).
    ///
    /// ```
    /// # use micrograd_runtime::{loss::Loss, optim::Sgd, training::Trainer};
    /// let trainer = Trainer::new(Loss::Hinge, Sgd::new(0.1)).alpha(1e-4);
    /// # let _ = trainer;
    /// ```
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.alpha = alpha;
        self
    }

    /// The number of full-batch steps.
    ///
    /// ```
    /// # use micrograd_runtime::{loss::Loss, optim::Sgd, training::Trainer};
    /// let trainer = Trainer::new(Loss::Hinge, Sgd::new(0.1)).steps(10);
    /// # let _ = trainer;
    /// ```
    pub fn steps(mut self, steps: usize) -> Self {
        self.steps = steps;
        self
    }

    /// Adds an observer, told about every step after those added before it.
    ///
    /// ```
    /// use micrograd_runtime::data::make_moons;
    /// use micrograd_runtime::loss::Loss;
    /// use micrograd_runtime::nn::{Activation, Mlp};
    /// use micrograd_runtime::optim::Sgd;
    /// use micrograd_runtime::training::{Step, Trainer};
    ///
    /// let moons = make_moons(50, 0.1, 1);
    /// let mut model = Mlp::new(2, &[8, 1], Activation::Relu, 1);
    /// let mut seen = Vec::new();
    /// Trainer::new(Loss::Hinge, Sgd::new(0.5))
    ///     .steps(3)
    ///     .observe(|step: &Step| println!("step {} loss {:.4}", step.step, step.loss))
    ///     .observe(|step: &Step| seen.push(step.step))
    ///     .run(&mut model, &moons.points, &moons.labels);
    /// assert_eq!(seen, [0, 1, 2]);
    /// ```
    pub fn observe(mut self, observer: impl Observe + 'o) -> Self {
        self.observers.push(Box::new(observer));
        self
    }

    /// The optimizer, with its state after the steps run so far.
    ///
    /// ```
    /// # use micrograd_runtime::{loss::Loss, optim::{Optimizer, Sgd}, training::Trainer};
    /// assert_eq!(Trainer::new(Loss::Hinge, Sgd::new(0.3)).optimizer().learning_rate(), 0.3);
    /// ```
    pub fn optimizer(&self) -> &O {
        &self.optimizer
    }

    /// Runs the steps on `model`: each one zeroes the gradients, adds those of the training
    /// loss at the current parameters ([`Mlp::train_loss`]), steps the optimizer in place, and
    /// tells the observers. Allocates nothing per step once the first has run.
    ///
    /// ```
    /// use micrograd_runtime::data::make_moons;
    /// use micrograd_runtime::loss::Loss;
    /// use micrograd_runtime::nn::{Activation, Mlp};
    /// use micrograd_runtime::optim::Adam;
    /// use micrograd_runtime::training::Trainer;
    ///
    /// let moons = make_moons(100, 0.1, 2);
    /// let mut model = Mlp::new(2, &[8, 8, 1], Activation::Tanh, 2);
    /// let mut trainer = Trainer::new(Loss::Logistic, Adam::new(0.05)).steps(60);
    /// let history = trainer.run(&mut model, &moons.points, &moons.labels);
    /// assert!(history.losses[59] < history.losses[0] && history.accuracies[59] > 0.9);
    /// ```
    ///
    /// # Panics
    /// As [`Mlp::train_loss`]: a network of more than one output, points of the wrong size,
    /// counts of points and labels that differ, or a label that does not suit the loss.
    pub fn run<X: AsRef<[f64]> + Sync>(
        &mut self,
        model: &mut Mlp,
        points: &[X],
        labels: &[f64],
    ) -> History {
        let started = Instant::now();
        let mut scores = vec![0.0; points.len()];
        let mut history = History {
            losses: Vec::with_capacity(self.steps),
            accuracies: Vec::with_capacity(self.steps),
        };
        for k in 0..self.steps {
            model.zero_grad();
            let loss = model.train_loss_into(points, labels, self.loss, self.alpha, &mut scores);
            let accuracy = accuracy(&scores, labels);
            let learning_rate = self.optimizer.learning_rate();
            let view = model.parameters_mut();
            self.optimizer.step(view.values, view.grads);
            history.losses.push(loss);
            history.accuracies.push(accuracy);
            let step = Step {
                step: k,
                steps: self.steps,
                loss,
                accuracy,
                learning_rate,
                elapsed: started.elapsed(),
            };
            for observer in &mut self.observers {
                observer.observe(&step);
            }
        }
        history
    }
}
