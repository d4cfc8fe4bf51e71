//! T5 `moons-large`: micrograd's demo loss and gradient (2-16-16-1, hinge, 1e-4 L2) over 10⁵
//! and 10⁶ points, per point against the hand-written gradient of T3: the one-function
//! generated gradient (`moons_loss_grad`, one call over all the points), and the runtime's
//! `Mlp` on one thread and on every core (rayon's pool).
//!
//! `cargo bench --bench training -- --warm-up-time 1 --measurement-time 3`
//!
//! Before timing, the generated and the `Mlp`'s loss and gradient are checked against the
//! hand-written ones (to 1e-9 relative; the generated value bit for bit against `moons_loss`)
//! and the one-thread and all-thread results against each other (bit for bit).
//!
//! T9 `grid`: `Mlp` on one thread against a straightforward hand-written gradient of the same
//! network (benches/tasks/grid.rs) on the grid's cells and two more shapes, at 10⁵ points:
//! `cargo bench --bench training -- T9 --warm-up-time 1 --measurement-time 3`, or one cell with
//! `-- T9_grid/.*/tanh-64-128-1`.

#[allow(dead_code)]
#[path = "tasks/mod.rs"]
mod tasks;

use std::hint::black_box;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Mlp, Module};
use tasks::{grid, moons};

/// The `Mlp`'s loss (the gradient into its gradients, the scores into `scores`), on `pool`.
fn mlp_loss(
    pool: &rayon::ThreadPool,
    mlp: &mut Mlp,
    data: &moons::Inputs,
    scores: &mut [f64],
) -> f64 {
    mlp.zero_grad();
    let (points, labels) = (&data.data.points, &data.data.labels);
    pool.install(|| mlp.train_loss_into(points, labels, Loss::Hinge, moons::ALPHA, scores))
}

/// Checks the `Mlp` on one thread and on `all` against the hand-written gradient.
fn check(data: &moons::Inputs, one: &rayon::ThreadPool, all: &rayon::ThreadPool) {
    let mut want = vec![0.0; moons::PARAMS];
    let value = moons::moons_hand(&data.p, &mut want, &data.xs, &data.data.labels);
    want.push(value);
    let (xs, ys) = (&data.xs, &data.data.labels);
    let mut got = vec![0.0; moons::PARAMS];
    let value = moons::moons_loss_grad(&data.p, &mut got, xs, ys);
    assert_eq!(
        value.to_bits(),
        moons::moons_loss(&data.p, xs, ys).to_bits()
    );
    got.push(value);
    tasks::assert_close("T5 generated", &got, &want);
    let mut scores = vec![0.0; data.data.len()];
    let mut results = Vec::new();
    for pool in [one, all] {
        let mut mlp = data.mlp.clone();
        let value = mlp_loss(pool, &mut mlp, data, &mut scores);
        let mut got = mlp.grads();
        got.push(value);
        tasks::assert_close("T5 Mlp", &got, &want);
        results.push(got.iter().map(|g| g.to_bits()).collect::<Vec<_>>());
    }
    assert!(
        results[0] == results[1],
        "T5: one thread and all threads differ"
    );
}

fn t5_large(c: &mut Criterion) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let all = rayon::ThreadPoolBuilder::new().build().expect("a pool");
    eprintln!(
        "T5: {} threads in the all-core pool",
        all.current_num_threads()
    );
    let mut g = c.benchmark_group("T5_moons_large");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    for n in [100_000, 1_000_000] {
        let data = moons::inputs(n);
        check(&data, &one, &all);
        g.throughput(Throughput::Elements(n as u64));
        let mut d_p = vec![0.0; moons::PARAMS];
        g.bench_with_input(BenchmarkId::new("hand", n), &n, |bench, _| {
            bench.iter(|| {
                moons::moons_hand(black_box(&data.p), &mut d_p, &data.xs, &data.data.labels)
            })
        });
        g.bench_with_input(BenchmarkId::new("generated", n), &n, |bench, _| {
            bench.iter(|| {
                moons::moons_loss_grad(black_box(&data.p), &mut d_p, &data.xs, &data.data.labels)
            })
        });
        let (mut mlp, mut scores) = (data.mlp.clone(), vec![0.0; n]);
        g.bench_with_input(BenchmarkId::new("Mlp-1-thread", n), &n, |bench, _| {
            bench.iter(|| mlp_loss(&one, &mut mlp, black_box(&data), &mut scores))
        });
        g.bench_with_input(BenchmarkId::new("Mlp-all-threads", n), &n, |bench, _| {
            bench.iter(|| mlp_loss(&all, &mut mlp, black_box(&data), &mut scores))
        });
    }
    g.finish();
}

/// The shapes of T9 beside the grid's cells (`grid::cells`): two off its axes.
const T9_SHAPES: [&str; 2] = ["relu-2-32-32-1", "relu-10-8-8-8-1"];

fn t9_grid(c: &mut Criterion) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let mut g = c.benchmark_group("T9_grid");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    let n = 100_000;
    g.throughput(Throughput::Elements(n as u64));
    let shapes = T9_SHAPES.iter().map(ToString::to_string);
    for shape in shapes.chain(grid::cells()) {
        let shape = shape.as_str();
        // One block, where the sums run in the same order.
        grid::check(shape, 200);
        let inputs = grid::inputs(shape, n);
        let mut mlp = inputs.mlp.clone();
        let mut hand = grid::Hand::new(mlp.inputs(), &mlp.sizes(), mlp.activation());
        let (mut d_p, mut scores) = (vec![0.0; inputs.p.len()], vec![0.0; n]);
        let (points, labels) = (&inputs.points, &inputs.labels);
        g.bench_with_input(BenchmarkId::new("hand", shape), &n, |bench, _| {
            bench.iter(|| {
                d_p.fill(0.0);
                hand.loss_grad(black_box(&inputs.p), &mut d_p, points, labels, grid::ALPHA)
            })
        });
        g.bench_with_input(BenchmarkId::new("Mlp-1-thread", shape), &n, |bench, _| {
            bench.iter(|| one.install(|| grid::mlp_loss(&mut mlp, black_box(&inputs), &mut scores)))
        });
    }
    g.finish();
}

criterion_group!(training, t5_large, t9_grid);
criterion_main!(training);
