//! The argmin bridge (feature `argmin`): generated gradients drive argmin's solvers.

use argmin::core::{CostFunction, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use micrograd_runtime::argmin::Problem;
use micrograd_runtime::prelude::*;

#[differentiable(hessian)]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..x.len() - 1 {
        sum += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    sum
}

/// A least-squares fit of a line through points, with the data passed as constants.
#[differentiable(wrt(p))]
fn line_fit(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..xs.len() {
        sum += (p[0] * xs[i] + p[1] - ys[i]).powi(2);
    }
    sum
}

#[test]
fn problem_gives_the_cost_and_the_gradient_of_the_closed_form() {
    let problem = Problem::new(rosenbrock, rosenbrock_grad);
    let x = vec![-1.2, 1.0, 0.5];
    let cost = problem.cost(&x).unwrap();
    assert_eq!(cost, rosenbrock(&x));
    // ∂/∂x0 = -400 x0 (x1 - x0²) - 2 (1 - x0); ∂/∂x1 = 200 (x1 - x0²) - 400 x1 (x2 - x1²) - 2 (1 - x1);
    // ∂/∂x2 = 200 (x2 - x1²).
    let expected = [
        -400.0 * x[0] * (x[1] - x[0] * x[0]) - 2.0 * (1.0 - x[0]),
        200.0 * (x[1] - x[0] * x[0]) - 400.0 * x[1] * (x[2] - x[1] * x[1]) - 2.0 * (1.0 - x[1]),
        200.0 * (x[2] - x[1] * x[1]),
    ];
    let gradient = problem.gradient(&x).unwrap();
    for (got, want) in gradient.iter().zip(expected) {
        assert!(
            (got - want).abs() < 1e-12 * want.abs().max(1.0),
            "{got} vs {want}"
        );
    }
    // The gradient is a fresh vector each call, not an accumulation.
    assert_eq!(problem.gradient(&x).unwrap(), gradient);
}

#[test]
fn lbfgs_minimizes_rosenbrock() {
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 7);
    let result = Executor::new(Problem::new(rosenbrock, rosenbrock_grad), solver)
        .configure(|state| state.param(vec![-1.2, 1.0, -1.2, 1.0]).max_iters(200))
        .run()
        .unwrap();
    let best = result.state().get_best_param().unwrap();
    for x in best {
        assert!((x - 1.0).abs() < 1e-5, "ended at {best:?}");
    }
    assert!(result.state().get_best_cost() < 1e-10);
}

#[test]
fn lbfgs_fits_a_line_through_captured_data() {
    let xs = [0.0, 1.0, 2.0, 3.0];
    let ys = [1.0, 3.0, 5.0, 7.0]; // y = 2x + 1
    let problem = Problem::new(
        |p: &[f64]| line_fit(p, &xs, &ys),
        |p: &[f64], d_p: &mut [f64]| line_fit_grad(p, d_p, &xs, &ys),
    );
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 3);
    let result = Executor::new(problem, solver)
        .configure(|state| state.param(vec![0.0, 0.0]).max_iters(200))
        .run()
        .unwrap();
    let best = result.state().get_best_param().unwrap();
    assert!(
        (best[0] - 2.0).abs() < 1e-6 && (best[1] - 1.0).abs() < 1e-6,
        "{best:?}"
    );
}

/// ∇²f of the 2-D Rosenbrock function, by hand: [[1200x² - 400y + 2, -400x], [-400x, 200]].
fn rosenbrock_hessian_by_hand(x: f64, y: f64) -> Vec<Vec<f64>> {
    vec![
        vec![1200.0 * x * x - 400.0 * y + 2.0, -400.0 * x],
        vec![-400.0 * x, 200.0],
    ]
}

#[test]
fn problem_gives_the_hessian_of_the_closed_form() {
    use argmin::core::Hessian;
    let problem = Problem::new(rosenbrock, rosenbrock_grad).with_hessian(rosenbrock_hessian);
    for (x, y) in [(-1.2, 1.0), (0.5, -0.25), (1.0, 1.0)] {
        let h = problem.hessian(&vec![x, y]).expect("a Hessian");
        let want = rosenbrock_hessian_by_hand(x, y);
        for i in 0..2 {
            for j in 0..2 {
                assert!((h[i][j] - want[i][j]).abs() <= 1e-12 * want[i][j].abs().max(1.0));
            }
        }
    }
}

#[test]
fn trust_region_newton_reaches_the_minimum() {
    use argmin::solver::trustregion::{Steihaug, TrustRegion};
    let problem = Problem::new(rosenbrock, rosenbrock_grad).with_hessian(rosenbrock_hessian);
    for start in [vec![-1.2, 1.0], vec![-1.2, 1.0, -1.2, 1.0]] {
        let solver = TrustRegion::new(Steihaug::new().with_max_iters(20));
        let result = Executor::new(problem, solver)
            .configure(|state| state.param(start).max_iters(100))
            .run()
            .expect("the trust-region Newton method runs");
        let best = result.state().get_best_param().expect("a best point");
        assert!(best.iter().all(|x| (x - 1.0).abs() < 1e-9), "{best:?}");
    }
}
