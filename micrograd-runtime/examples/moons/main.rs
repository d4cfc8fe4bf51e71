//! micrograd's demo, number for number: an MLP learns to separate two moons.
//!
//! `cargo run --release --example moons` trains micrograd's `MLP(2, [16, 16, 1])` (ReLU, linear
//! output) after `random.seed(1337)` on scikit-learn's `make_moons(n_samples=100, noise=0.1)`
//! after `np.random.seed(1337)`: mean hinge loss plus 1e-4 L2, 100 full-batch SGD steps at
//! lr = 1.0 - 0.9 k / 100. Each step prints the line micrograd's notebook prints, to the same
//! digits, then the picture goes to `moons.svg`. `--help` lists the options.

use micrograd_runtime::data::{self, Dataset};
use micrograd_runtime::nn::{Activation, Mlp, Module};
use micrograd_runtime::plot::{self, Curves};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

mod args;
mod demo;
use args::Args;
use demo::{History, python_repr};

fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{}", args::HELP);
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{}", args::USAGE);
            return ExitCode::from(2);
        }
    };
    let moons = data::make_moons(args.samples, args.noise, args.seed);
    let mut sizes = args.hidden.clone();
    sizes.push(1);
    let mut model = Mlp::new(2, &sizes, Activation::Relu, args.seed);
    println!(
        "Mlp 2-{} ({} parameters), {} points, seed {}",
        join(&sizes),
        model.parameter_count(),
        moons.len(),
        args.seed
    );

    let started = Instant::now();
    let history = demo::train(&mut model, &moons, args.steps, args.lr);
    let elapsed = started.elapsed().as_secs_f64();
    for (k, (loss, accuracy)) in history.losses.iter().zip(&history.accuracies).enumerate() {
        println!("{}", demo::step_line(k, *loss, *accuracy));
    }
    let accuracy = history.accuracies.last().copied().unwrap_or(f64::NAN);
    println!(
        "trained in {:.1} ms ({:.0} µs per step); final accuracy {}%",
        elapsed * 1e3,
        elapsed * 1e6 / args.steps.max(1) as f64,
        python_repr(accuracy * 100.0)
    );
    draw(&model, &moons, &history, &args.picture())
}

fn draw(model: &Mlp, moons: &Dataset, history: &History, path: &Path) -> ExitCode {
    let score = |x: f64, y: f64| model.forward(&[x, y])[0];
    let curves = Curves {
        losses: &history.losses,
        accuracies: &history.accuracies,
    };
    match plot::decision_boundary(path, score, moons, curves) {
        Ok(()) => {
            println!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn join(sizes: &[usize]) -> String {
    let names: Vec<String> = sizes.iter().map(ToString::to_string).collect();
    names.join("-")
}
