//! The runtime's neural networks against independent references.
//!
//! Every gradient of `nn`, `Mlp` and `loss` is compared with (1) `gradcheck::check_gradient`,
//! (2) a fourth-order central difference written here, (3) closed forms where there is one, and
//! (4) micrograd's run-time `Value` engine, which shares no code with the generated pullbacks.
//! The references read the networks' public fields and recompute the forward pass by hand, so
//! a wrong forward pass would show up as well as a wrong backward one.

use micrograd_runtime::Value;
use micrograd_runtime::data::{accuracy, make_moons};
use micrograd_runtime::gradcheck::check_gradient;
use micrograd_runtime::loss::{self, Loss};
use micrograd_runtime::nn::{Activation, Layer, Mlp, Module, Neuron};
use micrograd_runtime::optim::{Optimizer, Schedule, Sgd};
use micrograd_runtime::persist::PersistError;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;

// ---------------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------------

/// The fourth-order central difference `(-f(x+2h) + 8f(x+h) - 8f(x-h) + f(x-2h)) / 12h` in
/// every coordinate, with `h = 1e-4·max(1, |xᵢ|)`: another step and another stencil than
/// `gradcheck`'s, so the two references do not share an error.
fn finite_differences(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut point = x.to_vec();
    let mut at = |i: usize, xi: f64| {
        point[i] = xi;
        let value = f(&point);
        point[i] = x[i];
        value
    };
    (0..x.len())
        .map(|i| {
            let h = 1e-4 * x[i].abs().max(1.0);
            let terms = -at(i, x[i] + 2.0 * h) + 8.0 * at(i, x[i] + h) - 8.0 * at(i, x[i] - h)
                + at(i, x[i] - 2.0 * h);
            terms / (12.0 * h)
        })
        .collect()
}

/// Panics unless `gradient` is the gradient of `f` at `x`, by both finite-difference references.
fn assert_gradient(name: &str, f: impl Fn(&[f64]) -> f64, x: &[f64], gradient: &[f64]) {
    assert_eq!(
        gradient.len(),
        x.len(),
        "{name}: gradient and point lengths"
    );
    let check = check_gradient(&f, x, gradient);
    assert!(check.relative_error < 1e-6, "{name}: gradcheck: {check}");
    let numeric = finite_differences(&f, x);
    for (i, (a, n)) in gradient.iter().zip(&numeric).enumerate() {
        let bound = 1e-7 * a.abs().max(n.abs()).max(1.0);
        assert!(
            (a - n).abs() <= bound,
            "{name}: coordinate {i}: gradient {a:e}, finite difference {n:e} (|diff| {:e} > {bound:e})",
            (a - n).abs()
        );
    }
}

/// Panics unless `a` and `b` agree to `tol` relative to the larger of them and 1.
fn assert_near(name: &str, a: f64, b: f64, tol: f64) {
    let bound = tol * a.abs().max(b.abs()).max(1.0);
    assert!(
        (a - b).abs() <= bound,
        "{name}: {a:e} vs {b:e} (|diff| {:e} > {bound:e})",
        (a - b).abs()
    );
}

fn assert_all_near(name: &str, a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len(), "{name}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_near(&format!("{name}[{i}]"), *x, *y, tol);
    }
}

fn activate(activation: Activation, z: f64) -> f64 {
    match activation {
        Activation::Relu => z.max(0.0),
        Activation::Tanh => z.tanh(),
        Activation::Linear => z,
    }
}

/// The derivative of the activation at pre-activation `z` (relu'(0) = 0, as PyTorch).
fn activate_derivative(activation: Activation, z: f64) -> f64 {
    match activation {
        Activation::Relu => f64::from(u8::from(z > 0.0)),
        Activation::Tanh => 1.0 - z.tanh().powi(2),
        Activation::Linear => 1.0,
    }
}

fn pre_activation(w: &[f64], b: f64, x: &[f64]) -> f64 {
    assert_eq!(w.len(), x.len(), "reference neuron: weights vs inputs");
    b + w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>()
}

/// The network's outputs recomputed from its public fields, and the smallest `|pre-activation|`
/// of a ReLU neuron on the way (a finite difference is only a reference away from the kink).
fn reference_forward(model: &Mlp, x: &[f64]) -> (Vec<f64>, f64) {
    let mut a = x.to_vec();
    let mut closest_kink = f64::INFINITY;
    for layer in &model.layers {
        a = layer
            .neurons
            .iter()
            .map(|n| {
                let z = pre_activation(&n.w, n.b, &a);
                if n.activation == Activation::Relu {
                    closest_kink = closest_kink.min(z.abs());
                }
                activate(n.activation, z)
            })
            .collect();
    }
    (a, closest_kink)
}

