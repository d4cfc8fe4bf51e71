//! micrograd's demo network in `f32` (issue 13): its loss, written in `f32` throughout
//! (`benches/tasks/moons32.rs`), differentiated in `f32` and checked against central
//! differences of the same loss in `f64`, then trained by gradient descent in `f32`.

use crate::common;

#[macro_use]
#[path = "../../benches/tasks/moons32.rs"]
mod moons32;

use common::assert_f32_partial;
use micrograd_runtime::data::make_moons;
use micrograd_runtime::nn::{Activation, Mlp, Module};
use micrograd_runtime::prelude::*;
use moons32::{moons_loss32, moons_loss32_grad, narrow};

demo_loss!(moons_loss64, f64);

/// micrograd's initial network and `n` two-moons points, in `f32`.
fn inputs(n: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let p = Mlp::new(2, &[16, 16, 1], Activation::Relu, 1337).parameters();
    let data = make_moons(n, 0.1, 1337);
    (
        narrow(&p),
        narrow(&data.flat_points()),
        narrow(&data.labels),
    )
}

#[test]
fn gradient_matches_f64_finite_differences() {
    let (p, xs, ys) = inputs(40);
    let mut d_p = vec![0.0_f32; p.len()];
    let value = moons_loss32_grad(&p, &mut d_p, &xs, &ys);
    assert_eq!(value.to_bits(), moons_loss32(&p, &xs, &ys).to_bits());
    let (xs64, ys64): (Vec<f64>, Vec<f64>) = (
        xs.iter().copied().map(f64::from).collect(),
        ys.iter().copied().map(f64::from).collect(),
    );
    let point: Vec<f64> = p.iter().copied().map(f64::from).collect();
    let wide = |q: &[f64]| moons_loss64(q, &xs64, &ys64);
    assert!(
        (f64::from(value) - wide(&point)).abs() < 1e-5,
        "the f32 loss is the f64 one, rounded"
    );
    for (i, &d) in d_p.iter().enumerate() {
        assert_f32_partial("moons", wide, &point, i, d);
    }
}

#[test]
fn training_in_f32_lowers_the_loss_as_in_f64() {
    let (mut p, xs, ys) = inputs(100);
    let mut p64: Vec<f64> = p.iter().copied().map(f64::from).collect();
    let (xs64, ys64): (Vec<f64>, Vec<f64>) = (
        xs.iter().copied().map(f64::from).collect(),
        ys.iter().copied().map(f64::from).collect(),
    );
    let first = moons_loss32(&p, &xs, &ys);
    let mut losses = Vec::new();
    for step in 0..30 {
        // micrograd's demo schedule.
        let rate = 1.0 - 0.9 * step as f32 / 100.0;
        let mut d_p = vec![0.0_f32; p.len()];
        let loss = moons_loss32_grad(&p, &mut d_p, &xs, &ys);
        for (w, d) in p.iter_mut().zip(&d_p) {
            *w -= rate * d;
        }
        let mut d_p64 = vec![0.0; p64.len()];
        let loss64 = moons_loss64_grad(&p64, &mut d_p64, &xs64, &ys64);
        for (w, d) in p64.iter_mut().zip(&d_p64) {
            *w -= f64::from(rate) * d;
        }
        // The two runs take the same steps, up to f32 rounding.
        assert!(
            (f64::from(loss) - loss64).abs() <= 1e-3 * loss64.max(1.0),
            "step {step}: loss {loss} in f32, {loss64} in f64"
        );
        losses.push(loss);
    }
    let last = moons_loss32(&p, &xs, &ys);
    assert!(
        last < 0.5 * first,
        "the loss went from {first} to {last}: {losses:?}"
    );
}
