//! Generated gradients of straight-line code and of accumulation loops do not allocate; a loop
//! that must record keeps its first 16 values in the tape itself and allocates once, sized up
//! front, for longer runs (which also shows the counter counts). `allocation-counter` installs
//! the counting global allocator in this test binary.

use allocation_counter::measure;
use micrograd_runtime::prelude::*;
use std::hint::black_box;

#[differentiable]
fn straight(a: f64, b: f64, c: f64) -> f64 {
    let mut d = a * b + b.powi(3) - c / (a * a + 1.0);
    d += (a - c).relu() * b.tanh() + (b * c).exp().ln_1p();
    let e = if d > 0.0 { d.sqrt() } else { d.sin() };
    e.max(a).hypot(c) * d.sigmoid()
}

#[differentiable]
fn dot(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s
}

#[differentiable(wrt(w, b))]
fn neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    let mut s = b;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s.tanh()
}

#[differentiable]
fn two_dots(w: &[f64], x: &[f64]) -> f64 {
    dot(&w[..2], &x[..2]) * dot(&w[2..], &x[2..])
}

#[differentiable]
fn sum_tanh(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += (w[i] * x[i]).tanh();
    }
    s
}

#[differentiable]
fn iterate(x: f64, n: usize) -> f64 {
    let mut y = x;
    for _ in 0..n {
        y = (y * 0.9).sin() + 0.1;
    }
    y
}

/// Writes `w` in place.
#[differentiable]
fn squash(w: &mut [f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).tanh();
        s += w[i];
    }
    s * a
}

/// Lends a local array whole and in part.
#[differentiable]
fn lends(x: f64, y: f64) -> f64 {
    let mut h = [x, y, 0.5];
    squash(&mut h, x);
    let s = squash(&mut h[1..], y);
    h[0] * s
}

/// Lends a local array `n` times.
#[differentiable]
fn lends_in_loop(x: f64, n: usize) -> f64 {
    let mut h = [x, 0.5];
    for _ in 0..n {
        squash(&mut h, x);
    }
    h[0] + h[1]
}

/// How many allocations `f` performs.
fn allocations<T>(f: impl FnOnce() -> T) -> u64 {
    measure(|| {
        black_box(f());
    })
    .count_total
}

fn inputs() -> (Vec<f64>, Vec<f64>) {
    (
        black_box(vec![0.3, -1.2, 0.8, 2.1, -0.4]),
        black_box(vec![1.5, 0.2, -0.7, 0.9, -1.8]),
    )
}

#[test]
fn the_counter_counts() {
    assert_eq!(allocations(|| vec![black_box(1.0)]), 1);
}

#[test]
fn straight_line_code_allocates_nothing() {
    assert_eq!(allocations(|| straight_grad(black_box(0.7), -1.3, 2.0)), 0);
    assert_eq!(
        allocations(|| straight_grad(black_box(-2.0), 0.4, 0.6)),
        0,
        "the other branch"
    );
    assert_eq!(straight_grad(0.7, -1.3, 2.0).0, straight(0.7, -1.3, 2.0));
}

#[test]
fn accumulation_loops_and_calls_allocate_nothing() {
    let (w, x) = inputs();
    let (mut d_w, mut d_x) = (vec![0.0; 5], vec![0.0; 5]);
    assert_eq!(
        allocations(|| dot_grad(&w, &mut d_w, &x, &mut d_x)),
        0,
        "dot product"
    );
    assert_eq!(
        allocations(|| neuron_grad(&w, &mut d_w, black_box(0.1), &x)),
        0,
        "neuron"
    );
    assert_eq!(
        allocations(|| two_dots_grad(&w, &mut d_w, &x, &mut d_x)),
        0,
        "sub-slice calls"
    );
    assert_eq!(dot_grad(&w, &mut d_w, &x, &mut d_x), dot(&w, &x));
    assert_eq!(neuron_grad(&w, &mut d_w, 0.1, &x).0, neuron(&w, 0.1, &x));
    assert_eq!(two_dots_grad(&w, &mut d_w, &x, &mut d_x), two_dots(&w, &x));
}

