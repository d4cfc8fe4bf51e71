//! gradcheck itself.

use super::train_loss::loss_data;
use super::*;

/// `Σ (i + 1) xᵢ³`, with gradient `3 (i + 1) xᵢ²`.
fn cubic(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .map(|(i, v)| (i + 1) as f64 * v.powi(3))
        .sum()
}

fn cubic_gradient(x: &[f64]) -> Vec<f64> {
    x.iter()
        .enumerate()
        .map(|(i, v)| 3.0 * (i + 1) as f64 * v * v)
        .collect()
}

#[test]
fn gradcheck_passes_a_right_gradient() {
    let x = [0.5, -1.2, 2.0, 0.3, -0.7];
    let check = check_gradient(cubic, &x, &cubic_gradient(&x));
    assert!(check.relative_error < 1e-8, "{check}");
}

#[test]
fn gradcheck_reports_the_planted_wrong_coordinate() {
    let x = [0.5, -1.2, 2.0, 0.3, -0.7];
    let right = cubic_gradient(&x);
    for planted in 0..x.len() {
        let mut wrong = right.clone();
        wrong[planted] += 0.5;
        let check = check_gradient(cubic, &x, &wrong);
        assert_eq!(check.index, planted, "{check}");
        assert_eq!(check.analytic, wrong[planted]);
        assert_near("numeric", check.numeric, right[planted], 1e-8);
        let scale = wrong[planted].abs().max(right[planted].abs()).max(1.0);
        assert_near("relative error", check.relative_error, 0.5 / scale, 1e-7);
        assert!(
            check
                .to_string()
                .starts_with(&format!("worst coordinate {planted}:")),
            "{check}"
        );
    }
    // Two wrong coordinates: the worse one is reported.
    let mut wrong = right.clone();
    wrong[1] *= 1.01;
    wrong[4] = -wrong[4];
    assert_eq!(check_gradient(cubic, &x, &wrong).index, 4);
    // A NaN is the worst of all.
    let mut wrong = right.clone();
    wrong[0] += 100.0;
    wrong[2] = f64::NAN;
    let check = check_gradient(cubic, &x, &wrong);
    assert_eq!(check.index, 2, "{check}");
    assert!(check.relative_error.is_nan());
}

#[test]
fn gradcheck_finds_a_wrong_entry_in_a_network_gradient() {
    let (points, labels) = loss_data(Loss::Logistic);
    let base = Mlp::new(2, &[5, 1], Activation::Tanh, 80);
    let mut model = base.clone();
    model.train_loss(&points, &labels, Loss::Logistic, 1e-3);
    let f = |p: &[f64]| {
        with_parameters(&base, p, |m| {
            m.clone()
                .train_loss(&points, &labels, Loss::Logistic, 1e-3)
                .0
        })
    };
    let mut grads = model.grads();
    assert!(check_gradient(f, &base.parameters(), &grads).relative_error < 1e-6);
    grads[7] = -grads[7] + 0.1;
    assert_eq!(check_gradient(f, &base.parameters(), &grads).index, 7);
}
