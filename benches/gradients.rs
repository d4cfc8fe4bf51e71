//! T1-T6 (BENCHMARKS.md): the generated gradient against a hand-written one, the function
//! itself, and the peers `reverse`, `num-dual` and `micrograd_runtime::Value` (and `Mlp` on T3).
//!
//! `CARGO_TARGET_DIR=/work/target-e cargo bench --bench gradients -- --warm-up-time 1 --measurement-time 3`
//!
//! Every task first asserts that each contender's gradient equals the hand-written one to 1e-9
//! relative (benches/tasks/). Shadows (`d_x`) are not zeroed between iterations: `f_grad` and
//! the hand-written gradients add into them, and the timing is of that addition. Contenders that
//! take milliseconds per call are in `*_slow` groups with 10 flat samples.

// The grid of network shapes (tasks/grid.rs) is measured by benches/training.rs, not here.
#[allow(dead_code)]
#[path = "tasks/mod.rs"]
mod tasks;

#[path = "tasks/moons32.rs"]
mod moons32;

use std::hint::black_box;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use micrograd_runtime::shadow::Differentiable;
use nalgebra::DVector;
use tasks::{exits, iterators, moons, neuron64, readme, scaling};

/// T1 `readme`: two partials of micrograd's README expression.
fn t1_readme(c: &mut Criterion) {
    readme::check();
    let (a, b) = readme::POINT;
    let tape = reverse::Tape::new();
    let mut g = c.benchmark_group("T1_readme");
    g.bench_function("f", |bench| {
        bench.iter(|| readme::readme(black_box(a), black_box(b)))
    });
    g.bench_function("hand", |bench| {
        bench.iter(|| readme::readme_hand(black_box(a), black_box(b)))
    });
    g.bench_function("generated", |bench| {
        bench.iter(|| readme::readme_grad(black_box(a), black_box(b)))
    });
    g.bench_function("reverse", |bench| {
        bench.iter(|| readme::readme_reverse(&tape, black_box(a), black_box(b)))
    });
    g.bench_function("num-dual", |bench| {
        bench.iter(|| readme::readme_num_dual(black_box(a), black_box(b)))
    });
    g.bench_function("Value", |bench| {
        bench.iter(|| readme::readme_value(black_box(a), black_box(b)))
    });
    g.finish();
}

/// T2 `neuron64`: 65 partials of a tanh neuron.
fn t2_neuron64(c: &mut Criterion) {
    neuron64::check();
    let (w, b, x) = neuron64::inputs();
    let params = neuron64::params(&w, b);
    let mut d_w = vec![0.0; neuron64::N];
    let tape = reverse::Tape::new();
    let mut g = c.benchmark_group("T2_neuron64");
    g.bench_function("f", |bench| {
        bench.iter(|| neuron64::neuron64(black_box(&w), black_box(b), &x))
    });
    g.bench_function("hand", |bench| {
        bench.iter(|| neuron64::neuron64_hand(black_box(&w), &mut d_w, black_box(b), &x))
    });
    g.bench_function("generated", |bench| {
        bench.iter(|| neuron64::neuron64_grad(black_box(&w), &mut d_w, black_box(b), &x))
    });
    let neuron = neuron64::Neuron { w: w.clone(), b };
    let mut d_neuron = neuron.zeroed_like();
    g.bench_function("generated-struct", |bench| {
        bench.iter(|| neuron64::neuron64_struct_grad(black_box(&neuron), &mut d_neuron, &x))
    });
    g.bench_function("reverse", |bench| {
        bench.iter(|| neuron64::neuron64_reverse(&tape, black_box(&w), black_box(b), &x))
    });
    g.bench_function("num-dual", |bench| {
        bench.iter(|| neuron64::neuron64_num_dual(black_box(&params), &x))
    });
    g.bench_function("Value", |bench| {
        bench.iter(|| neuron64::neuron64_value(black_box(&w), black_box(b), &x))
    });
    g.finish();
}