/// The loss of one score, written out by hand.
fn reference_point_loss(loss: Loss, score: f64, label: f64) -> f64 {
    match loss {
        Loss::Hinge => (1.0 - label * score).max(0.0),
        Loss::Logistic => (1.0 + (-label * score).exp()).ln(),
        Loss::Squared => (score - label) * (score - label),
    }
}

/// micrograd's training loss, mean over the points plus `alpha · Σ p²`, from the fields.
fn reference_train_loss(
    model: &Mlp,
    points: &[[f64; 2]],
    labels: &[f64],
    loss: Loss,
    alpha: f64,
) -> f64 {
    let data: f64 = points
        .iter()
        .zip(labels)
        .map(|(x, y)| reference_point_loss(loss, reference_forward(model, x).0[0], *y))
        .sum();
    let l2: f64 = model.parameters().iter().map(|p| p * p).sum();
    data / points.len() as f64 + alpha * l2
}

/// `f(p)` for the network with its parameters replaced by `p`.
fn with_parameters<T>(model: &Mlp, p: &[f64], f: impl Fn(&Mlp) -> T) -> T {
    let mut moved = model.clone();
    moved.set_parameters(p);
    f(&moved)
}

fn neuron(w: &[f64], b: f64, activation: Activation) -> Neuron {
    Neuron {
        w: w.to_vec(),
        b,
        grad_w: vec![0.0; w.len()],
        grad_b: 0.0,
        activation,
    }
}

fn random_points(n: usize, seed: u64) -> Vec<[f64; 2]> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| [rng.random_range(-1.5..1.5), rng.random_range(-1.5..1.5)])
        .collect()
}

const ACTIVATIONS: [Activation; 3] = [Activation::Relu, Activation::Tanh, Activation::Linear];

// ---------------------------------------------------------------------------------------------
// Neuron, Layer, Mlp backward passes
// ---------------------------------------------------------------------------------------------

#[test]
fn neuron_backward_matches_finite_differences_and_closed_form() {
    let (w, b) = ([0.7, -1.3, 0.4], 0.25);
    // Pre-activations 1.775 and -1.275: both sides of ReLU's kink.
    for x in [[0.9, -0.35, 1.1], [-0.9, 0.35, -1.1]] {
        for activation in ACTIVATIONS {
            let name = format!("{activation:?} neuron at {x:?}");
            let d_out = -1.7;
            let mut n = neuron(&w, b, activation);
            // Nonzero gradients before: backward must add into them.
            let (grad_w0, grad_b0, d_x0) = ([0.5, -0.25, 2.0], 0.125, [1.0, -2.0, 0.5]);
            n.grad_w = grad_w0.to_vec();
            n.grad_b = grad_b0;
            let mut d_x = d_x0;
            n.backward(&x, d_out, &mut d_x);
            let added_w: Vec<f64> = n.grad_w.iter().zip(grad_w0).map(|(g, g0)| g - g0).collect();
            let added_b = n.grad_b - grad_b0;
            let added_x: Vec<f64> = d_x.iter().zip(d_x0).map(|(g, g0)| g - g0).collect();

            // Closed form: d_out · act'(z) · (x, 1, w).
            let local = d_out * activate_derivative(activation, pre_activation(&w, b, &x));
            let closed_w: Vec<f64> = x.iter().map(|xi| local * xi).collect();
            let closed_x: Vec<f64> = w.iter().map(|wi| local * wi).collect();
            assert_all_near(&format!("{name}: d_w"), &added_w, &closed_w, 1e-14);
            assert_near(&format!("{name}: d_b"), added_b, local, 1e-14);
            assert_all_near(&format!("{name}: d_x"), &added_x, &closed_x, 1e-14);

            // Finite differences of d_out · forward, over (w, b) and over x.
            let mut params_grad = added_w.clone();
            params_grad.push(added_b);
            let base = neuron(&w, b, activation);
            let of_params = |p: &[f64]| {
                let mut m = base.clone();
                m.set_parameters(p);
                d_out * m.forward(&x)
            };
            assert_gradient(
                &format!("{name}: d(w, b)"),
                of_params,
                &base.parameters(),
                &params_grad,
            );
            let of_x = |xs: &[f64]| d_out * base.forward(xs);
            assert_gradient(&format!("{name}: d_x"), of_x, &x, &added_x);
        }
    }
}

