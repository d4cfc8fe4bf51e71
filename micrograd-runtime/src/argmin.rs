//! [argmin](https://docs.rs/argmin) problems from `#[differentiable]` functions (feature `argmin`).
//!
//! A `#[differentiable]` function of one slice, `f(x: &[f64]) -> f64`, comes with
//! `f_grad(x, d_x) -> f64`; [`Problem::new(f, f_grad)`](Problem::new) is an argmin problem with
//! both, so every gradient-based argmin solver (L-BFGS, BFGS, steepest descent, nonlinear
//! conjugate gradient, ...) runs on it, with `Vec<f64>` parameters:
//!
//! ```
//! use micrograd_runtime::argmin::core::{Executor, State};
//! use micrograd_runtime::argmin::solver::linesearch::MoreThuenteLineSearch;
//! use micrograd_runtime::argmin::solver::quasinewton::LBFGS;
//! use micrograd_runtime::argmin::Problem;
//! use micrograd_runtime::prelude::*;
//!
//! /// Rosenbrock's banana valley in any dimension; its minimum is 0 at (1, 1, ..).
//! #[differentiable]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     let mut sum = 0.0;
//!     for i in 0..x.len() - 1 {
//!         sum += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
//!     }
//!     sum
//! }
//!
//! let solver = LBFGS::new(MoreThuenteLineSearch::new(), 7);
//! let result = Executor::new(Problem::new(rosenbrock, rosenbrock_grad), solver)
//!     .configure(|state| state.param(vec![-1.2, 1.0]).max_iters(100))
//!     .run()?;
//! let best = result.state().get_best_param().unwrap();
//! assert!((best[0] - 1.0).abs() < 1e-6 && (best[1] - 1.0).abs() < 1e-6);
//! # Ok::<(), micrograd_runtime::argmin::core::Error>(())
//! ```
//!
//! argmin itself is re-exported here ([`core`], [`solver`], and argmin-math as [`math`]), so the
//! examples need no dependency of their own on argmin and a crate that has one at another minor
//! version does not meet "multiple different versions of crate `argmin`": name the solvers and
//! traits through `micrograd_runtime::argmin`.
//!
//! Functions with other arguments (data, hyper-parameters) become problems through closures:
//! `Problem::new(|w| loss(w, &xs), |w, d_w| loss_grad(w, d_w, &xs))`.
//!
//! Second-order solvers need a Hessian: with `#[differentiable(hessian)]`, `f_hessian(x, hess)`
//! writes it row-major, and [`Problem::with_hessian`] adds it, for argmin's `Hessian` trait
//! (`Vec<Vec<f64>>` rows). Newton's method with a trust region (Steihaug's conjugate
//! gradients) runs on it with `Vec<f64>` parameters:
//!
//! ```
//! use micrograd_runtime::argmin::core::{Executor, State};
//! use micrograd_runtime::argmin::solver::trustregion::{Steihaug, TrustRegion};
//! use micrograd_runtime::argmin::Problem;
//! use micrograd_runtime::prelude::*;
//!
//! #[differentiable(hessian)]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     let mut sum = 0.0;
//!     for i in 0..x.len() - 1 {
//!         sum += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
//!     }
//!     sum
//! }
//!
//! let problem = Problem::new(rosenbrock, rosenbrock_grad).with_hessian(rosenbrock_hessian);
//! let solver = TrustRegion::new(Steihaug::new().with_max_iters(20));
//! let result = Executor::new(problem, solver)
//!     .configure(|state| state.param(vec![-1.2, 1.0]).max_iters(100))
//!     .run()?;
//! let best = result.state().get_best_param().unwrap();
//! assert!((best[0] - 1.0).abs() < 1e-9 && (best[1] - 1.0).abs() < 1e-9);
//! # Ok::<(), micrograd_runtime::argmin::core::Error>(())
//! ```

use ::argmin::core::{CostFunction, Error, Gradient, Hessian};

/// argmin's `core`: [`Executor`](core::Executor), [`State`](core::State), the traits a
/// [`Problem`] implements.
#[doc(no_inline)]
pub use ::argmin::core;
/// argmin's solvers: [`LBFGS`](solver::quasinewton::LBFGS), trust regions, line searches, ..
#[doc(no_inline)]
pub use ::argmin::solver;
/// argmin-math, the vector operations argmin's solvers use (its `vec` feature, for `Vec<f64>`
/// parameters, is on).
#[doc(no_inline)]
pub use ::argmin_math as math;

