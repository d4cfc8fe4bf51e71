//! Rosenbrock's function minimized by argmin's L-BFGS on the gradient `#[differentiable]` writes,
//! then by Newton's method (a trust region, Steihaug's conjugate gradients) on its Hessian too (`#[differentiable(hessian)]`).
//!
//! `cargo run --release --example rosenbrock --features argmin -- [DIMENSION]` (default 2) starts
//! at (-1.2, 1, -1.2, 1, ..) and prints, for each solver, the iterations, the minimum found, and
//! the number of cost, gradient (and Hessian) evaluations.

use argmin::core::{Executor, State, TerminationReason, TerminationStatus};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use argmin::solver::trustregion::{Steihaug, TrustRegion};
use micrograd_runtime::argmin::Problem;
use micrograd_runtime::prelude::*;

/// Σ 100 (x[i+1] - x[i]²)² + (1 - x[i])²; the minimum is 0 at (1, 1, ..).
#[differentiable(hessian)]
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
        .configure(|state| state.param(start.clone()).max_iters(500).counting(true))
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
    newton(&start)
}

/// Newton's method from the same start, in a trust region that keeps each step where the
/// quadratic model holds.
fn newton(start: &[f64]) -> Result<(), argmin::core::Error> {
    let problem = Problem::new(rosenbrock, rosenbrock_grad).with_hessian(rosenbrock_hessian);
    let solver = TrustRegion::new(Steihaug::new().with_max_iters(20));
    let result = Executor::new(problem, solver)
        .configure(|state| state.param(start.to_vec()).max_iters(200).counting(true))
        .run()?;
    let state = result.state();
    let best = state
        .get_best_param()
        .expect("the trust region keeps its best point");
    println!(
        "trust-region Newton: {} iterations, f = {:.3e}, minimum found at {best:.8?}",
        state.get_iter(),
        state.get_best_cost()
    );
    let counts = state.get_func_counts();
    let count = |name: &str| counts.get(name).copied().unwrap_or(0);
    println!(
        "{} cost, {} gradient and {} Hessian evaluations",
        count("cost_count"),
        count("gradient_count"),
        count("hessian_count")
    );
    if best.iter().any(|x| (x - 1.0).abs() > 1e-9) {
        std::process::exit(1);
    }
    Ok(())
}