#[test]
fn neuron_forward_is_the_activation_of_the_weighted_sum() {
    let (w, b, x) = ([0.7, -1.3, 0.4], 0.25, [0.9, -0.35, 1.1]);
    for activation in ACTIVATIONS {
        let expected = activate(activation, pre_activation(&w, b, &x));
        assert_near(
            &format!("{activation:?}"),
            neuron(&w, b, activation).forward(&x),
            expected,
            1e-15,
        );
    }
}

#[test]
fn neuron_backward_at_the_first_layer_skips_d_x() {
    let (w, b, x) = ([0.7, -1.3], 0.25, [0.9, -0.35]);
    for activation in ACTIVATIONS {
        let mut with = neuron(&w, b, activation);
        let mut without = with.clone();
        with.backward(&x, 0.75, &mut [0.0, 0.0]);
        without.backward(&x, 0.75, &mut []);
        assert_eq!(
            with, without,
            "{activation:?}: `&mut []` for d_x changes the parameter gradients"
        );
        assert!(
            with.grad_b != 0.0,
            "{activation:?}: the neuron is active here"
        );
    }
}

#[test]
fn relu_neuron_at_its_kink_has_zero_gradient_like_pytorch() {
    // Pre-activation exactly 0: relu'(0) = 0 in PyTorch, in micrograd's Value and here.
    let (w, b, x) = ([1.0, 1.0], 0.0, [0.5, -0.5]);
    let mut n = neuron(&w, b, Activation::Relu);
    assert_eq!(n.forward(&x), 0.0);
    let mut d_x = [0.0; 2];
    n.backward(&x, 1.0, &mut d_x);
    assert_eq!(
        (n.grad_w.as_slice(), n.grad_b, d_x),
        (&[0.0, 0.0][..], 0.0, [0.0, 0.0])
    );
    let z = Value::new(1.0) * 0.5 + Value::new(1.0) * -0.5 + 0.0;
    let out = z.relu();
    out.backward();
    assert_eq!(z.grad(), 0.0, "Value's relu'(0)");
}

#[test]
fn layer_backward_matches_finite_differences() {
    let x = [0.8, -0.45, 1.2];
    let d_out = [0.3, -1.1, 0.8, 2.0];
    for (seed, activation) in (10..).zip(ACTIVATIONS) {
        let name = format!("{activation:?} layer");
        let base = Layer::new(3, 4, activation, &mut StdRng::seed_from_u64(seed));
        if activation == Activation::Relu {
            let kink = base
                .neurons
                .iter()
                .map(|n| pre_activation(&n.w, n.b, &x).abs())
                .fold(f64::INFINITY, f64::min);
            assert!(
                kink > 1e-2,
                "{name}: a pre-activation is {kink:e} from ReLU's kink: pick another x"
            );
        }
        let mut layer = base.clone();
        let mut d_x = [0.0; 3];
        layer.backward(&x, &d_out, &mut d_x);

        let weighted = |l: &Layer, xs: &[f64]| {
            l.forward(xs)
                .iter()
                .zip(&d_out)
                .map(|(o, d)| o * d)
                .sum::<f64>()
        };
        let of_params = |p: &[f64]| {
            let mut l = base.clone();
            l.set_parameters(p);
            weighted(&l, &x)
        };
        assert_gradient(
            &format!("{name}: parameters"),
            of_params,
            &base.parameters(),
            &layer.grads(),
        );
        assert_gradient(&format!("{name}: d_x"), |xs| weighted(&base, xs), &x, &d_x);
        // The layer's gradients are its neurons' gradients, in parameter order.
        let per_neuron: Vec<f64> = layer.neurons.iter().flat_map(Module::grads).collect();
        assert_eq!(layer.grads(), per_neuron);
        assert_eq!(layer.inputs(), 3);
        assert_eq!(layer.parameter_count(), 16);
    }
}

