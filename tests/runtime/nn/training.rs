//! Training: micrograd's demo.

use super::*;

/// examples/moons.rs with the default arguments: Mlp 2-16-16-1 ReLU initialised from
/// `seed + 1`, hinge + 1e-4 L2, 100 full-batch SGD steps at 1.0 - 0.9 k / 100. Returns the loss
/// of every step, the accuracy of the last step (what the example prints, micrograd's
/// convention: the scores before that step's update) and the accuracy of the trained model.
fn micrograd_demo(seed: u64) -> (Vec<f64>, f64, f64) {
    let moons = make_moons(100, 0.1, seed);
    let mut model = Mlp::new(2, &[16, 16, 1], Activation::Relu, seed + 1);
    let mut sgd = Sgd::with_schedule(Schedule::Linear {
        start: 1.0,
        end: 0.1,
        steps: 100,
    });
    let (mut losses, mut last_step_accuracy) = (Vec::new(), 0.0);
    for _ in 0..100 {
        model.zero_grad();
        let (loss, scores) = model.train_loss(&moons.points, &moons.labels, Loss::Hinge, 1e-4);
        last_step_accuracy = accuracy(&scores, &moons.labels);
        let mut parameters = model.parameters();
        sgd.step(&mut parameters, &model.grads());
        model.set_parameters(&parameters);
        losses.push(loss);
    }
    let scores: Vec<f64> = moons.points.iter().map(|p| model.forward(p)[0]).collect();
    (losses, last_step_accuracy, accuracy(&scores, &moons.labels))
}

/// The first four seeds of 0..10 with which the demo reaches 100%, and the example's default.
const SEEDS_AT_100: [u64; 5] = [1337, 0, 1, 2, 3];
/// The seeds of 0..10 with which it does not: both end at 99% (one point of 100 on the wrong
/// side), both as the last step's accuracy and as the trained model's. Seeds 6 to 9 reach 100%.
const SEEDS_BELOW_100: [u64; 2] = [4, 5];

#[test]
fn micrograd_demo_reaches_100_percent_on_the_default_seed_and_others() {
    for seed in SEEDS_AT_100 {
        let (losses, last_step, trained) = micrograd_demo(seed);
        assert_eq!(
            last_step, 1.0,
            "seed {seed}: the last step's accuracy is {last_step}"
        );
        assert_eq!(
            trained, 1.0,
            "seed {seed}: the trained model's accuracy is {trained}"
        );
        assert!(
            losses[99] < 0.05 * losses[0],
            "seed {seed}: loss {} -> {}",
            losses[0],
            losses[99]
        );
    }
}

#[test]
fn micrograd_demo_seeds_below_100_percent_still_learn() {
    for seed in SEEDS_BELOW_100 {
        let (losses, last_step, trained) = micrograd_demo(seed);
        assert!(
            last_step >= 0.98 && trained >= 0.98,
            "seed {seed}: accuracy {last_step} / {trained}"
        );
        assert!(
            losses[99] < 0.05 * losses[0],
            "seed {seed}: loss {} -> {}",
            losses[0],
            losses[99]
        );
    }
}

#[test]
fn micrograd_demo_is_deterministic() {
    let (a, acc_a, _) = micrograd_demo(1337);
    let (b, acc_b, _) = micrograd_demo(1337);
    assert_eq!(
        a.iter().map(|l| l.to_bits()).collect::<Vec<_>>(),
        b.iter().map(|l| l.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(acc_a, acc_b);
}