#[test]
fn loops_that_must_record_allocate_only_past_sixteen_values() {
    let (w, x) = inputs();
    let (mut d_w, mut d_x) = (vec![0.0; 5], vec![0.0; 5]);
    // Each tanh is needed by the reverse sweep and overwritten by the next iteration: five of
    // them fit in the tape's inline slots.
    assert_eq!(
        allocations(|| sum_tanh_grad(&w, &mut d_w, &x, &mut d_x)),
        0,
        "sum of tanh"
    );
    for (n, expected) in [(0, 0), (16, 0), (17, 1), (40, 1)] {
        assert_eq!(
            allocations(|| iterate_grad(black_box(0.5), black_box(n))),
            expected,
            "iterate {n} times"
        );
        assert_eq!(iterate_grad(0.5, n).0, iterate(0.5, n));
    }
    assert_eq!(sum_tanh_grad(&w, &mut d_w, &x, &mut d_x), sum_tanh(&w, &x));
}

/// The entries a call is lent are recorded on a tape whose first 16 values are inline; a loop
/// sizes it up front for all its iterations' entries.
#[test]
fn lent_arrays_allocate_only_past_sixteen_entries() {
    assert_eq!(allocations(|| lends_grad(black_box(0.7), -0.4)), 0);
    assert_eq!(lends_grad(0.7, -0.4).0, lends(0.7, -0.4));
    for (n, expected) in [(0, 0), (8, 0), (9, 1), (40, 1)] {
        assert_eq!(
            allocations(|| lends_in_loop_grad(black_box(0.5), black_box(n))),
            expected,
            "lent {n} times"
        );
        assert_eq!(lends_in_loop_grad(0.5, n).0, lends_in_loop(0.5, n));
    }
}

/// A training step of the runtime's networks (loss, gradient, update) allocates nothing once
/// the network has run one: its buffers are kept. Both paths: one generated gradient of the
/// whole network (ReLU, two hidden layers), and layer by layer (tanh); 600 points make three
/// blocks, which run on rayon's pool.
#[test]
fn a_training_step_allocates_nothing_after_the_first() {
    use micrograd_runtime::loss::Loss;
    use micrograd_runtime::nn::{Activation, Mlp, Module};
    use micrograd_runtime::optim::{Optimizer, Sgd};
    let data = micrograd_runtime::data::make_moons(600, 0.1, 7);
    for activation in [Activation::Relu, Activation::Tanh] {
        let mut model = Mlp::new(2, &[16, 16, 1], activation, 7);
        let mut sgd = Sgd::new(0.1);
        let mut scores = vec![0.0; data.len()];
        let mut step = |model: &mut Mlp| {
            model.zero_grad();
            let loss =
                model.train_loss_into(&data.points, &data.labels, Loss::Hinge, 1e-4, &mut scores);
            let view = model.parameters_mut();
            sgd.step(view.values, view.grads);
            loss
        };
        // The first step sizes the buffers (and starts rayon's pool).
        step(&mut model);
        assert_eq!(
            allocations(|| black_box(step(&mut model))),
            0,
            "{activation:?}"
        );
    }
}

/// `training::Trainer` allocates its history and score buffers once per run, nothing per step.
#[test]
fn a_trainer_allocates_nothing_per_step() {
    use micrograd_runtime::loss::Loss;
    use micrograd_runtime::nn::{Activation, Mlp};
    use micrograd_runtime::optim::Sgd;
    use micrograd_runtime::training::{Step, Trainer};
    let data = micrograd_runtime::data::make_moons(600, 0.1, 7);
    let mut model = Mlp::new(2, &[16, 16, 1], Activation::Tanh, 7);
    let mut run = |steps: usize| {
        let mut trainer = Trainer::new(Loss::Hinge, Sgd::new(0.1))
            .steps(steps)
            .observe(|step: &Step| {
                black_box(step.loss);
            });
        black_box(trainer.run(&mut model, &data.points, &data.labels))
    };
    run(1); // sizes the model's buffers
    let one = allocations(|| run(1));
    let twenty = allocations(|| run(20));
    assert_eq!(one, twenty);
}
