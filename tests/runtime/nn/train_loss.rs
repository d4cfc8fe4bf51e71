//! train_loss and regularize.

use super::*;

/// Ten points, labels ±1 for the classification losses and real targets for the squared error.
pub(crate) fn loss_data(loss: Loss) -> (Vec<[f64; 2]>, Vec<f64>) {
    let points = random_points(10, 5);
    let labels = match loss {
        Loss::Hinge | Loss::Logistic => (0..10)
            .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
            .collect(),
        Loss::Squared => (0..10).map(|i| 0.4 * i as f64 - 1.7).collect(),
    };
    (points, labels)
}

#[test]
fn train_loss_gradient_matches_finite_differences_for_every_loss() {
    let alpha = 0.01;
    for loss in [Loss::Hinge, Loss::Logistic, Loss::Squared] {
        for (seed, activation) in (30..).zip([Activation::Relu, Activation::Tanh]) {
            let name = format!("{loss:?} loss, {activation:?} Mlp 2-6-5-1");
            let (points, labels) = loss_data(loss);
            let base = Mlp::new(2, &[6, 5, 1], activation, seed);
            let mut active = 0;
            for (x, y) in points.iter().zip(&labels) {
                let (score, kink) = reference_forward(&base, x);
                assert!(
                    kink > 1e-3,
                    "{name}: a pre-activation at {x:?} is {kink:e} from ReLU's kink"
                );
                let margin = 1.0 - y * score[0];
                assert!(
                    loss != Loss::Hinge || margin.abs() > 1e-3,
                    "{name}: the hinge is at its kink at {x:?}"
                );
                active += usize::from(margin > 0.0);
            }
            assert!(
                active >= 3,
                "{name}: only {active} points have a nonzero hinge gradient"
            );

            let mut model = base.clone();
            model.zero_grad();
            let (value, scores) = model.train_loss(&points, &labels, loss, alpha);
            let reference = reference_train_loss(&base, &points, &labels, loss, alpha);
            assert_near(&format!("{name}: value"), value, reference, 1e-13);
            let expected_scores: Vec<f64> = points
                .iter()
                .map(|x| reference_forward(&base, x).0[0])
                .collect();
            assert_all_near(&format!("{name}: scores"), &scores, &expected_scores, 1e-14);
            assert_eq!(
                model.parameters(),
                base.parameters(),
                "{name}: train_loss moved the parameters"
            );

            let grads = model.grads();
            assert!(grads.iter().all(|g| g.is_finite()) && grads.iter().any(|g| *g != 0.0));
            let of_params = |p: &[f64]| {
                with_parameters(&base, p, |m| {
                    reference_train_loss(m, &points, &labels, loss, alpha)
                })
            };
            assert_gradient(&name, of_params, &base.parameters(), &grads);

            // Without zero_grad, a second call adds the same gradient.
            model.train_loss(&points, &labels, loss, alpha);
            let doubled: Vec<f64> = grads.iter().map(|g| 2.0 * g).collect();
            assert_all_near(
                &format!("{name}: accumulation"),
                &model.grads(),
                &doubled,
                1e-13,
            );
        }
    }
}

#[test]
fn train_loss_without_regularization_is_the_mean_loss() {
    let (points, labels) = loss_data(Loss::Logistic);
    let mut model = Mlp::new(2, &[4, 1], Activation::Tanh, 3);
    let (value, scores) = model.train_loss(&points, &labels, Loss::Logistic, 0.0);
    let mean = scores
        .iter()
        .zip(&labels)
        .map(|(s, y)| loss::logistic(*s, *y))
        .sum::<f64>()
        / 10.0;
    assert_near("mean logistic loss", value, mean, 1e-15);
    // One point, one output: the gradient of a linear network is d_loss · (x, 1).
    let mut linear = Mlp::new(2, &[1], Activation::Relu, 4);
    assert_eq!(linear.activation(), Activation::Linear);
    let x = [0.3, -0.8];
    let (_, scores) = linear.train_loss(&[x], &[2.0], Loss::Squared, 0.0);
    let d = 2.0 * (scores[0] - 2.0);
    assert_all_near(
        "linear model",
        &linear.grads(),
        &[d * x[0], d * x[1], d],
        1e-15,
    );
}

#[test]
fn regularize_is_alpha_times_the_sum_of_squares_with_gradient_two_alpha_p() {
    let alpha = 0.035;
    let base = Mlp::new(3, &[4, 3, 2], Activation::Tanh, 40);
    let p = base.parameters();
    let mut model = base.clone();
    let value = model.regularize(alpha);
    assert_near(
        "value",
        value,
        alpha * p.iter().map(|x| x * x).sum::<f64>(),
        1e-15,
    );
    let closed: Vec<f64> = p.iter().map(|x| 2.0 * alpha * x).collect();
    assert_all_near("gradient", &model.grads(), &closed, 1e-15);
    let of_params = |q: &[f64]| with_parameters(&base, q, |m| m.clone().regularize(alpha));
    assert_gradient("regularize", of_params, &p, &model.grads());
    // It adds into the gradients; alpha 0 adds nothing.
    model.regularize(alpha);
    let doubled: Vec<f64> = closed.iter().map(|g| 2.0 * g).collect();
    assert_all_near("accumulation", &model.grads(), &doubled, 1e-15);
    let before = model.grads();
    assert_eq!(model.regularize(0.0), 0.0);
    assert_eq!(model.grads(), before);
}
