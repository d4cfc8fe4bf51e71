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
use micrograd_runtime::rng::PythonRandom;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;

mod backward;
mod bad_inputs;
mod gradcheck_itself;
mod losses;
mod paths;
#[cfg(feature = "serde")]
mod persist;
mod train_loss;
mod training;
mod value_oracle;

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
        Activation::Sigmoid => 1.0 / (1.0 + (-z).exp()),
        Activation::Linear => z,
    }
}

/// The derivative of the activation at pre-activation `z` (relu'(0) = 0, as PyTorch).
fn activate_derivative(activation: Activation, z: f64) -> f64 {
    match activation {
        Activation::Relu => f64::from(u8::from(z > 0.0)),
        Activation::Tanh => 1.0 - z.tanh().powi(2),
        Activation::Sigmoid => {
            let s = 1.0 / (1.0 + (-z).exp());
            s * (1.0 - s)
        }
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
    for layer in model.layers() {
        a = layer
            .neurons()
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
