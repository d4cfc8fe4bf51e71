//! Losses.

use super::*;

const SCORES: [f64; 7] = [-3.2, -0.7, 0.3, 0.55, 1.6, 4.0, -1.35];

#[test]
fn hinge_gradient_matches_closed_form_and_finite_differences() {
    for score in SCORES {
        for label in [1.0, -1.0] {
            let (value, d) = loss::hinge_grad(score, label);
            assert_eq!(value.to_bits(), loss::hinge(score, label).to_bits());
            assert_eq!(value, (1.0 - label * score).max(0.0));
            let closed = if 1.0 - label * score > 0.0 {
                -label
            } else {
                0.0
            };
            assert_eq!(d, closed, "hinge'({score}, {label})");
            assert_gradient("hinge", |s| loss::hinge(s[0], label), &[score], &[d]);
            // The pullback differentiates with respect to the label too (for calls through it).
            let d_label = if 1.0 - label * score > 0.0 {
                -score
            } else {
                0.0
            };
            assert_eq!(
                loss::hinge_pullback(score, label, -2.5),
                (-2.5 * d, -2.5 * d_label)
            );
            assert_gradient(
                "hinge, label",
                |y| loss::hinge(score, y[0]),
                &[label],
                &[d_label],
            );
            assert_eq!(Loss::Hinge.grad(score, label), (value, d));
        }
    }
    // At the kink (margin exactly 1), relu'(0) = 0.
    assert_eq!(loss::hinge_grad(1.0, 1.0), (0.0, 0.0));
}

#[test]
fn logistic_gradient_matches_closed_form_and_finite_differences() {
    for score in SCORES.into_iter().chain([-30.0, 25.0]) {
        for label in [1.0, -1.0] {
            let (value, d) = loss::logistic_grad(score, label);
            assert_eq!(value.to_bits(), loss::logistic(score, label).to_bits());
            assert_near(
                "logistic",
                value,
                (1.0 + (-label * score).exp()).ln(),
                1e-15,
            );
            // d/ds ln(1 + e^(-ys)) = -y / (1 + e^(ys))
            let closed = -label / (1.0 + (label * score).exp());
            assert!(
                (d - closed).abs() <= 1e-15 * closed.abs().max(1e-300),
                "logistic'({score}, {label}) = {d:e}, closed form {closed:e}"
            );
            assert_gradient("logistic", |s| loss::logistic(s[0], label), &[score], &[d]);
            // The pullback differentiates with respect to the label too (for calls through it).
            let (d_score, d_label) = loss::logistic_pullback(score, label, 0.3);
            assert_near("pullback, score", d_score, 0.3 * d, 1e-15);
            let closed_label = -score / (1.0 + (label * score).exp());
            assert_near("pullback, label", d_label, 0.3 * closed_label, 1e-15);
            assert_gradient(
                "logistic, label",
                |y| loss::logistic(score, y[0]),
                &[label],
                &[closed_label],
            );
            assert_eq!(Loss::Logistic.grad(score, label), (value, d));
        }
    }
}

#[test]
fn logistic_is_finite_and_accurate_far_from_zero() {
    // ln(1 + e^-50) ≈ e^-50 where the naive formula rounds to 0; e^800 would overflow.
    let (tiny, d_tiny) = loss::logistic_grad(50.0, 1.0);
    assert_near("ln(1 + e^-50) / e^-50", tiny / (-50f64).exp(), 1.0, 1e-15);
    assert_near(
        "d ln(1 + e^-50) / e^-50",
        d_tiny / (-50f64).exp(),
        -1.0,
        1e-15,
    );
    assert_eq!(loss::logistic_grad(-800.0, 1.0), (800.0, -1.0));
    assert_eq!(loss::logistic_grad(800.0, -1.0), (800.0, 1.0));
    let (zero, d_zero) = loss::logistic_grad(800.0, 1.0);
    assert!(
        zero == 0.0 && d_zero.abs() < 1e-300,
        "logistic(800, 1) = ({zero:e}, {d_zero:e})"
    );
}

#[test]
fn squared_error_gradient_matches_closed_form_and_finite_differences() {
    for prediction in SCORES {
        for target in [-1.5, 0.0, 2.25, 1e3] {
            let (value, d) = loss::squared_error_grad(prediction, target);
            assert_eq!(
                value.to_bits(),
                loss::squared_error(prediction, target).to_bits()
            );
            assert_near(
                "squared error",
                value,
                (prediction - target) * (prediction - target),
                1e-15,
            );
            assert_eq!(d, 2.0 * (prediction - target));
            assert_gradient(
                "squared error",
                |p| loss::squared_error(p[0], target),
                &[prediction],
                &[d],
            );
            assert_eq!(Loss::Squared.grad(prediction, target), (value, d));
        }
    }
}

#[test]
fn sum_of_squares_gradient_is_two_w() {
    let w = [0.5, -1.25, 3.0, -0.0, 7.5e-3];
    let mut d_w = [0.0; 5];
    let value = loss::sum_of_squares_grad(&w, &mut d_w);
    assert_eq!(value.to_bits(), loss::sum_of_squares(&w).to_bits());
    assert_near("value", value, w.iter().map(|x| x * x).sum(), 1e-15);
    assert_all_near("2 w", &d_w, &w.map(|x| 2.0 * x), 1e-15);
    assert_gradient("sum_of_squares", loss::sum_of_squares, &w, &d_w);
    // It adds into d_w.
    let mut d_w = [1.0; 5];
    loss::sum_of_squares_grad(&w, &mut d_w);
    assert_all_near("1 + 2 w", &d_w, &w.map(|x| 1.0 + 2.0 * x), 1e-15);
    assert_eq!(loss::sum_of_squares_grad(&[], &mut []), 0.0);
}
