//! Scalar operations that `f64` lacks but micrograd has, such as `relu`.

/// Nonlinear functions on `f64`, so that `x.relu()` reads as it does in micrograd.
///
/// `#[differentiable]` knows the derivative of each method here.
///
/// ```
/// use micrograd_runtime::prelude::*;
///
/// assert_eq!((-2.0_f64).relu(), 0.0);
/// assert_eq!(3.0_f64.relu(), 3.0);
/// assert_eq!(0.0_f64.sigmoid(), 0.5);
/// ```
pub trait Nonlinear {
    /// `max(x, 0)`; NaN stays NaN, as in PyTorch. Its derivative at 0 is 0.
    ///
    /// ```
    /// use micrograd_runtime::prelude::*;
    ///
    /// assert_eq!([-1.0, 0.0, 2.5].map(f64::relu), [0.0, 0.0, 2.5]);
    /// assert!(f64::NAN.relu().is_nan());
    /// ```
    fn relu(self) -> f64;
    /// The logistic function `1 / (1 + e^-x)`.
    ///
    /// ```
    /// use micrograd_runtime::prelude::*;
    ///
    /// assert_eq!(0.0_f64.sigmoid(), 0.5);
    /// assert!((2.0_f64.sigmoid() + (-2.0_f64).sigmoid() - 1.0).abs() < 1e-15); // σ(-x) = 1 - σ(x)
    /// ```
    fn sigmoid(self) -> f64;
}

impl Nonlinear for f64 {
    #[inline]
    fn relu(self) -> f64 {
        if self <= 0.0 { 0.0 } else { self }
    }

    #[inline]
    fn sigmoid(self) -> f64 {
        1.0 / (1.0 + (-self).exp())
    }
}
