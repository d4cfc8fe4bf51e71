//! micrograd's training loop and its printed lines, shared by the example and by the test that
//! holds it to micrograd's notebook (`tests/micrograd_demo.rs` includes this file).

use micrograd_runtime::data::{self, Dataset};
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Mlp, Module};
use micrograd_runtime::optim::{Optimizer, Schedule, Sgd};

/// micrograd's L2 strength, `alpha = 1e-4`.
pub const ALPHA: f64 = 1e-4;

/// The loss and accuracy of every step.
pub struct History {
    /// The loss before each step's update.
    pub losses: Vec<f64>,
    /// The fraction of points on the right side before each step's update.
    pub accuracies: Vec<f64>,
}

/// micrograd's training loop: the loss and its gradient at the current weights, then
/// `p.data -= learning_rate * p.grad` with `learning_rate = lr - 0.9 lr k / steps`.
pub fn train(model: &mut Mlp, moons: &Dataset, steps: usize, lr: f64) -> History {
    let schedule = Schedule::Linear {
        start: lr,
        end: lr * 0.1,
        steps,
    };
    let mut sgd = Sgd::with_schedule(schedule);
    let mut history = History {
        losses: Vec::with_capacity(steps),
        accuracies: Vec::with_capacity(steps),
    };
    for _ in 0..steps {
        model.zero_grad();
        let (loss, scores) = model.train_loss(&moons.points, &moons.labels, Loss::Hinge, ALPHA);
        let accuracy = data::accuracy(&scores, &moons.labels);
        // In place: no copy of the parameters or their gradients per step.
        let view = model.parameters_mut();
        sgd.step(view.values, view.grads);
        history.losses.push(loss);
        history.accuracies.push(accuracy);
    }
    history
}

/// Step `k`'s line as micrograd's notebook prints it:
/// `f"step {k} loss {total_loss.data}, accuracy {acc*100}%"`.
pub fn step_line(k: usize, loss: f64, accuracy: f64) -> String {
    let percent = python_repr(accuracy * 100.0);
    format!("step {k} loss {}, accuracy {percent}%", python_repr(loss))
}

/// A float as Python's `repr` writes it (the shortest digits that read back to the same
/// number), so the lines compare with the notebook's character for character.
pub fn python_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    // Rust's `{:?}` picks the same digits and the same switch to exponent notation; only the
    // exponent is written differently (`1e-5` where Python writes `1e-05`).
    let debug = format!("{x:?}");
    match debug.split_once('e') {
        Some((mantissa, exponent)) => {
            let (sign, digits) = match exponent.strip_prefix('-') {
                Some(digits) => ('-', digits),
                None => ('+', exponent),
            };
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => debug,
    }
}
