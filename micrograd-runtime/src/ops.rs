//! Scalar operations that `f64` and `f32` lack but micrograd has, such as `relu`.
//!
//! ```
//! use micrograd_runtime::prelude::*;
//!
//! #[differentiable(wrt(w))]
//! fn neuron(w: f64, x: f64) -> f64 {
//!     (w * x).relu() + (w * x).sigmoid()
//! }
//!
//! let (value, d_w) = neuron_grad(-1.0, 2.0);
//! let s = (-2.0f64).sigmoid();
//! assert_eq!(value, s); // relu(-2) = 0
//! assert_eq!(d_w, 2.0 * s * (1.0 - s)); // x · (relu'(-2) + sigmoid'(-2))
//! ```

/// Nonlinear functions on `f64` and `f32`, so that `x.relu()` reads as it does in micrograd.
///
/// `#[differentiable]` knows the derivative of each method here.
///
/// ```
/// use micrograd_runtime::prelude::*;
///
/// assert_eq!((-2.0_f64).relu(), 0.0);
/// assert_eq!(3.0_f64.relu(), 3.0);
/// assert_eq!(0.0_f64.sigmoid(), 0.5);
/// assert_eq!((-2.0_f32).relu(), 0.0_f32);
/// assert_eq!(0.0_f32.sigmoid(), 0.5_f32);
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
    fn relu(self) -> Self;
    /// The logistic function `1 / (1 + e^-x)`.
    ///
    /// ```
    /// use micrograd_runtime::prelude::*;
    ///
    /// assert_eq!(0.0_f64.sigmoid(), 0.5);
    /// assert!((2.0_f64.sigmoid() + (-2.0_f64).sigmoid() - 1.0).abs() < 1e-15); // σ(-x) = 1 - σ(x)
    /// ```
    fn sigmoid(self) -> Self;
}

/// One implementation per float type, written once.
macro_rules! nonlinear {
    ($($float:ty),*) => {$(
        impl Nonlinear for $float {
            #[inline]
            fn relu(self) -> $float {
                if self <= 0.0 { 0.0 } else { self }
            }

            #[inline]
            fn sigmoid(self) -> $float {
                1.0 / (1.0 + (-self).exp())
            }
        }
    )*};
}

nonlinear!(f64, f32);

/// Stops gradients: `x.detach()` is `x`, but `#[differentiable]` treats it as a constant, as
/// PyTorch's `tensor.detach()` and JAX's `lax.stop_gradient` do.
///
/// Use it for a target computed from the parameters that should not be pulled towards them
/// (a moving average, a bootstrapped value), or to cut a gradient path on purpose.
///
/// ```
/// use micrograd_runtime::prelude::*;
///
/// // ∂/∂a of a · stop(a) is stop(a) alone: the detached factor is a constant.
/// #[differentiable]
/// fn f(a: f64) -> f64 {
///     a * a.detach()
/// }
///
/// assert_eq!(f_grad(3.0), (9.0, 3.0)); // not 2a = 6
/// assert_eq!(3.0_f64.detach(), 3.0);
/// ```
pub trait Detach {
    /// The same value, through which no gradient flows.
    ///
    /// ```
    /// use micrograd_runtime::prelude::*;
    ///
    /// assert_eq!(2.5_f64.detach(), 2.5);
    /// assert_eq!(2.5_f32.detach(), 2.5);
    /// ```
    fn detach(self) -> Self;
}

impl Detach for f64 {
    #[inline]
    fn detach(self) -> f64 {
        self
    }
}

impl Detach for f32 {
    #[inline]
    fn detach(self) -> f32 {
        self
    }
}

/// Implemented for pairs of one type only: `#[differentiable]` asks it of
/// `(the method the user's call resolves to, Nonlinear's method)`, so a `relu` or `sigmoid` from
/// another trait fails to build instead of being differentiated with `Nonlinear`'s rule.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "this method is not micrograd_runtime's own (`Nonlinear` or `Detach`), whose derivative `#[differentiable]` uses",
    label = "another trait's method of the same name (the types: called, differentiated)",
    note = "bring `micrograd_runtime::prelude::*` into scope and no other trait with this method, or write your function out (a leaky ReLU: `if x > 0.0 {{ x }} else {{ 0.01 * x }}`) so that `#[differentiable]` sees its formula"
)]
pub trait SameFunction {}

impl<T> SameFunction for (T, T) {}

/// Compiles only if both elements of `pair` have one type: for function items, are one function.
#[doc(hidden)]
pub fn same_function<P: SameFunction>(pair: P) -> P {
    pair
}

/// `len` entries of nothing: a slice of any length to take sub-slices of, without storage.
static ENTRIES: [(); usize::MAX] = [(); usize::MAX];

/// The length of the sub-slice `range` of a slice of `len` entries, or the panic of taking it:
/// what `&w[a..b]` (or `a..`, `..b`, `..=b`) checks.
///
/// Generated gradients read a view's entries from the slice it views and never take the
/// sub-slice itself, so they call this where `f` takes it, and panic where `f` does, with the
/// same message, even when the view is never read.
///
/// ```
/// use micrograd_runtime::ops::view_len;
///
/// assert_eq!(view_len(2..5, 10), 3);
/// assert_eq!(view_len(7.., 10), 3);
/// assert!(std::panic::catch_unwind(|| view_len(2..10, 5)).is_err());
/// assert!(std::panic::catch_unwind(|| view_len(4..3, 5)).is_err());
/// ```
#[inline]
#[track_caller]
#[doc(hidden)]
pub fn view_len<R>(range: R, len: usize) -> usize
where
    R: core::slice::SliceIndex<[()], Output = [()]>,
{
    // Slicing a slice of zero-sized entries runs std's own checks, so the messages are its own.
    ENTRIES[..len][range].len()
}

/// `index`, or the panic of indexing `len` entries there: what indexing a slice checks.
///
/// Generated gradients read the entries of a view (`x[i]` of `let x = &w[a..b];`) from the
/// slice it views, so they check `i` against the view's own length with this, and panic
/// where the original function panics, with the same message.
///
/// ```
/// use micrograd_runtime::ops::index_in;
///
/// assert_eq!(index_in(1, 2), 1);
/// assert!(std::panic::catch_unwind(|| index_in(2, 2)).is_err());
/// ```
#[inline]
#[track_caller]
#[doc(hidden)]
pub fn index_in(index: usize, len: usize) -> usize {
    if index >= len {
        panic!("index out of bounds: the len is {len} but the index is {index}");
    }
    index
}
