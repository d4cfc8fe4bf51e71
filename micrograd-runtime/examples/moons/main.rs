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
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod args;
mod demo;
use args::Args;
use demo::History;
use micrograd_runtime::training::Step;

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

    // Each step's line is printed as the step ends, so a long run shows its progress; the time
    // spent printing is left out of the time reported per step.
    let notebook = args.is_micrograds_demo();
    let mut printing = Duration::ZERO;
    let mut trained = Duration::ZERO;
    let print_step = |step: &Step| {
        let started = Instant::now();
        let line = if notebook {
            demo::step_line(step.step, step.loss, step.accuracy)
        } else {
            demo::readable_line(step)
        };
        let mut out = std::io::stdout().lock();
        // A closed pipe (`| head`) ends the output, not the run.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
        printing += started.elapsed();
        trained = step.elapsed.saturating_sub(printing);
    };
    let history = demo::train_observed(&mut model, &moons, args.steps, args.lr, print_step);
    let elapsed = trained.as_secs_f64();
    let accuracy = history.accuracies.last().copied().unwrap_or(f64::NAN);
    println!(
        "trained in {} ({} per step); final accuracy {:.1}%",
        seconds(elapsed),
        seconds(elapsed / args.steps.max(1) as f64),
        accuracy * 100.0
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

/// `16 µs`, `1.6 ms`, `6.90 s`.
fn seconds(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

fn join(sizes: &[usize]) -> String {
    let names: Vec<String> = sizes.iter().map(ToString::to_string).collect();
    names.join("-")
}