/// T3 `moons-step`: 337 partials of micrograd's demo loss over 100 points.
fn t3_moons(c: &mut Criterion) {
    moons::check(100, true);
    let moons::Inputs {
        mut mlp,
        p,
        data,
        xs,
    } = moons::inputs(100);
    let ys = &data.labels;
    eprintln!(
        "T3: {} of {} points have an active hinge (a non-zero backward pass)",
        moons::active_points(&p, &xs, ys),
        ys.len()
    );
    let mut d_p = vec![0.0; moons::PARAMS];
    let tape = reverse::Tape::new();
    let mut g = c.benchmark_group("T3_moons");
    g.bench_function("f", |bench| {
        bench.iter(|| moons::moons_loss(black_box(&p), &xs, ys))
    });
    g.bench_function("hand", |bench| {
        bench.iter(|| moons::moons_hand(black_box(&p), &mut d_p, &xs, ys))
    });
    g.bench_function("hand-dense", |bench| {
        bench.iter(|| moons::moons_hand_dense(black_box(&p), &mut d_p, &xs, ys))
    });
    g.bench_function("generated", |bench| {
        bench.iter(|| moons::moons_loss_grad(black_box(&p), &mut d_p, &xs, ys))
    });
    // The same loss written in `f32` (issue 13), on the same points rounded to `f32`.
    let (p32, xs32, ys32) = (
        moons32::narrow(&p),
        moons32::narrow(&xs),
        moons32::narrow(ys),
    );
    let mut d_p32 = vec![0.0_f32; moons::PARAMS];
    g.bench_function("generated_f32", |bench| {
        bench.iter(|| moons32::moons_loss32_grad(black_box(&p32), &mut d_p32, &xs32, &ys32))
    });
    g.bench_function("Mlp", |bench| {
        bench.iter(|| moons::moons_mlp(&mut mlp, black_box(&data)))
    });
    // The main job's step: loss, gradient, accuracy and update. A tiny learning rate keeps the
    // network (and so the share of active hinges) where the other contenders measure it.
    let (mut step_mlp, mut scores) = (mlp.clone(), vec![0.0; data.len()]);
    let mut sgd = micrograd_runtime::optim::Sgd::new(1e-9);
    g.bench_function("Mlp-step", |bench| {
        bench.iter(|| moons::moons_mlp_step(&mut step_mlp, black_box(&data), &mut scores, &mut sgd))
    });
    g.bench_function("reverse", |bench| {
        bench.iter(|| moons::moons_reverse(&tape, black_box(&p), &xs, ys))
    });
    g.finish();

    let mut g = c.benchmark_group("T3_moons_slow");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    g.bench_function("Value", |bench| {
        bench.iter(|| moons::moons_value(black_box(&p), &xs, ys))
    });
    let p_vector = DVector::from_column_slice(&p);
    g.bench_function("num-dual", |bench| {
        bench.iter(|| moons::moons_num_dual(black_box(&p_vector), &xs, ys))
    });
    g.finish();
}

/// num-dual is O(n²) on T4 (one forward pass per entry of `x`): about 4 s per gradient at
/// n = 10000, so criterion stops at n = 1000 and n = 10000 gets one timed call.
const NUM_DUAL_MAX: usize = 1000;