/// An argmin problem: the cost `f` and its gradient `f_grad`, as `#[differentiable]` writes them.
///
/// `cost(x)` is `f(x)`; `gradient(x)` zeroes a vector `d_x` of `x`'s length and lets
/// `f_grad(x, &mut d_x)` add ∂f/∂x into it. See the [module documentation](self) for a
/// complete L-BFGS run.
///
/// ```
/// use micrograd_runtime::argmin::core::{CostFunction, Gradient};
/// use micrograd_runtime::argmin::Problem;
/// use micrograd_runtime::prelude::*;
///
/// #[differentiable]
/// fn norm2(x: &[f64]) -> f64 {
///     let mut sum = 0.0;
///     for i in 0..x.len() {
///         sum += x[i] * x[i];
///     }
///     sum
/// }
///
/// let problem = Problem::new(norm2, norm2_grad);
/// assert_eq!(problem.cost(&vec![3.0, 4.0])?, 25.0);
/// assert_eq!(problem.gradient(&vec![3.0, 4.0])?, vec![6.0, 8.0]);
/// # Ok::<(), micrograd_runtime::argmin::core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Problem<F, G, H = ()> {
    cost: F,
    gradient: G,
    hessian: H,
}

impl<F, G> Problem<F, G>
where
    F: Fn(&[f64]) -> f64,
    G: Fn(&[f64], &mut [f64]) -> f64,
{
    /// The problem of minimizing `cost`, whose gradient `gradient` adds into its second
    /// argument and returns the cost (the signature of a generated `f_grad`).
    ///
    /// ```
    /// use micrograd_runtime::argmin::Problem;
    /// use micrograd_runtime::prelude::*;
    ///
    /// #[differentiable]
    /// fn sum_of_squares(x: &[f64], target: f64) -> f64 {
    ///     let mut sum = 0.0;
    ///     for i in 0..x.len() {
    ///         sum += (x[i] - target).powi(2);
    ///     }
    ///     sum
    /// }
    ///
    /// // A constant argument is captured by closures.
    /// let target = 2.0;
    /// let problem = Problem::new(
    ///     |x| sum_of_squares(x, target),
    ///     |x, d_x| sum_of_squares_grad(x, d_x, target).0,
    /// );
    /// # let _ = problem;
    /// ```
    pub fn new(cost: F, gradient: G) -> Self {
        Problem {
            cost,
            gradient,
            hessian: (),
        }
    }

    /// The same problem with its Hessian: `hessian(x, hess)` writes `H` row-major into `hess`
    /// (`n × n` entries for `n = x.len()`), the signature of a generated `f_hessian`.
    ///
    /// ```
    /// use micrograd_runtime::argmin::core::Hessian;
    /// use micrograd_runtime::argmin::Problem;
    /// use micrograd_runtime::prelude::*;
    ///
    /// #[differentiable(hessian)]
    /// fn cubes(x: &[f64]) -> f64 {
    ///     x[0].powi(3) + x[0] * x[1]
    /// }
    ///
    /// let problem = Problem::new(cubes, cubes_grad).with_hessian(cubes_hessian);
    /// assert_eq!(problem.hessian(&vec![2.0, 5.0])?, vec![vec![12.0, 1.0], vec![1.0, 0.0]]);
    /// # Ok::<(), micrograd_runtime::argmin::core::Error>(())
    /// ```
    pub fn with_hessian<H>(self, hessian: H) -> Problem<F, G, H>
    where
        H: Fn(&[f64], &mut [f64]) -> f64,
    {
        Problem {
            cost: self.cost,
            gradient: self.gradient,
            hessian,
        }
    }
}

impl<F, G, H> CostFunction for Problem<F, G, H>
where
    F: Fn(&[f64]) -> f64,
{
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, x: &Vec<f64>) -> Result<f64, Error> {
        Ok((self.cost)(x))
    }
}

impl<F, G, H> Gradient for Problem<F, G, H>
where
    G: Fn(&[f64], &mut [f64]) -> f64,
{
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;

    fn gradient(&self, x: &Vec<f64>) -> Result<Vec<f64>, Error> {
        let mut d_x = vec![0.0; x.len()];
        (self.gradient)(x, &mut d_x);
        Ok(d_x)
    }
}

impl<F, G, H> Hessian for Problem<F, G, H>
where
    H: Fn(&[f64], &mut [f64]) -> f64,
{
    type Param = Vec<f64>;
    type Hessian = Vec<Vec<f64>>;

    fn hessian(&self, x: &Vec<f64>) -> Result<Vec<Vec<f64>>, Error> {
        let n = x.len();
        let mut hess = vec![0.0; n * n];
        (self.hessian)(x, &mut hess);
        Ok(hess.chunks(n.max(1)).map(<[f64]>::to_vec).collect())
    }
}