#[test]
fn mlp_backward_matches_finite_differences() {
    let x = [0.6, -1.1, 0.35];
    let d_out = [0.7, -1.3];
    for (seed, activation) in (20..).zip(ACTIVATIONS) {
        let name = format!("{activation:?} Mlp 3-5-4-2");
        let base = Mlp::new(3, &[5, 4, 2], activation, &mut StdRng::seed_from_u64(seed));
        let (outputs, kink) = reference_forward(&base, &x);
        assert!(
            kink > 1e-2,
            "{name}: a pre-activation is {kink:e} from ReLU's kink"
        );
        assert_all_near(
            &format!("{name}: forward"),
            &base.forward(&x),
            &outputs,
            1e-14,
        );

        let mut model = base.clone();
        model.backward(&x, &d_out);
        let grads = model.grads();
        assert_eq!(grads.len(), 5 * 4 + 4 * 6 + 2 * 5);
        let weighted = |p: &[f64]| {
            with_parameters(&base, p, |m| {
                reference_forward(m, &x)
                    .0
                    .iter()
                    .zip(&d_out)
                    .map(|(o, d)| o * d)
                    .sum::<f64>()
            })
        };
        assert_gradient(&name, weighted, &base.parameters(), &grads);

        // A second backward adds the same gradient again.
        model.backward(&x, &d_out);
        let doubled: Vec<f64> = grads.iter().map(|g| 2.0 * g).collect();
        assert_all_near(
            &format!("{name}: accumulation"),
            &model.grads(),
            &doubled,
            1e-15,
        );
        model.zero_grad();
        assert!(model.grads().iter().all(|g| *g == 0.0), "{name}: zero_grad");
    }
}

// ---------------------------------------------------------------------------------------------
// train_loss and regularize
// ---------------------------------------------------------------------------------------------