/// T4 `scaling`: the gradient of an n-term chain of tanh, n = 10 .. 10000.
fn t4_scaling(c: &mut Criterion) {
    let tape = reverse::Tape::new();
    let mut g = c.benchmark_group("T4_scaling");
    for n in scaling::SIZES {
        scaling::check(n, NUM_DUAL_MAX);
        let (x, w) = scaling::inputs(n);
        let mut d_x = vec![0.0; n];
        g.bench_with_input(BenchmarkId::new("f", n), &n, |bench, _| {
            bench.iter(|| scaling::scaling(black_box(&x), &w))
        });
        g.bench_with_input(BenchmarkId::new("hand", n), &n, |bench, _| {
            bench.iter(|| scaling::scaling_hand(black_box(&x), &mut d_x, &w))
        });
        g.bench_with_input(BenchmarkId::new("generated", n), &n, |bench, _| {
            bench.iter(|| scaling::scaling_grad(black_box(&x), &mut d_x, &w))
        });
        g.bench_with_input(BenchmarkId::new("reverse", n), &n, |bench, _| {
            bench.iter(|| scaling::scaling_reverse(&tape, black_box(&x), &w))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("T4_scaling_slow");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    for n in scaling::SIZES {
        let (x, w) = scaling::inputs(n);
        g.bench_with_input(BenchmarkId::new("Value", n), &n, |bench, _| {
            bench.iter(|| scaling::scaling_value(black_box(&x), &w))
        });
        let x_vector = DVector::from_column_slice(&x);
        if n <= NUM_DUAL_MAX {
            g.bench_with_input(BenchmarkId::new("num-dual", n), &n, |bench, _| {
                bench.iter(|| scaling::scaling_num_dual(black_box(&x_vector), &w))
            });
        } else {
            // One call, timed once and checked, so that the O(n²) claim has a measured point.
            let start = Instant::now();
            let (value, d) = scaling::scaling_num_dual(black_box(&x_vector), &w);
            let seconds = start.elapsed().as_secs_f64();
            let mut want = vec![0.0; n];
            let hand = scaling::scaling_hand(&x, &mut want, &w);
            want.push(hand);
            let mut got = d.as_slice().to_vec();
            got.push(value);
            tasks::assert_close("T4 num-dual at n = 10000", &got, &want);
            eprintln!(
                "T4_scaling_slow/num-dual/{n}: one call took {seconds:.2} s (not a criterion measurement)"
            );
        }
    }
    g.finish();
}

/// T6 `iterators`: iterator chains with closures against index loops, both generated.
fn t6_iterators(c: &mut Criterion) {
    iterators::check();
    let mut g = c.benchmark_group("T6_iterators");
    for n in iterators::SIZES {
        let (w, x) = iterators::dot_inputs(n);
        let mut d_w = vec![0.0; n];
        g.bench_function(format!("dot-iter/{n}"), |bench| {
            bench.iter(|| iterators::dot_iter_grad(black_box(&w), &mut d_w, &x))
        });
        g.bench_function(format!("dot-loop/{n}"), |bench| {
            bench.iter(|| iterators::dot_loop_grad(black_box(&w), &mut d_w, &x))
        });
    }
    let (w, xs, ys) = iterators::logistic_inputs();
    let mut d_w = vec![0.0; w.len()];
    g.bench_function("logistic-iter", |bench| {
        bench.iter(|| iterators::logistic_iter_grad(black_box(&w), &mut d_w, &xs, &ys))
    });
    g.bench_function("logistic-loop", |bench| {
        bench.iter(|| iterators::logistic_loop_grad(black_box(&w), &mut d_w, &xs, &ys))
    });
    g.finish();
}

/// T7 `flight` and T8 `kepler`: a `while` until an event and a Newton `loop` with `break`,
/// generated against hand-written.
fn t7_t8_exits(c: &mut Criterion) {
    exits::check();
    let (vx, vy, drag) = exits::FLIGHT;
    let mut states = Vec::new();
    let mut g = c.benchmark_group("T7_flight");
    g.bench_function("f", |bench| {
        bench.iter(|| exits::flight(black_box(vx), black_box(vy), drag))
    });
    g.bench_function("hand", |bench| {
        bench.iter(|| exits::flight_hand(black_box(vx), black_box(vy), drag, &mut states))
    });
    g.bench_function("generated", |bench| {
        bench.iter(|| exits::flight_grad(black_box(vx), black_box(vy), drag))
    });
    g.finish();
    let (m, e) = exits::KEPLER;
    let mut g = c.benchmark_group("T8_kepler");
    g.bench_function("f", |bench| {
        bench.iter(|| exits::kepler(black_box(m), black_box(e)))
    });
    g.bench_function("hand", |bench| {
        bench.iter(|| exits::kepler_hand(black_box(m), black_box(e)))
    });
    g.bench_function("generated", |bench| {
        bench.iter(|| exits::kepler_grad(black_box(m), black_box(e)))
    });
    g.finish();
}

criterion_group!(
    gradients,
    t1_readme,
    t2_neuron64,
    t3_moons,
    t4_scaling,
    t6_iterators,
    t7_t8_exits
);
criterion_main!(gradients);
