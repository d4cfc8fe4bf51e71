//! How one `#[differentiable]` function differentiates through a call of another.
//!
//! A caller of `g` goes through functions the macro wrote beside `g`: `g_pullback` in the
//! reverse sweep, the hidden `g_tangent` in forward mode, and `g_tangent_pullback` in a
//! Hessian. Two things keep that deliberate:
//!
//! - `g_pullback(x, .., seed)` takes its seed as `impl Seed<f64>` (`[f64; M]` or a tuple for a
//!   function of several outputs). A user passes the seed itself, `g_pullback(x, 1.0)`; a
//!   caller passes it wrapped, `g_pullback(x, ByCaller(d_y))`, which only a generated pullback
//!   takes. So a hand-written `g_pullback` beside a plain `g` is never picked up by accident:
//!   the call fails to build with "expected `f64`, found `ByCaller<f64>`", and the way to give
//!   `g` a derivative of your own is `#[differentiable(derivative(x = rule))]`.
//! - A function built without `jvp` (or `hvp`) has a stub `g_tangent` (`g_tangent_pullback`)
//!   that no call satisfies: a caller with `jvp`, `hvp` or `hessian` gets one error at its call
//!   of `g`, saying which option `g` needs ([`BuiltWithJvp`], [`BuiltWithHvp`]).
//!
//! ```
//! use micrograd_runtime::calls::ByCaller;
//! use micrograd_runtime::prelude::*;
//!
//! #[differentiable]
//! fn square(x: f64) -> f64 {
//!     x * x
//! }
//!
//! assert_eq!(square_pullback(3.0, 1.0), 6.0); // the seed itself
//! assert_eq!(square_pullback(3.0, ByCaller(0.5)), 3.0); // as a caller passes it
//! ```

/// A pullback's seed: the value itself, or the value wrapped in [`ByCaller`].
///
/// ```
/// use micrograd_runtime::calls::{ByCaller, Seed};
///
/// fn scaled(seed: impl Seed<f64>) -> f64 {
///     2.0 * seed.value()
/// }
///
/// assert_eq!(scaled(1.5), 3.0);
/// assert_eq!(scaled(ByCaller(1.5)), 3.0);
/// ```
pub trait Seed<T> {
    /// The seed's value.
    ///
    /// ```
    /// use micrograd_runtime::calls::{ByCaller, Seed};
    ///
    /// let seed: [f64; 2] = Seed::<[f64; 2]>::value(ByCaller([1.0, 2.0]));
    /// assert_eq!(seed, [1.0, 2.0]);
    /// assert_eq!(Seed::<(f64, f64)>::value((0.5, 0.25)), (0.5, 0.25));
    /// ```
    fn value(self) -> T;
}

// Not `#[doc(hidden)]`: rustdoc still lists a blanket impl on every type's page and would only
// drop it from this trait's implementors. It cannot be narrowed to concrete types either: a
// function generic over `T: Float` takes its seed as a `T`.
impl<T> Seed<T> for T {
    #[inline(always)]
    fn value(self) -> T {
        self
    }
}

/// A seed passed by a `#[differentiable]` caller; see [the module](self).
///
/// ```
/// use micrograd_runtime::calls::ByCaller;
/// use micrograd_runtime::prelude::*;
///
/// #[differentiable]
/// fn polar(r: f64, theta: f64) -> [f64; 2] {
///     [r * theta.cos(), r * theta.sin()]
/// }
///
/// // A caller's seed for both outputs: d/dr of (x + y) = cos θ + sin θ.
/// let (d_r, _) = polar_pullback(2.0, 0.0, ByCaller([1.0, 1.0]));
/// assert_eq!(d_r, 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ByCaller<T>(pub T);

impl<T> Seed<T> for ByCaller<T> {
    #[inline(always)]
    fn value(self) -> T {
        self.0
    }
}

/// Asked of [`Missing`] by the stub `g_tangent` of a function built without `jvp`: never
/// implemented for it, so a forward-mode caller's call of `g` does not build, with this message.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "this function is built without forward mode, which the caller's `jvp`, `hvp` or `hessian` goes through",
    label = "built without `jvp`",
    note = "add `jvp` to the attribute of the function called here, `#[differentiable(jvp)]`, or `hvp` if the caller asks for `hvp` or `hessian`"
)]
pub trait BuiltWithJvp {}

/// Asked of [`Missing`] by the stub `g_tangent_pullback` of a function built with `jvp` but
/// without `hvp`: a caller's Hessian goes through the second order of `g`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "this function is built without `hvp`, which the caller's `hvp` or `hessian` goes through",
    label = "built without `hvp`",
    note = "add `hvp` to the attribute of the function called here: `#[differentiable(hvp)]`"
)]
pub trait BuiltWithHvp {}

/// Asked of [`Missing`] by the stubs `g_grad_pullback` and `__g_grad_tangent` (and those of
/// `g_jvp`) of a function built without `hvp`: a caller differentiates through a call of
/// `g_grad` or `g_jvp` with `g`'s Hessian-vector products.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a call of `g_grad` or `g_jvp` is differentiated through `g`'s Hessian-vector products, and this function is built without `hvp`",
    label = "built without `hvp`",
    note = "add `hvp` to the attribute of the function whose `_grad` or `_jvp` is called here: `#[differentiable(hvp)]`"
)]
pub trait NestedBuiltWithHvp {}

/// Asked of [`Missing`] by the stubs `__g_grad_tangent_pullback` and `__g_jvp_tangent_pullback`:
/// a caller's `hvp` or `hessian` through a call of `g_grad` or `g_jvp` would be a third
/// derivative of `g`, which is not generated.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "the caller's `hvp` or `hessian` differentiates this call of a gradient (or `_jvp`) twice, a third derivative, which is not generated",
    label = "a third derivative",
    note = "a function calling `g_grad` or `g_jvp` has `f_grad`, `f_pullback` and `f_jvp`: remove `hvp` and `hessian` from the caller's `#[differentiable(..)]`"
)]
pub trait SecondOrderOnly {}

/// The type the stubs ask [`BuiltWithJvp`] or [`BuiltWithHvp`] of. A bound over every
/// lifetime is checked where the stub is called, not where it is defined.
#[doc(hidden)]
pub struct Missing<'a>(core::marker::PhantomData<&'a ()>);

// Implemented for another type, so rustc does not add "this trait has no implementations".
impl BuiltWithJvp for () {}
impl BuiltWithHvp for () {}
impl NestedBuiltWithHvp for () {}
impl SecondOrderOnly for () {}