/// Ten points, labels ±1 for the classification losses and real targets for the squared error.
fn loss_data(loss: Loss) -> (Vec<[f64; 2]>, Vec<f64>) {
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
            let base = Mlp::new(2, &[6, 5, 1], activation, &mut StdRng::seed_from_u64(seed));
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
    let mut model = Mlp::new(2, &[4, 1], Activation::Tanh, &mut StdRng::seed_from_u64(3));
    let (value, scores) = model.train_loss(&points, &labels, Loss::Logistic, 0.0);
    let mean = scores
        .iter()
        .zip(&labels)
        .map(|(s, y)| loss::logistic(*s, *y))
        .sum::<f64>()
        / 10.0;
    assert_near("mean logistic loss", value, mean, 1e-15);
    // One point, one output: the gradient of a linear network is d_loss · (x, 1).
    let mut linear = Mlp::new(2, &[1], Activation::Relu, &mut StdRng::seed_from_u64(4));
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
    let base = Mlp::new(
        3,
        &[4, 3, 2],
        Activation::Tanh,
        &mut StdRng::seed_from_u64(40),
    );
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

// ---------------------------------------------------------------------------------------------
// Losses
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// micrograd's Value engine as a second oracle
// ---------------------------------------------------------------------------------------------

/// The network rebuilt as micrograd `Value`s: the parameters in `Module::parameters` order.
fn value_parameters(model: &Mlp) -> Vec<Value> {
    model.parameters().into_iter().map(Value::new).collect()
}

/// micrograd's `MLP.__call__` on `Value`s, reading the parameters in `Module` order.
fn value_forward(model: &Mlp, params: &[Value], x: &[f64]) -> Vec<Value> {
    let mut next = 0;
    let mut a: Vec<Value> = x.iter().map(|xi| Value::new(*xi)).collect();
    for layer in &model.layers {
        a = layer
            .neurons
            .iter()
            .map(|n| {
                let w = &params[next..next + n.w.len()];
                let b = &params[next + n.w.len()];
                next += n.w.len() + 1;
                let act = w
                    .iter()
                    .zip(&a)
                    .fold(b.clone(), |sum, (wi, xi)| sum + wi * xi);
                match n.activation {
                    Activation::Relu => act.relu(),
                    Activation::Tanh => act.tanh(),
                    Activation::Linear => act,
                }
            })
            .collect();
    }
    a
}

fn value_loss(loss: Loss, score: &Value, label: f64) -> Value {
    match loss {
        Loss::Hinge => (1.0 - score * label).relu(),
        Loss::Logistic => (1.0 + (-(score * label)).exp()).ln(),
        Loss::Squared => (score - label).powi(2),
    }
}

#[test]
fn train_loss_gradient_matches_micrograd_value_engine() {
    let demo = make_moons(30, 0.1, 7);
    for (loss, activation, alpha) in [
        (Loss::Hinge, Activation::Relu, 1e-4),
        (Loss::Logistic, Activation::Tanh, 1e-3),
        (Loss::Squared, Activation::Relu, 0.0),
        (Loss::Hinge, Activation::Tanh, 0.05),
    ] {
        let name = format!("{loss:?}, {activation:?} 2-16-16-1, alpha {alpha}");
        let mut model = Mlp::new(2, &[16, 16, 1], activation, &mut StdRng::seed_from_u64(8));
        let params = value_parameters(&model);
        let losses: Vec<Value> = demo
            .points
            .iter()
            .zip(&demo.labels)
            .map(|(x, y)| value_loss(loss, &value_forward(&model, &params, x)[0], *y))
            .collect();
        let data_loss = losses.iter().sum::<Value>() * (1.0 / demo.len() as f64);
        let total = data_loss + alpha * params.iter().map(|p| p * p).sum::<Value>();
        total.backward();

        model.zero_grad();
        let (value, _) = model.train_loss(&demo.points, &demo.labels, loss, alpha);
        assert_near(&format!("{name}: loss"), value, total.data(), 1e-12);
        let engine: Vec<f64> = params.iter().map(Value::grad).collect();
        assert!(
            engine.iter().filter(|g| **g != 0.0).count() > 100,
            "{name}: too few live gradients"
        );
        assert_all_near(&name, &model.grads(), &engine, 1e-12);
    }
}

#[test]
fn mlp_backward_of_several_outputs_matches_micrograd_value_engine() {
    let x = [0.25, -0.9, 1.4];
    let d_out = [1.5, -0.5, 0.25];
    for activation in ACTIVATIONS {
        let mut model = Mlp::new(3, &[6, 5, 3], activation, &mut StdRng::seed_from_u64(50));
        let params = value_parameters(&model);
        let outputs = value_forward(&model, &params, &x);
        let forward = model.forward(&x);
        for (o, f) in outputs.iter().zip(&forward) {
            assert_near("forward", o.data(), *f, 1e-14);
        }
        let weighted: Value = outputs.iter().zip(d_out).map(|(o, d)| o * d).sum();
        weighted.backward();
        model.backward(&x, &d_out);
        let engine: Vec<f64> = params.iter().map(Value::grad).collect();
        assert_all_near(&format!("{activation:?}"), &model.grads(), &engine, 1e-12);
    }
}

// ---------------------------------------------------------------------------------------------
// Training: micrograd's demo
// ---------------------------------------------------------------------------------------------

/// examples/moons.rs with the default arguments: Mlp 2-16-16-1 ReLU initialised from
/// `seed + 1`, hinge + 1e-4 L2, 100 full-batch SGD steps at 1.0 - 0.9 k / 100. Returns the loss
/// of every step, the accuracy of the last step (what the example prints, micrograd's
/// convention: the scores before that step's update) and the accuracy of the trained model.
fn micrograd_demo(seed: u64) -> (Vec<f64>, f64, f64) {
    let moons = make_moons(100, 0.1, seed);
    let mut model = Mlp::new(
        2,
        &[16, 16, 1],
        Activation::Relu,
        &mut StdRng::seed_from_u64(seed + 1),
    );
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

// ---------------------------------------------------------------------------------------------
// Saving and loading
// ---------------------------------------------------------------------------------------------

/// A file of its own for each test, under Cargo's scratch directory for integration tests.
fn temp_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nn");
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir.join(name)
}

fn write_file(name: &str, text: &str) -> PathBuf {
    let path = temp_path(name);
    std::fs::write(&path, text).expect("write a scratch file");
    path
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// A 2-1 linear network (3 parameters) written by hand in the documented format.
fn saved_json(
    format: &str,
    version: u32,
    sizes: &str,
    activation: &str,
    parameters: &str,
) -> String {
    format!(
        r#"{{"format": "{format}", "version": {version}, "inputs": 2, "sizes": {sizes}, "activation": "{activation}", "parameters": {parameters}}}"#
    )
}

#[test]
fn save_then_load_is_bit_exact() {
    for (i, activation) in ACTIVATIONS.into_iter().enumerate() {
        let mut model = Mlp::new(
            3,
            &[5, 4, 2],
            activation,
            &mut StdRng::seed_from_u64(60 + i as u64),
        );
        // Numbers whose shortest decimal is long or unusual, among random ones.
        let mut p = model.parameters();
        let awkward = [
            0.1 + 0.2,
            1.0 / 3.0,
            -0.0,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            -1e-310,
            std::f64::consts::PI,
            123_456_789.123_456_79,
            -7.0e22,
        ];
        p[..awkward.len()].copy_from_slice(&awkward);
        model.set_parameters(&p);
        let path = temp_path(&format!("round-trip-{}.json", activation.name()));
        model.save(&path).expect("save");
        let loaded = Mlp::load(&path).expect("load");
        assert_eq!(
            bits(&loaded.parameters()),
            bits(&model.parameters()),
            "{activation:?}: parameters"
        );
        assert_eq!(loaded, model, "{activation:?}");
        assert_eq!(
            (loaded.inputs(), loaded.sizes(), loaded.activation()),
            (3, vec![5, 4, 2], activation)
        );

        // load_parameters into a network of the same shape, initialised differently.
        let mut other = Mlp::new(3, &[5, 4, 2], activation, &mut StdRng::seed_from_u64(99));
        assert_ne!(other.parameters(), model.parameters());
        other.load_parameters(&path).expect("load_parameters");
        assert_eq!(
            bits(&other.parameters()),
            bits(&model.parameters()),
            "{activation:?}: load_parameters"
        );
        assert_eq!(
            other.forward(&[0.1, 0.2, 0.3]),
            model.forward(&[0.1, 0.2, 0.3])
        );
    }
}

#[test]
fn saved_file_is_the_documented_json() {
    let mut model = Mlp::new(2, &[1], Activation::Linear, &mut StdRng::seed_from_u64(1));
    model.set_parameters(&[0.5, -1.25, 3.0]);
    let path = temp_path("documented.json");
    model.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(
        compact,
        r#"{"format":"micrograd-rs/mlp","version":1,"inputs":2,"sizes":[1],"activation":"linear","parameters":[0.5,-1.25,3.0]}"#
    );
    // A hand-written file in that format loads.
    let path = write_file(
        "hand-written.json",
        &saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[0.5, -1.25, 3]"),
    );
    assert_eq!(Mlp::load(&path).unwrap(), model);
}

/// Asserts that `load_parameters` fails and leaves the network (parameters and gradients) as it was.
fn load_parameters_fails(model: &mut Mlp, path: &std::path::Path) -> PersistError {
    model.backward(
        &vec![0.5; model.inputs()],
        &vec![1.0; model.sizes()[model.sizes().len() - 1]],
    );
    let before = model.clone();
    let error = model
        .load_parameters(path)
        .expect_err("load_parameters should fail");
    assert_eq!(
        *model, before,
        "a failed load_parameters changed the network ({error})"
    );
    error
}

#[test]
fn loading_a_file_that_is_not_json_is_a_format_error() {
    let path = write_file("not-json.json", "this is not { json");
    let shown = path.display().to_string();
    match Mlp::load(&path) {
        Err(PersistError::Format { path: p, reason }) => {
            assert_eq!(p, shown);
            assert!(!reason.is_empty());
        }
        other => panic!("expected a format error, got {other:?}"),
    }
    let error = Mlp::load(&path).unwrap_err().to_string();
    assert!(
        error.contains(&shown) && error.contains("is not a saved micrograd-rs network"),
        "{error}"
    );
    let mut model = Mlp::new(2, &[3, 1], Activation::Tanh, &mut StdRng::seed_from_u64(2));
    assert!(matches!(
        load_parameters_fails(&mut model, &path),
        PersistError::Format { .. }
    ));
}

#[test]
fn loading_json_that_is_not_a_network_is_a_format_error() {
    let valid_params = "[0.5, -1.25, 3.0]";
    let cases = [
        (
            "other-format.json",
            saved_json("keras/model", 1, "[1]", "linear", valid_params),
            "keras/model",
        ),
        (
            "other-version.json",
            saved_json("micrograd-rs/mlp", 2, "[1]", "linear", valid_params),
            "version 2",
        ),
        ("array.json", "[1.0, 2.0, 3.0]".to_string(), ""),
        (
            "missing-field.json",
            r#"{"format": "micrograd-rs/mlp", "version": 1, "inputs": 2}"#.to_string(),
            "sizes",
        ),
        (
            "unknown-activation.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "sigmoid", valid_params),
            "sigmoid",
        ),
        (
            "empty-layer.json",
            saved_json("micrograd-rs/mlp", 1, "[0, 1]", "relu", "[]"),
            "non-empty layers",
        ),
        (
            "no-layers.json",
            saved_json("micrograd-rs/mlp", 1, "[]", "relu", "[]"),
            "non-empty layers",
        ),
        (
            "too-few-parameters.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[0.5, -1.25]"),
            "2 parameters",
        ),
        (
            "too-many-parameters.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[1, 2, 3, 4]"),
            "4 parameters",
        ),
        (
            "null-parameter.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[1, null, 3]"),
            "",
        ),
    ];
    for (name, text, mentions) in cases {
        let path = write_file(name, &text);
        match Mlp::load(&path) {
            Err(error @ PersistError::Format { .. }) => {
                assert!(
                    error.to_string().contains(mentions),
                    "{name}: `{error}` does not mention `{mentions}`"
                );
            }
            other => panic!("{name}: expected a format error, got {other:?}"),
        }
        let mut model = Mlp::new(2, &[1], Activation::Relu, &mut StdRng::seed_from_u64(3));
        assert!(
            matches!(
                load_parameters_fails(&mut model, &path),
                PersistError::Format { .. } | PersistError::Shape { .. }
            ),
            "{name}"
        );
    }
}

