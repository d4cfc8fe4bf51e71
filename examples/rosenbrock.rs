//! Rosenbrock's function minimized by argmin's L-BFGS on the gradient `#[differentiable]` writes.
//!
//! `cargo run --release --example rosenbrock --features argmin -- [DIMENSION]` (default 2) starts
//! at (-1.2, 1, -1.2, 1, ..) and prints the iterations, the minimum found, and the number of cost
//! and gradient evaluations. Newton's method would need the Hessian, which `#[differentiable]`
//! does not generate yet.

use argmin::core::{Executor, State, TerminationReason, TerminationStatus};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use micrograd_runtime::argmin::Problem;
use micrograd_runtime::prelude::*;

/// Σ 100 (x[i+1] - x[i]²)² + (1 - x[i])²; the minimum is 0 at (1, 1, ..).
#[differentiable]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..x.len() - 1 {
        sum += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    sum
}

fn main() -> Result<(), argmin::core::Error> {
    let dimension: usize = match std::env::args().nth(1).map(|arg| arg.parse()) {
        None => 2,
        Some(Ok(n)) if n >= 2 => n,
        Some(_) => {
            eprintln!("usage: rosenbrock [DIMENSION >= 2]");
            std::process::exit(2);
        }
    };
    let start: Vec<f64> = (0..dimension)
        .map(|i| if i % 2 == 0 { -1.2 } else { 1.0 })
        .collect();
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 7)
        .with_tolerance_grad(1e-10)?
        .with_tolerance_cost(1e-14)?;
    let result = Executor::new(Problem::new(rosenbrock, rosenbrock_grad), solver)
        .configure(|state| state.param(start).max_iters(500).counting(true))
        .run()?;
    let state = result.state();
    let best = state.get_best_param().expect("L-BFGS keeps its best point");
    println!(
        "L-BFGS on the {dimension}-dimensional Rosenbrock function: {} iterations, f = {:.3e}",
        state.get_iter(),
        state.get_best_cost()
    );
    println!("minimum found at {best:.8?}");
    let counts = state.get_func_counts();
    let count = |name: &str| counts.get(name).copied().unwrap_or(0);
    println!(
        "{} cost and {} gradient evaluations",
        count("cost_count"),
        count("gradient_count")
    );
    let converged = matches!(
        state.get_termination_status(),
        TerminationStatus::Terminated(
            TerminationReason::SolverConverged | TerminationReason::TargetCostReached
        )
    );
    println!("status: {}", state.get_termination_status());
    if !converged {
        std::process::exit(1);
    }
    Ok(())
}
