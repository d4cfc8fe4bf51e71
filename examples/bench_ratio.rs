//! Quick ratios for the README: generated gradient / hand-written gradient, and gradient /
//! function, on T1 `readme`, T2 `neuron64` and T3 `moons-step` (BENCHMARKS.md has the full
//! criterion runs, peers and T4).
//!
//! `cargo run --release --example bench_ratio [-- --reps 9 --ms 40]`
//!
//! Each contender runs `reps` repetitions of as many calls as fill about `ms` milliseconds;
//! the best repetition's time per call is kept (the least disturbed by a noisy, shared machine).
//! Nothing here asserts on time; every contender's gradient is checked before it is timed.

// T4 is in the criterion benchmark only.
#[allow(dead_code)]
#[path = "../benches/tasks/mod.rs"]
mod tasks;

use std::hint::black_box;
use std::time::Instant;

use clap::Parser;
use tasks::{moons, neuron64, readme};

/// Times T1-T3 and prints ratios.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// Repetitions per contender; the best one counts.
    #[arg(long, default_value_t = 7)]
    reps: usize,
    /// Milliseconds per repetition (roughly).
    #[arg(long, default_value_t = 30)]
    ms: u64,
}

/// The best time per call, in nanoseconds, of `reps` repetitions of about `ms` ms each.
fn time(args: &Args, mut call: impl FnMut()) -> f64 {
    // Calibrate: double the count until one repetition takes the target time.
    let mut iters = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iters {
            call();
        }
        if start.elapsed().as_millis() as u64 >= args.ms || iters >= 1 << 30 {
            break;
        }
        iters *= 2;
    }
    (0..args.reps)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..iters {
                call();
            }
            start.elapsed().as_secs_f64() * 1e9 / iters as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Prints one task's times and the ratios the README quotes.
fn report(task: &str, rows: &[(&str, f64)]) {
    let get = |name: &str| rows.iter().find(|(n, _)| *n == name).map(|r| r.1);
    let (f, hand, generated) = (
        get("f").unwrap(),
        get("hand").unwrap(),
        get("generated").unwrap(),
    );
    println!("{task}");
    for (name, ns) in rows {
        println!(
            "  {name:<12} {:>12.1} ns   {:>7.2}x hand-written",
            ns,
            ns / hand
        );
    }
    println!(
        "  => generated / hand-written = {:.2}x, gradient / function = {:.2}x generated, {:.2}x hand-written",
        generated / hand,
        generated / f,
        hand / f
    );
}

fn main() {
    let args = Args::parse();
    tasks::readme::check();
    tasks::neuron64::check();
    tasks::moons::check(100, false);

    // T1
    let (a, b) = readme::POINT;
    let rows = [
        (
            "f",
            time(&args, || {
                black_box(readme::readme(black_box(a), black_box(b)));
            }),
        ),
        (
            "hand",
            time(&args, || {
                black_box(readme::readme_hand(black_box(a), black_box(b)));
            }),
        ),
        (
            "generated",
            time(&args, || {
                black_box(readme::readme_grad(black_box(a), black_box(b)));
            }),
        ),
    ];
    report("T1 readme (2 partials)", &rows);

    // T2
    let (w, bias, x) = neuron64::inputs();
    let mut d_w = vec![0.0; neuron64::N];
    let rows = [
        (
            "f",
            time(&args, || {
                black_box(neuron64::neuron64(
                    black_box(&w),
                    black_box(bias),
                    black_box(&x),
                ));
            }),
        ),
        (
            "hand",
            time(&args, || {
                black_box(neuron64::neuron64_hand(
                    black_box(&w),
                    &mut d_w,
                    black_box(bias),
                    &x,
                ));
            }),
        ),
        (
            "generated",
            time(&args, || {
                black_box(neuron64::neuron64_grad(
                    black_box(&w),
                    &mut d_w,
                    black_box(bias),
                    &x,
                ));
            }),
        ),
    ];
    report("T2 neuron64 (65 partials)", &rows);

    // T3
    let moons::Inputs {
        mut mlp,
        p,
        data,
        xs,
    } = moons::inputs(100);
    let ys = &data.labels;
    let mut d_p = vec![0.0; moons::PARAMS];
    let tape = reverse::Tape::new();
    let rows = [
        (
            "f",
            time(&args, || {
                black_box(moons::moons_loss(black_box(&p), &xs, ys));
            }),
        ),
        (
            "hand",
            time(&args, || {
                black_box(moons::moons_hand(black_box(&p), &mut d_p, &xs, ys));
            }),
        ),
        (
            "hand-dense",
            time(&args, || {
                black_box(moons::moons_hand_dense(black_box(&p), &mut d_p, &xs, ys));
            }),
        ),
        (
            "generated",
            time(&args, || {
                black_box(moons::moons_loss_grad(black_box(&p), &mut d_p, &xs, ys));
            }),
        ),
        (
            "Mlp",
            time(&args, || {
                black_box(moons::moons_mlp(&mut mlp, &data));
            }),
        ),
        (
            "reverse",
            time(&args, || {
                black_box(moons::moons_reverse(&tape, black_box(&p), &xs, ys));
            }),
        ),
    ];
    report(
        &format!(
            "T3 moons-step (337 partials, 100 points, {} with an active hinge)",
            moons::active_points(&p, &xs, ys)
        ),
        &rows,
    );
    let get = |name: &str| {
        rows.iter()
            .find(|(n, _)| *n == name)
            .map_or(f64::NAN, |r| r.1)
    };
    println!(
        "  => generated / hand-written dense = {:.2}x; reverse / generated = {:.1}x; Mlp / generated = {:.1}x",
        get("generated") / get("hand-dense"),
        get("reverse") / get("generated"),
        get("Mlp") / get("generated"),
    );
}