#[test]
fn loading_parameters_of_another_shape_names_both_shapes() {
    let path = temp_path("shape-2-4-1-tanh.json");
    Mlp::new(2, &[4, 1], Activation::Tanh, &mut StdRng::seed_from_u64(4))
        .save(&path)
        .unwrap();
    for (inputs, sizes, activation, expected) in [
        (2, &[3, 1][..], Activation::Tanh, "2-3-1 (tanh)"),
        (2, &[4, 1][..], Activation::Relu, "2-4-1 (relu)"),
        (3, &[4, 1][..], Activation::Tanh, "3-4-1 (tanh)"),
        (2, &[4, 1, 1][..], Activation::Tanh, "2-4-1-1 (tanh)"),
    ] {
        let mut model = Mlp::new(inputs, sizes, activation, &mut StdRng::seed_from_u64(5));
        let error = load_parameters_fails(&mut model, &path);
        let message = error.to_string();
        match error {
            PersistError::Shape {
                expected: e,
                found,
                path: p,
            } => {
                assert_eq!((e.as_str(), found.as_str()), (expected, "2-4-1 (tanh)"));
                assert_eq!(p, path.display().to_string());
            }
            other => panic!("{expected}: expected a shape error, got {other:?}"),
        }
        assert!(
            message.contains(expected) && message.contains("2-4-1 (tanh)"),
            "{message}"
        );
    }
}

