//! The optimizers: convergence on a quadratic, micrograd's schedule, Adam's formula, misuse.

use micrograd_runtime::optim::{Adam, Momentum, Optimizer, Schedule, Sgd};

/// Minimises `((w1 - 1)^2 + (w2 - 5)^2) / 2` from `(0, 0)`, whose gradient is `(w1 - 1, w2 - 5)`.
fn minimise(optimizer: &mut dyn Optimizer, steps: usize) -> [f64; 2] {
    let mut w = [0.0, 0.0];
    for _ in 0..steps {
        let grads = [w[0] - 1.0, w[1] - 5.0];
        optimizer.step(&mut w, &grads);
    }
    w
}

fn assert_at_minimum(w: [f64; 2]) {
    assert!(
        (w[0] - 1.0).abs() < 1e-6 && (w[1] - 5.0).abs() < 1e-6,
        "ended at {w:?}"
    );
}

#[test]
fn sgd_with_a_constant_rate_converges() {
    assert_at_minimum(minimise(&mut Sgd::new(0.1), 200));
}

#[test]
fn sgd_with_micrograds_schedule_converges() {
    let micrograd = Schedule::Linear {
        start: 1.0,
        end: 0.1,
        steps: 100,
    };
    assert_at_minimum(minimise(&mut Sgd::with_schedule(micrograd), 100));
}

#[test]
fn momentum_converges() {
    assert_at_minimum(minimise(&mut Momentum::new(0.1, 0.9), 500));
}

#[test]
fn adam_converges() {
    assert_at_minimum(minimise(&mut Adam::new(0.1), 2000));
}

#[test]
fn linear_schedule_matches_micrograds_formula() {
    let schedule = Schedule::Linear {
        start: 1.0,
        end: 0.1,
        steps: 100,
    };
    for k in [0, 50, 99] {
        // micrograd: `learning_rate = 1.0 - 0.9*k/100`, to the bit.
        assert_eq!(schedule.rate(k), 1.0 - 0.9 * k as f64 / 100.0, "k = {k}");
    }
    assert_eq!(schedule.rate(0), 1.0);
    assert_eq!(schedule.rate(50), 0.55);
    assert_eq!(schedule.rate(100), 0.1);
    assert_eq!(schedule.rate(1_000), 0.1);
}

#[test]
fn sgd_advances_its_schedule_once_per_step() {
    let mut sgd = Sgd::with_schedule(Schedule::Linear {
        start: 1.0,
        end: 0.1,
        steps: 100,
    });
    let mut w = [0.0];
    for k in 0..100 {
        assert_eq!(sgd.learning_rate(), 1.0 - 0.9 * k as f64 / 100.0);
        let before = w[0];
        sgd.step(&mut w, &[1.0]);
        assert_eq!(w[0], before - (1.0 - 0.9 * k as f64 / 100.0));
    }
}

#[test]
fn adam_steps_match_the_formula_by_hand() {
    let (lr, b1, b2, eps): (f64, f64, f64, f64) = (0.01, 0.9, 0.999, 1e-8);
    let mut adam = Adam::new(lr);
    let mut w = [0.5, -2.0];
    let g1 = [0.3, -0.7];
    let g2 = [-0.2, 0.05];
    adam.step(&mut w, &g1);
    adam.step(&mut w, &g2);
    for i in 0..2 {
        // Step 1 from the zero moments, then step 2, with bias corrections 1 - b^t.
        let m1 = (1.0 - b1) * g1[i];
        let v1 = (1.0 - b2) * g1[i] * g1[i];
        let w1 = [0.5, -2.0][i] - lr * (m1 / (1.0 - b1)) / ((v1 / (1.0 - b2)).sqrt() + eps);
        let m2 = b1 * m1 + (1.0 - b1) * g2[i];
        let v2 = b2 * v1 + (1.0 - b2) * g2[i] * g2[i];
        let m_hat = m2 / (1.0 - b1.powi(2));
        let v_hat = v2 / (1.0 - b2.powi(2));
        let w2 = w1 - lr * m_hat / (v_hat.sqrt() + eps);
        assert!(
            (w[i] - w2).abs() < 1e-15,
            "w[{i}] = {} but the formula gives {w2}",
            w[i]
        );
    }
}

#[test]
fn adam_defaults_are_pytorchs() {
    let mut adam = Adam::default();
    assert_eq!(adam.learning_rate(), 1e-3);
    // The first step moves by lr * g / (|g| + eps): about lr, whatever the size of g.
    let mut w = [0.0];
    adam.step(&mut w, &[4.0]);
    assert!((w[0] + 1e-3 * 4.0 / (4.0 + 1e-8)).abs() < 1e-15, "{}", w[0]);
}

