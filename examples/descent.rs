//! Gradient descent on a bowl: `L(w1, w2) = ((w1 - 1)² + (w2 - 5)²) / 2` from `(2, 3)`.
//!
//! `cargo run --example descent` differentiates `L` at compile time, steps against the gradient
//! with `optim::Sgd`, prints a few steps and checks that `w` reaches the minimum `(1, 5)`.
//! At `(2, 3)` the gradient is `(w1 - 1, w2 - 5) = (1, -2)`; with learning rate `lr` each step
//! shrinks the distance to the minimum by the factor `1 - lr`.

use micrograd_runtime::optim::{Optimizer, Sgd};
use micrograd_runtime::prelude::*;

/// Half the squared distance from `(1, 5)`.
#[differentiable]
fn bowl(w1: f64, w2: f64) -> f64 {
    ((w1 - 1.0).powi(2) + (w2 - 5.0).powi(2)) / 2.0
}

fn main() {
    let learning_rate = 0.25;
    let steps = 100;
    let mut sgd = Sgd::new(learning_rate);
    let mut w = [2.0, 3.0];

    let (_, first_d1, first_d2) = bowl_grad(w[0], w[1]);
    println!("gradient at (2, 3): ({first_d1}, {first_d2})");
    println!(
        "{:>4}  {:>10}  {:>10}  {:>12}  {:>10}  {:>10}",
        "step", "w1", "w2", "loss", "dL/dw1", "dL/dw2"
    );
    let mut loss = f64::NAN;
    for step in 0..steps {
        let (value, d1, d2) = bowl_grad(w[0], w[1]);
        loss = value;
        if step < 6 || step % 20 == 0 {
            println!(
                "{step:>4}  {:>10.6}  {:>10.6}  {value:>12.4e}  {d1:>10.6}  {d2:>10.6}",
                w[0], w[1]
            );
        }
        sgd.step(&mut w, &[d1, d2]);
    }
    println!(
        "after {steps} steps: w = ({:.12}, {:.12}), loss {:.3e} (before the last step {loss:.3e})",
        w[0],
        w[1],
        bowl(w[0], w[1])
    );

    assert_eq!(
        (first_d1, first_d2),
        (1.0, -2.0),
        "the gradient at (2, 3) is (1, -2)"
    );
    // After k steps w - (1, 5) = (1 - lr)^k · ((2, 3) - (1, 5)).
    let shrink = (1.0 - learning_rate).powi(steps);
    let expected = [1.0 + shrink, 5.0 - 2.0 * shrink];
    assert!(
        (w[0] - expected[0]).abs() < 1e-12 && (w[1] - expected[1]).abs() < 1e-12,
        "w = {w:?}, but exact gradient descent gives {expected:?}"
    );
    assert!(
        (w[0] - 1.0).abs() < 1e-9 && (w[1] - 5.0).abs() < 1e-9,
        "w = {w:?} did not converge to (1, 5)"
    );
}
