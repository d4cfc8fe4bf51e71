//! Checking a gradient against central finite differences.
//!
//! ```
//! use micrograd_runtime::gradcheck::check_gradient;
//! use micrograd_runtime::prelude::*;
//!
//! #[differentiable]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     let mut sum = 0.0;
//!     for i in 0..x.len() - 1 {
//!         sum += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
//!     }
//!     sum
//! }
//!
//! let x = [0.5, -1.25, 2.0];
//! let mut grad = [0.0; 3];
//! rosenbrock_grad(&x, &mut grad);
//! let check = check_gradient(|x| rosenbrock(x), &x, &grad);
//! assert!(check.relative_error < 1e-6, "{check}");
//! ```

use std::fmt;

/// The worst coordinate of a gradient check.
///
/// ```
/// use micrograd_runtime::gradcheck::check_gradient;
///
/// // A wrong gradient of x0² + x1² (the second entry should be 2 x1 = 4).
/// let check = check_gradient(|x| x[0] * x[0] + x[1] * x[1], &[1.0, 2.0], &[2.0, 3.0]);
/// assert_eq!(check.index, 1);
/// assert_eq!(check.analytic, 3.0);
/// assert!((check.numeric - 4.0).abs() < 1e-6);
/// assert!((check.relative_error - 0.25).abs() < 1e-6);
/// assert!(check.to_string().starts_with("worst coordinate 1"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradCheck {
    /// Which coordinate disagrees most.
    pub index: usize,
    /// The gradient given, at that coordinate.
    pub analytic: f64,
    /// The central finite difference there.
    pub numeric: f64,
    /// `|analytic - numeric| / max(1, |analytic|, |numeric|)`.
    pub relative_error: f64,
}

impl fmt::Display for GradCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "worst coordinate {}: gradient {:e}, finite difference {:e}, relative error {:e}",
            self.index, self.analytic, self.numeric, self.relative_error
        )
    }
}

/// Compares `gradient` (of `f` at `x`) with central finite differences, coordinate by
/// coordinate, and reports the worst one. The step is `1e-6 · max(1, |xᵢ|)`.
///
/// ```
/// use micrograd_runtime::gradcheck::check_gradient;
///
/// // d/dx sin(x) = cos(x)
/// let check = check_gradient(|x| x[0].sin(), &[0.3], &[0.3f64.cos()]);
/// assert!(check.relative_error < 1e-9, "{check}");
/// ```
///
/// # Panics
/// If `gradient` and `x` differ in length or `x` is empty.
pub fn check_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64], gradient: &[f64]) -> GradCheck {
    assert!(
        gradient.len() == x.len(),
        "the gradient has {} entries but x has {}",
        gradient.len(),
        x.len()
    );
    assert!(
        !x.is_empty(),
        "check_gradient needs at least one coordinate"
    );
    let mut point = x.to_vec();
    let mut worst: Option<GradCheck> = None;
    for (index, &analytic) in gradient.iter().enumerate() {
        let h = 1e-6 * x[index].abs().max(1.0);
        point[index] = x[index] + h;
        let above = f(&point);
        point[index] = x[index] - h;
        let below = f(&point);
        point[index] = x[index];
        let numeric = (above - below) / (2.0 * h);
        let relative_error =
            (analytic - numeric).abs() / 1f64.max(analytic.abs()).max(numeric.abs());
        let check = GradCheck {
            index,
            analytic,
            numeric,
            relative_error,
        };
        if worst.is_none_or(|w| relative_error > w.relative_error || relative_error.is_nan()) {
            worst = Some(check);
        }
    }
    worst.unwrap_or(GradCheck {
        index: 0,
        analytic: 0.0,
        numeric: 0.0,
        relative_error: 0.0,
    })
}