#[test]
fn momentum_accumulates_velocity() {
    let mut momentum = Momentum::new(0.1, 0.5);
    let mut w = [0.0];
    momentum.step(&mut w, &[1.0]); // v = 1
    momentum.step(&mut w, &[1.0]); // v = 0.5 + 1
    momentum.step(&mut w, &[0.0]); // v = 0.75
    assert!((w[0] + 0.1 * (1.0 + 1.5 + 0.75)).abs() < 1e-15, "{}", w[0]);
}

#[test]
#[should_panic(expected = "grads has 5 entries but params has 6")]
fn sgd_names_both_lengths() {
    Sgd::new(0.1).step(&mut [0.0; 6], &[0.0; 5]);
}

#[test]
#[should_panic(expected = "grads has 2 entries but params has 1")]
fn adam_names_both_lengths() {
    Adam::default().step(&mut [0.0], &[0.0; 2]);
}

#[test]
#[should_panic(expected = "params has 3 entries but the optimizer's velocity has 2")]
fn stateful_optimizers_serve_one_parameter_vector() {
    let mut momentum = Momentum::new(0.1, 0.9);
    momentum.step(&mut [0.0; 2], &[1.0; 2]);
    momentum.step(&mut [0.0; 3], &[1.0; 3]);
}

#[test]
#[should_panic(expected = "learning_rate must be finite and >= 0, got NaN")]
fn a_nan_learning_rate_is_rejected() {
    Sgd::new(f64::NAN);
}

#[test]
#[should_panic(expected = "momentum must lie in [0, 1), got 1")]
fn momentum_of_one_is_rejected() {
    Momentum::new(0.1, 1.0);
}

#[test]
#[should_panic(expected = "beta2 must lie in [0, 1), got -0.5")]
fn a_negative_beta_is_rejected() {
    let _ = Adam::default().with_betas(0.9, -0.5);
}

#[test]
fn set_learning_rate_keeps_momentums_velocity() {
    // Two steps at 0.1, then the rate drops to 0.01: the third step moves by 0.01 * v with the
    // velocity accumulated before the change (v = 0.5 * 1.5 + 1 = 1.75).
    let mut momentum = Momentum::new(0.1, 0.5);
    let mut w = [0.0];
    momentum.step(&mut w, &[1.0]);
    momentum.step(&mut w, &[1.0]);
    momentum.set_learning_rate(0.01);
    assert_eq!(momentum.learning_rate(), 0.01);
    let before = w[0];
    momentum.step(&mut w, &[1.0]);
    assert!(
        (before - w[0] - 0.01 * 1.75).abs() < 1e-15,
        "{}",
        before - w[0]
    );
}

#[test]
fn set_learning_rate_keeps_adams_moments() {
    // Adam with the rate changed after one step equals Adam whose first step used the old
    // rate and whose second used the new one: the moments and bias corrections carry over.
    let mut changed = Adam::new(0.1);
    let mut w = [1.0, -2.0];
    changed.step(&mut w, &[0.5, -1.0]);
    changed.set_learning_rate(0.02);
    changed.step(&mut w, &[0.25, 3.0]);
    // The moments do not depend on the rate, so `second` stepped once elsewhere holds the
    // moments `changed` holds after its first step.
    let (mut first, mut second) = (Adam::new(0.1), Adam::new(0.02));
    let mut expected = [1.0, -2.0];
    first.step(&mut expected, &[0.5, -1.0]);
    second.step(&mut [1.0, -2.0], &[0.5, -1.0]);
    second.step(&mut expected, &[0.25, 3.0]);
    assert_eq!(w, expected);
    assert_ne!(w, {
        let mut all_old = [1.0, -2.0];
        let mut a = Adam::new(0.1);
        a.step(&mut all_old, &[0.5, -1.0]);
        a.step(&mut all_old, &[0.25, 3.0]);
        all_old
    });
}

#[test]
fn set_learning_rate_replaces_sgds_schedule() {
    let mut sgd = Sgd::with_schedule(Schedule::Linear {
        start: 1.0,
        end: 0.1,
        steps: 10,
    });
    sgd.step(&mut [0.0], &[0.0]);
    sgd.set_learning_rate(0.25);
    let mut w = [1.0];
    sgd.step(&mut w, &[2.0]);
    sgd.step(&mut w, &[2.0]);
    assert_eq!(sgd.learning_rate(), 0.25);
    assert_eq!(w, [0.0]);
}

#[test]
#[should_panic(expected = "learning_rate must be finite and >= 0, got -1")]
fn a_negative_learning_rate_is_rejected_when_set() {
    Adam::default().set_learning_rate(-1.0);
}
