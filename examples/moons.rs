//! micrograd's demo: an MLP learns to separate two moons, and draws its decision boundary.
//!
//! `cargo run --release --example moons` trains `Mlp` 2-16-16-1 (ReLU) on 100 points with
//! noise 0.1: mean hinge loss plus 1e-4 L2, 100 full-batch SGD steps at lr = 1.0 - 0.9 k / 100.

use clap::Parser;
use micrograd_runtime::data::{self, Dataset};
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Activation, Mlp, Module};
use micrograd_runtime::optim::{Optimizer, Schedule, Sgd};
use rand::SeedableRng;
use std::path::PathBuf;
use std::time::Instant;

/// Train micrograd's two-moons classifier on compile-time gradients.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// SGD steps (full batch).
    #[arg(long, default_value_t = 100)]
    steps: usize,
    /// Seed of the data set and of the initial weights.
    #[arg(long, default_value_t = 1337)]
    seed: u64,
    /// Hidden layer sizes, comma separated.
    #[arg(long, value_delimiter = ',', default_values_t = [16, 16])]
    hidden: Vec<usize>,
    /// Learning rate at step 0; it decays linearly to a tenth of it, as in micrograd.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Number of points.
    #[arg(long, default_value_t = 100)]
    samples: usize,
    /// Where to write the picture of the decision boundary and the loss curve.
    #[arg(long, default_value = "moons.svg")]
    output: PathBuf,
}

fn main() {
    let args = Args::parse();
    let moons = data::make_moons(args.samples, 0.1, args.seed);
    let mut sizes = args.hidden.clone();
    sizes.push(1);
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed.wrapping_add(1));
    let mut model = Mlp::new(2, &sizes, Activation::Relu, &mut rng);
    println!(
        "Mlp 2-{} ({} parameters), {} points",
        join(&sizes),
        model.parameter_count(),
        moons.len()
    );

    let started = Instant::now();
    let (losses, accuracy) = train(&mut model, &moons, &args);
    let elapsed = started.elapsed();

    println!(
        "trained in {:.1} ms ({:.0} µs per step); final accuracy {:.1}%",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e6 / args.steps.max(1) as f64,
        accuracy * 100.0
    );
    let score = |x: f64, y: f64| model.forward(&[x, y])[0];
    match micrograd_runtime::plot::decision_boundary(&args.output, score, &moons, &losses) {
        Ok(()) => println!("wrote {}", args.output.display()),
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    }
}

/// micrograd's training loop; returns the loss of every step and the final accuracy.
fn train(model: &mut Mlp, moons: &Dataset, args: &Args) -> (Vec<f64>, f64) {
    let schedule = Schedule::Linear {
        start: args.lr,
        end: args.lr * 0.1,
        steps: args.steps,
    };
    let mut sgd = Sgd::with_schedule(schedule);
    let mut losses = Vec::with_capacity(args.steps);
    let mut accuracy = 0.0;
    for k in 0..args.steps {
        model.zero_grad();
        let (loss, scores) = model.train_loss(&moons.points, &moons.labels, Loss::Hinge, 1e-4);
        accuracy = data::accuracy(&scores, &moons.labels);
        println!("step {k} loss {loss:.4} accuracy {:.1}%", accuracy * 100.0);
        let mut parameters = model.parameters();
        sgd.step(&mut parameters, &model.grads());
        model.set_parameters(&parameters);
        losses.push(loss);
    }
    (losses, accuracy)
}

fn join(sizes: &[usize]) -> String {
    sizes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("-")
}