#[test]
fn loading_a_missing_file_is_an_io_error() {
    let path = temp_path("does-not-exist.json");
    let _ = std::fs::remove_file(&path);
    match Mlp::load(&path) {
        Err(error @ PersistError::Io { .. }) => {
            let PersistError::Io { source, path: p } = &error else {
                unreachable!()
            };
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
            assert_eq!(*p, path.display().to_string());
            assert!(error.to_string().contains(p.as_str()), "{error}");
            assert!(std::error::Error::source(&error).is_some());
        }
        other => panic!("expected an io error, got {other:?}"),
    }
    let mut model = Mlp::new(2, &[3, 1], Activation::Relu, &mut StdRng::seed_from_u64(6));
    assert!(matches!(
        load_parameters_fails(&mut model, &path),
        PersistError::Io { .. }
    ));
}

#[test]
fn saving_into_a_missing_directory_is_an_io_error() {
    let path = temp_path("no-such-directory").join("model.json");
    let model = Mlp::new(2, &[3, 1], Activation::Relu, &mut StdRng::seed_from_u64(6));
    assert!(matches!(model.save(&path), Err(PersistError::Io { .. })));
}

#[test]
fn loading_a_file_of_absurd_size_is_an_error_not_a_panic() {
    // A network of 2^62 inputs cannot be built; the file lists 3 parameters, so it cannot hold
    // one either. The loader should say so (a format error) rather than try to allocate it.
    let text = r#"{"format": "micrograd-rs/mlp", "version": 1, "inputs": 4611686018427387904, "sizes": [1], "activation": "linear", "parameters": [1, 2, 3]}"#;
    let path = write_file("absurd-size.json", text);
    let result = std::panic::catch_unwind(|| Mlp::load(&path).map(|m| m.parameter_count()));
    match result {
        Ok(Err(PersistError::Format { .. })) => {}
        Ok(other) => panic!("expected a format error, got {other:?}"),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!("Mlp::load panicked instead of returning an error: {message:?}");
        }
    }
}

