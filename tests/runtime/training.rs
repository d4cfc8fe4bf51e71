//! The training loop's observers: every step, in order, with the numbers the loop computed.

#![allow(missing_docs)]

use micrograd_runtime::data::{accuracy, make_moons};
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Activation, Mlp, Module};
use micrograd_runtime::optim::{Optimizer, Schedule, Sgd};
use micrograd_runtime::training::{Observe, Step, Trainer};
use std::cell::RefCell;

fn schedule(steps: usize) -> Sgd {
    Sgd::with_schedule(Schedule::Linear {
        start: 1.0,
        end: 0.1,
        steps,
    })
}

#[test]
fn the_observer_sees_every_step_in_order() {
    let moons = make_moons(300, 0.1, 4);
    let mut model = Mlp::new(2, &[8, 8, 1], Activation::Tanh, 4);
    let mut seen: Vec<Step> = Vec::new();
    let history = Trainer::new(Loss::Hinge, schedule(25))
        .alpha(1e-4)
        .steps(25)
        .observe(|step: &Step| seen.push(*step))
        .run(&mut model, &moons.points, &moons.labels);
    assert_eq!(seen.len(), 25);
    for (k, step) in seen.iter().enumerate() {
        assert_eq!((step.step, step.steps), (k, 25));
        assert_eq!(step.loss.to_bits(), history.losses[k].to_bits());
        assert_eq!(step.accuracy, history.accuracies[k]);
        assert_eq!(step.learning_rate, 1.0 - 0.9 * k as f64 / 25.0);
    }
    assert!(seen.windows(2).all(|w| w[0].elapsed <= w[1].elapsed));
}

#[test]
fn observers_are_told_in_the_order_they_were_added_each_step_before_the_next() {
    let moons = make_moons(40, 0.1, 1);
    let mut model = Mlp::new(2, &[4, 1], Activation::Relu, 1);
    let log = RefCell::new(Vec::new());
    Trainer::new(Loss::Hinge, Sgd::new(0.1))
        .steps(3)
        .observe(|step: &Step| log.borrow_mut().push(("a", step.step)))
        .observe(|step: &Step| log.borrow_mut().push(("b", step.step)))
        .run(&mut model, &moons.points, &moons.labels);
    let log = log.into_inner();
    assert_eq!(
        log,
        [("a", 0), ("b", 0), ("a", 1), ("b", 1), ("a", 2), ("b", 2)]
    );
}

/// An observer of one's own: the steps at which the accuracy improved.
#[derive(Default)]
struct Improvements {
    best: f64,
    at: Vec<usize>,
}

impl Observe for &mut Improvements {
    fn observe(&mut self, step: &Step) {
        if step.accuracy > self.best {
            self.best = step.accuracy;
            self.at.push(step.step);
        }
    }
}

#[test]
fn a_trainer_computes_what_the_loop_written_by_hand_does_bit_for_bit() {
    let moons = make_moons(1000, 0.2, 8);
    let start = Mlp::new(2, &[32, 1], Activation::Tanh, 8);

    let mut by_hand = start.clone();
    let mut sgd = schedule(30);
    let mut losses = Vec::new();
    let mut accuracies = Vec::new();
    for _ in 0..30 {
        by_hand.zero_grad();
        let (loss, scores) = by_hand.train_loss(&moons.points, &moons.labels, Loss::Logistic, 1e-3);
        accuracies.push(accuracy(&scores, &moons.labels));
        losses.push(loss);
        let view = by_hand.parameters_mut();
        sgd.step(view.values, view.grads);
    }

    let mut model = start.clone();
    let mut improvements = Improvements::default();
    let history = Trainer::new(Loss::Logistic, schedule(30))
        .alpha(1e-3)
        .steps(30)
        .observe(&mut improvements)
        .run(&mut model, &moons.points, &moons.labels);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&history.losses), bits(&losses));
    assert_eq!(history.accuracies, accuracies);
    assert_eq!(bits(&model.parameters()), bits(&by_hand.parameters()));
    assert_eq!(improvements.at[0], 0);
    assert!(improvements.at.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn no_steps_tell_no_observer() {
    let moons = make_moons(10, 0.1, 1);
    let mut model = Mlp::new(2, &[2, 1], Activation::Relu, 1);
    let before = model.clone();
    let mut calls = 0;
    let history = Trainer::new(Loss::Hinge, Sgd::new(0.1))
        .steps(0)
        .observe(|_: &Step| calls += 1)
        .run(&mut model, &moons.points, &moons.labels);
    assert_eq!((calls, history.losses.len()), (0, 0));
    assert_eq!(model, before);
}
