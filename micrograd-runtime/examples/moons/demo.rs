//! micrograd's training loop and its printed lines, shared by the example and by the test that
//! holds it to micrograd's notebook (`tests/micrograd_demo.rs` includes this file).

use micrograd_runtime::data::Dataset;
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::Mlp;
use micrograd_runtime::optim::{Schedule, Sgd};
pub use micrograd_runtime::training::History;
use micrograd_runtime::training::{Observe, Step, Trainer};

/// micrograd's L2 strength, `alpha = 1e-4`.
pub const ALPHA: f64 = 1e-4;

/// micrograd's training loop: the loss and its gradient at the current weights, then
/// `p.data -= learning_rate * p.grad` with `learning_rate = lr - 0.9 lr k / steps`.
#[allow(
    dead_code,
    reason = "the loop tests/micrograd_demo.rs holds to the notebook"
)]
pub fn train(model: &mut Mlp, moons: &Dataset, steps: usize, lr: f64) -> History {
    train_observed(model, moons, steps, lr, |_: &Step| {})
}

/// [`train`], telling `observer` about each step as it ends.
pub fn train_observed(
    model: &mut Mlp,
    moons: &Dataset,
    steps: usize,
    lr: f64,
    observer: impl Observe,
) -> History {
    let schedule = Schedule::Linear {
        start: lr,
        end: lr * 0.1,
        steps,
    };
    Trainer::new(Loss::Hinge, Sgd::with_schedule(schedule))
        .alpha(ALPHA)
        .steps(steps)
        .observe(observer)
        .run(model, &moons.points, &moons.labels)
}

/// Step `k`'s line as micrograd's notebook prints it:
/// `f"step {k} loss {total_loss.data}, accuracy {acc*100}%"`.
pub fn step_line(k: usize, loss: f64, accuracy: f64) -> String {
    let percent = python_repr(accuracy * 100.0);
    format!("step {k} loss {}, accuracy {percent}%", python_repr(loss))
}

/// Step `k`'s line for a run other than micrograd's demo, as people read numbers: four
/// significant digits of the loss, the accuracy to a tenth of a percent, the time so far.
pub fn readable_line(step: &Step) -> String {
    format!(
        "step {} loss {}, accuracy {:.1}% ({:.2} s)",
        step.step,
        readable(step.loss),
        step.accuracy * 100.0,
        step.elapsed.as_secs_f64()
    )
}

/// Four significant digits, in positional notation from 0.001 to 999999.
pub fn readable(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor();
    if (-3.0..6.0).contains(&magnitude) {
        let decimals = (3.0 - magnitude).max(0.0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.3e}")
    }
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