#[test]
fn saving_a_network_that_cannot_be_loaded_back_is_an_error() {
    // JSON has no NaN or infinity: a diverged network must not be written as a file that
    // `load` then rejects.
    for bad in [f64::NAN, f64::INFINITY] {
        let mut model = Mlp::new(2, &[1], Activation::Linear, &mut StdRng::seed_from_u64(7));
        model.set_parameters(&[1.0, bad, 3.0]);
        let path = temp_path(&format!("non-finite-{bad}.json"));
        let _ = std::fs::remove_file(&path);
        if model.save(&path).is_ok() {
            let loaded = Mlp::load(&path);
            let round_trip = loaded
                .as_ref()
                .map(|m| bits(&m.parameters()) == bits(&model.parameters()));
            assert!(
                matches!(round_trip, Ok(true)),
                "save of a {bad} parameter succeeded, but load gives {loaded:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bad inputs
// ---------------------------------------------------------------------------------------------

fn small_mlp() -> Mlp {
    Mlp::new(2, &[3, 1], Activation::Relu, &mut StdRng::seed_from_u64(70))
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 3")]
fn forward_with_too_many_inputs_panics() {
    small_mlp().forward(&[0.1, 0.2, 0.3]);
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 1")]
fn forward_with_too_few_inputs_panics() {
    small_mlp().forward(&[0.1]);
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 3")]
fn backward_with_the_wrong_input_size_panics() {
    small_mlp().backward(&[0.1, 0.2, 0.3], &[1.0]);
}

#[test]
#[should_panic(expected = "the network has 1 outputs but d_out has 2 entries")]
fn backward_with_the_wrong_output_gradient_size_panics() {
    small_mlp().backward(&[0.1, 0.2], &[1.0, 1.0]);
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 3")]
fn train_loss_with_the_wrong_point_size_panics() {
    small_mlp().train_loss(&[[0.1, 0.2, 0.3]], &[1.0], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "Hinge loss: label 1 is 0.5, expected -1 or +1")]
fn hinge_with_a_label_of_one_half_panics() {
    small_mlp().train_loss(&[[0.1, 0.2], [0.3, 0.4]], &[1.0, 0.5], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "Logistic loss: label 0 is 0, expected -1 or +1")]
fn logistic_with_a_label_of_zero_panics() {
    small_mlp().train_loss(&[[0.1, 0.2]], &[0.0], Loss::Logistic, 0.0);
}

#[test]
#[should_panic(expected = "Squared loss: label 0 is NaN, expected a finite number")]
fn squared_error_with_a_nan_target_panics() {
    small_mlp().train_loss(&[[0.1, 0.2]], &[f64::NAN], Loss::Squared, 0.0);
}

#[test]
fn a_rejected_label_leaves_the_gradients_untouched() {
    let mut model = small_mlp();
    let before = model.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        model.train_loss(&[[0.1, 0.2], [0.3, 0.4]], &[1.0, 2.0], Loss::Hinge, 1e-4)
    }));
    assert!(result.is_err(), "a label 2 for the hinge loss was accepted");
    assert_eq!(model, before);
}

#[test]
#[should_panic(expected = "3 points but 2 labels")]
fn train_loss_with_more_points_than_labels_panics() {
    small_mlp().train_loss(
        &[[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]],
        &[1.0, -1.0],
        Loss::Hinge,
        0.0,
    );
}

#[test]
#[should_panic(expected = "train_loss needs at least one point")]
fn train_loss_without_points_panics() {
    small_mlp().train_loss::<[f64; 2]>(&[], &[], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "train_loss needs one output, the network has [3, 2]")]
fn train_loss_of_a_network_with_two_outputs_panics() {
    let mut model = Mlp::new(2, &[3, 2], Activation::Relu, &mut StdRng::seed_from_u64(71));
    model.train_loss(&[[0.1, 0.2]], &[1.0], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "expected 13 parameters, got 12")]
fn mlp_set_parameters_of_the_wrong_length_panics() {
    small_mlp().set_parameters(&[0.0; 12]);
}

#[test]
#[should_panic(expected = "expected 9 parameters, got 10")]
fn layer_set_parameters_of_the_wrong_length_panics() {
    Layer::new(2, 3, Activation::Tanh, &mut StdRng::seed_from_u64(72)).set_parameters(&[0.0; 10]);
}

#[test]
#[should_panic(expected = "expected 3 parameters, got 2")]
fn neuron_set_parameters_of_the_wrong_length_panics() {
    neuron(&[1.0, 2.0], 0.0, Activation::Linear).set_parameters(&[0.0; 2]);
}

#[test]
#[should_panic(
    expected = "an Mlp needs inputs and non-empty layers, got 2 inputs and layers [3, 0, 1]"
)]
fn mlp_with_an_empty_layer_panics() {
    Mlp::new(
        2,
        &[3, 0, 1],
        Activation::Relu,
        &mut StdRng::seed_from_u64(73),
    );
}

// ---------------------------------------------------------------------------------------------
// gradcheck itself
// ---------------------------------------------------------------------------------------------

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
    let base = Mlp::new(2, &[5, 1], Activation::Tanh, &mut StdRng::seed_from_u64(80));
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
