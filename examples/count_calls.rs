//! Runs one contender `n` times, for instruction counts that a shared machine's load does not
//! move (BENCHMARKS.md):
//!
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/count_calls t1-gen 100000`
//!
//! Contenders: `t1-hand`, `t1-gen`, `t3-hand`, `t3-gen`, `t3-mlp` (the runtime's `Mlp`),
//! `t3-step` (the main job's step: `Mlp` loss, gradient, accuracy and update), `t4-hand`,
//! `t4-gen` (n = 10), `t6-dot-iter`, `t6-dot-loop` (n = 100), `t6-logistic-iter`,
//! `t6-logistic-loop` (T6 of benches/tasks/iterators.rs), `t7-hand`, `t7-gen`, `t8-hand`,
//! `t8-gen` (T7 and T8 of benches/tasks/exits.rs), `t2-gen` and `t2-struct` (T2 with flat
//! parameters and with a parameter struct), and `none` (the set-up alone, to subtract).
//!
//! T5 at 10⁵ points: `t5-hand`, `t5-gen` (one call over all the points) and `t5-mlp` (the
//! runtime's `Mlp` on one thread), with `t5-none` (their set-up alone) to subtract.
//!
//! T9 (benches/tasks/grid.rs), one call over 10⁴ points of a shape off the fused path:
//! `t9-hand:SHAPE` (the hand-written gradient) and `t9-mlp:SHAPE` (`Mlp` on one thread), with
//! `t9-none:SHAPE` to subtract; SHAPE as `tanh-2-16-16-1`, or `tanh-2-16-16-1:512` for 512
//! points. `python3 benches/grid.py` counts the whole grid this way and prints its ratios.
//!
//! The main job's 100 training steps (`examples/moons`' loop: `train_loss`, accuracy, SGD with
//! micrograd's schedule), divided by 100 for its time per step: `train-mlp`, against
//! `train-hand` (the hand-written gradient and the same update, so the same trajectory).
#[allow(dead_code)]
#[path = "../benches/tasks/mod.rs"]
mod tasks;
use micrograd_runtime::shadow::Differentiable;
use std::hint::black_box;
use tasks::{exits, iterators, moons, neuron64, readme, scaling};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, what, n] = args.as_slice() else {
        panic!("usage: count_calls CONTENDER N");
    };
    let n: usize = n.parse().expect("N is a number of calls");
    let moons::Inputs {
        mut mlp,
        p,
        data,
        xs,
    } = moons::inputs(100);
    let ys = &data.labels;
    let mut d_p = vec![0.0; moons::PARAMS];
    let (mut scores, mut sgd) = (vec![0.0; 100], micrograd_runtime::optim::Sgd::new(1e-9));
    let (x, w) = scaling::inputs(10);
    let mut d_x = vec![0.0; 10];
    let (dot_w, dot_x) = iterators::dot_inputs(100);
    let mut d_dot = vec![0.0; 100];
    let (lw, lxs, lys) = iterators::logistic_inputs();
    let mut d_lw = vec![0.0; lw.len()];
    let ((vx, vy, drag), (m, e)) = (exits::FLIGHT, exits::KEPLER);
    let mut states = Vec::new();
    let (nw, nb, nx) = neuron64::inputs();
    let mut d_nw = vec![0.0; neuron64::N];
    let neuron = neuron64::Neuron {
        w: nw.clone(),
        b: nb,
    };
    let mut d_neuron = neuron.zeroed_like();
    if let Some((contender, shape)) = what.split_once(':') {
        return t9(contender, shape, n);
    }
    let big = what.starts_with("t5").then(|| moons::inputs(100_000));
    let mut big_scores = vec![0.0; 100_000];
    for _ in 0..n {
        match what.as_str() {
            "t1-hand" => {
                black_box(readme::readme_hand(black_box(-4.0), black_box(2.0)));
            }
            "t1-gen" => {
                black_box(readme::readme_grad(black_box(-4.0), black_box(2.0)));
            }
            "t3-hand" => {
                black_box(moons::moons_hand(black_box(&p), &mut d_p, &xs, ys));
            }
            "t3-gen" => {
                black_box(moons::moons_loss_grad(black_box(&p), &mut d_p, &xs, ys));
            }
            "t3-mlp" => {
                black_box(moons::moons_mlp(&mut mlp, black_box(&data)));
            }
            "t3-step" => {
                black_box(moons::moons_mlp_step(
                    &mut mlp,
                    &data,
                    &mut scores,
                    &mut sgd,
                ));
            }
            "t4-hand" => {
                black_box(scaling::scaling_hand(black_box(&x), &mut d_x, &w));
            }
            "t4-gen" => {
                black_box(scaling::scaling_grad(black_box(&x), &mut d_x, &w));
            }
            "t6-dot-iter" => {
                black_box(iterators::dot_iter_grad(
                    black_box(&dot_w),
                    &mut d_dot,
                    &dot_x,
                ));
            }
            "t6-dot-loop" => {
                black_box(iterators::dot_loop_grad(
                    black_box(&dot_w),
                    &mut d_dot,
                    &dot_x,
                ));
            }
            "t6-logistic-iter" => {
                black_box(iterators::logistic_iter_grad(
                    black_box(&lw),
                    &mut d_lw,
                    &lxs,
                    &lys,
                ));
            }
            "t6-logistic-loop" => {
                black_box(iterators::logistic_loop_grad(
                    black_box(&lw),
                    &mut d_lw,
                    &lxs,
                    &lys,
                ));
            }
            "t7-hand" => {
                black_box(exits::flight_hand(black_box(vx), vy, drag, &mut states));
            }
            "t7-gen" => {
                black_box(exits::flight_grad(black_box(vx), vy, drag));
            }
            "t8-hand" => {
                black_box(exits::kepler_hand(black_box(m), e));
            }
            "t8-gen" => {
                black_box(exits::kepler_grad(black_box(m), e));
            }
            "t2-gen" => {
                black_box(neuron64::neuron64_grad(black_box(&nw), &mut d_nw, nb, &nx));
            }
            "t2-struct" => {
                black_box(neuron64::neuron64_struct_grad(
                    black_box(&neuron),
                    &mut d_neuron,
                    &nx,
                ));
            }
            "t5-hand" | "t5-gen" | "t5-mlp" | "t5-none" => t5(what, big.as_ref(), &mut big_scores),
            "train-mlp" => {
                black_box(train_mlp(mlp.clone(), &data));
            }
            "train-hand" => {
                black_box(train_hand(p.clone(), &xs, &data));
            }
            "none" => {}
            other => panic!("unknown contender {other}"),
        }
    }
}

/// One call of a T5 contender on `big` (10⁵ points).
fn t5(what: &str, big: Option<&moons::Inputs>, scores: &mut [f64]) {
    use micrograd_runtime::nn::Module;
    let big = big.expect("T5's inputs");
    let (p, xs, ys) = (&big.p, &big.xs, &big.data.labels);
    let mut d_p = vec![0.0; moons::PARAMS];
    match what {
        "t5-hand" => {
            black_box(moons::moons_hand(black_box(p), &mut d_p, xs, ys));
        }
        "t5-gen" => {
            black_box(moons::moons_loss_grad(black_box(p), &mut d_p, xs, ys));
        }
        "t5-mlp" => {
            let mut mlp = big.mlp.clone();
            mlp.zero_grad();
            let loss = micrograd_runtime::loss::Loss::Hinge;
            black_box(mlp.train_loss_into(&big.data.points, ys, loss, moons::ALPHA, scores));
        }
        _ => {}
    }
}

/// `n` calls of a T9 contender on `shape` (`tanh-2-16-16-1`, or `tanh-2-16-16-1:512` for 512
/// points; 10⁴ by default), on a pool of one thread. The first call runs in [`t9_warm`], the
/// others in [`t9_measured`], so that `--toggle-collect=*t9_measured*` counts warmed calls alone
/// (benches/grid.py).
fn t9(contender: &str, shape: &str, n: usize) {
    use micrograd_runtime::nn::Module;
    use tasks::grid;
    let (shape, points) = match shape.split_once(':') {
        Some((shape, points)) => (shape, points.parse().expect("a number of points")),
        None => (shape, 10_000),
    };
    let inputs = grid::inputs(shape, points);
    let mut t9 = T9 {
        contender,
        mlp: inputs.mlp.clone(),
        hand: grid::Hand::new(
            inputs.mlp.inputs(),
            &inputs.mlp.sizes(),
            inputs.mlp.activation(),
        ),
        d_p: vec![0.0; inputs.p.len()],
        scores: vec![0.0; inputs.labels.len()],
        one: rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool"),
        inputs,
    };
    for i in 0..n {
        if i == 0 {
            t9_warm(&mut t9);
        } else {
            t9_measured(&mut t9);
        }
    }
    black_box((t9.mlp.grads(), t9.d_p));
}

/// A T9 contender and its buffers.
struct T9<'a> {
    contender: &'a str,
    inputs: tasks::grid::Inputs,
    mlp: micrograd_runtime::nn::Mlp,
    hand: tasks::grid::Hand,
    d_p: Vec<f64>,
    scores: Vec<f64>,
    one: rayon::ThreadPool,
}

#[inline(never)]
fn t9_warm(t9: &mut T9<'_>) {
    t9_call(t9);
}

#[inline(never)]
fn t9_measured(t9: &mut T9<'_>) {
    t9_call(t9);
}

fn t9_call(t9: &mut T9<'_>) {
    use tasks::grid;
    let inputs = &t9.inputs;
    match t9.contender {
        "t9-hand" => {
            t9.d_p.fill(0.0);
            let (points, labels) = (&inputs.points, &inputs.labels);
            let p = black_box(&inputs.p);
            black_box(
                t9.hand
                    .loss_grad(p, &mut t9.d_p, points, labels, grid::ALPHA),
            );
        }
        "t9-mlp" => {
            let (mlp, scores) = (&mut t9.mlp, &mut t9.scores);
            black_box(
                t9.one
                    .install(|| grid::mlp_loss(mlp, black_box(inputs), scores)),
            );
        }
        "t9-none" => {}
        other => panic!("unknown contender {other}"),
    }
}

/// micrograd's schedule over `STEPS` steps, as `examples/moons` sets it.
const STEPS: usize = 100;

fn sgd() -> micrograd_runtime::optim::Sgd {
    use micrograd_runtime::optim::{Schedule, Sgd};
    Sgd::with_schedule(Schedule::Linear {
        start: 1.0,
        end: 0.1,
        steps: STEPS,
    })
}

/// The main job's training loop (`micrograd-runtime/examples/moons/demo.rs`); the last loss.
fn train_mlp(mut mlp: micrograd_runtime::nn::Mlp, data: &micrograd_runtime::data::Dataset) -> f64 {
    use micrograd_runtime::nn::Module;
    use micrograd_runtime::optim::Optimizer;
    let (mut sgd, mut loss) = (sgd(), 0.0);
    for _ in 0..STEPS {
        mlp.zero_grad();
        let (value, scores) = mlp.train_loss(
            &data.points,
            &data.labels,
            micrograd_runtime::loss::Loss::Hinge,
            moons::ALPHA,
        );
        black_box(micrograd_runtime::data::accuracy(&scores, &data.labels));
        let view = mlp.parameters_mut();
        sgd.step(view.values, view.grads);
        loss = value;
    }
    loss
}

/// The same steps on the hand-written gradient (no scores, so no accuracy); the last loss.
fn train_hand(mut p: Vec<f64>, xs: &[f64], data: &micrograd_runtime::data::Dataset) -> f64 {
    use micrograd_runtime::optim::Optimizer;
    let (mut sgd, mut loss) = (sgd(), 0.0);
    let mut d_p = vec![0.0; moons::PARAMS];
    for _ in 0..STEPS {
        d_p.fill(0.0);
        loss = moons::moons_hand(&p, &mut d_p, xs, &data.labels);
        sgd.step(&mut p, &d_p);
    }
    loss
}
