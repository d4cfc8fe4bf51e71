//! An MLP learns XOR, the problem no linear model solves.
//!
//! `cargo run --release --example xor --features serde` trains `Mlp` 2-8-8-1 (tanh) on 200 noisy XOR points with
//! the logistic loss, a little L2 and momentum SGD, prints the loss as it goes, and measures the
//! accuracy on the training points and on 1000 fresh ones. `--save model.json` also writes the
//! trained network (nothing is written otherwise).

use clap::Parser;
use micrograd_runtime::data::{self, Dataset};
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Activation, Mlp, Module};
use micrograd_runtime::optim::{Momentum, Optimizer};
use std::path::PathBuf;

/// Train an MLP on XOR with compile-time gradients.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// Full-batch training steps.
    #[arg(long, default_value_t = 300)]
    steps: usize,
    /// Seed of the data and of the initial weights.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Standard deviation of the noise added to the points.
    #[arg(long, default_value_t = 0.05)]
    noise: f64,
    /// Write the trained network here (JSON, `Mlp::load` reads it back).
    #[arg(long)]
    save: Option<PathBuf>,
}

fn main() {
    let args = Args::parse();
    let train = data::make_xor(200, args.noise, args.seed);
    let test = data::make_xor(1000, args.noise, args.seed.wrapping_add(1000));
    let mut model = Mlp::new(2, &[8, 8, 1], Activation::Tanh, args.seed.wrapping_add(1));
    println!(
        "Mlp 2-8-8-1 tanh ({} parameters), {} training points",
        model.parameter_count(),
        train.len()
    );

    let mut optimizer = Momentum::new(0.1, 0.9);
    let mut first_loss = f64::NAN;
    let mut loss = f64::NAN;
    for step in 0..args.steps {
        model.zero_grad();
        let (value, scores) = model.train_loss(&train.points, &train.labels, Loss::Logistic, 1e-4);
        loss = value;
        if step == 0 {
            first_loss = value;
        }
        if step % 25 == 0 || step + 1 == args.steps {
            let accuracy = data::accuracy(&scores, &train.labels);
            println!(
                "step {step:>3} loss {value:.4} accuracy {:.1}%",
                accuracy * 100.0
            );
        }
        let mut parameters = model.parameters();
        optimizer.step(&mut parameters, &model.grads());
        model.set_parameters(&parameters);
    }

    let train_accuracy = accuracy(&model, &train);
    let test_accuracy = accuracy(&model, &test);
    println!(
        "trained: loss {first_loss:.4} -> {loss:.4}; accuracy {:.1}% on the training points, {:.1}% on {} fresh points",
        train_accuracy * 100.0,
        test_accuracy * 100.0,
        test.len()
    );
    if let Some(path) = &args.save {
        match model.save(path) {
            Ok(()) => println!("wrote {}", path.display()),
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(1);
            }
        }
    }
    // With the default steps and noise, every seed tried (0..10, 42) gives 96-100% on the
    // training points and 93-97% on fresh ones (noise carries points across the axes).
    if args.steps >= 300 && args.noise <= 0.05 {
        assert!(
            train_accuracy >= 0.95 && test_accuracy >= 0.9,
            "XOR not learned: {:.1}% on the training points, {:.1}% on fresh ones",
            train_accuracy * 100.0,
            test_accuracy * 100.0
        );
    }
}

fn accuracy(model: &Mlp, data: &Dataset) -> f64 {
    let scores: Vec<f64> = data.points.iter().map(|p| model.forward(p)[0]).collect();
    data::accuracy(&scores, &data.labels)
}
