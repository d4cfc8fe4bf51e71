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

/// The seed of one output of a call returning `[T; N]` whose `N` the caller cannot see: `seed`
/// at `k`, `zero` elsewhere, its length `N` inferred from the pullback the caller passes it to.
/// A `#[differentiable]` caller binding `let oc = sub3(o, c);` without a type reads the outputs
/// in a loop over the callee's hidden output count, and seeds each output's pullback with this.
///
/// ```
/// use micrograd_runtime::calls::unit;
///
/// let seed: [f64; 3] = unit(1, 2.5, 0.0);
/// assert_eq!(seed, [0.0, 2.5, 0.0]);
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn unit<T: Copy, const N: usize>(k: usize, seed: T, zero: T) -> [T; N] {
    let mut entries = [zero; N];
    entries[k] = seed;
    entries
}

/// The seed of output `k` of a call returning a tuple of `T`s whose width the caller cannot
/// see: `seed` at `k`, `zero` elsewhere, the tuple's width inferred from the pullback the caller
/// passes it to, as [`unit`]'s length is. A `#[differentiable]` caller binding
/// `let r = pair(x);` without a type and reading `r.0`, `r.1` (or writing `pair(x).1`) seeds
/// each output's pullback with this.
///
/// ```
/// use micrograd_runtime::calls::tuple_unit;
///
/// let seed: (f64, f64, f64) = tuple_unit(1, 2.5, 0.0);
/// assert_eq!(seed, (0.0, 2.5, 0.0));
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn tuple_unit<T: Copy, U: TupleOf<T>>(k: usize, seed: T, zero: T) -> U {
    U::unit(k, seed, zero)
}

/// A tuple of `T`s (of 1 to 12), built entry by entry by [`tuple_unit`].
#[doc(hidden)]
pub trait TupleOf<T> {
    /// `seed` at `k`, `zero` elsewhere.
    fn unit(k: usize, seed: T, zero: T) -> Self;
}

/// `T` at every index of the list, for the tuple types of [`TupleOf`].
macro_rules! tuples_of {
    ($(($($k:tt)+))+) => {$(
        impl<T: Copy> TupleOf<T> for ($(tuples_of!(@ty $k),)+) {
            #[inline(always)]
            fn unit(k: usize, seed: T, zero: T) -> Self {
                ($(if k == $k { seed } else { zero },)+)
            }
        }
    )+};
    (@ty $k:tt) => { T };
}

tuples_of! {
    (0)
    (0 1)
    (0 1 2)
    (0 1 2 3)
    (0 1 2 3 4)
    (0 1 2 3 4 5)
    (0 1 2 3 4 5 6)
    (0 1 2 3 4 5 6 7)
    (0 1 2 3 4 5 6 7 8)
    (0 1 2 3 4 5 6 7 8 9)
    (0 1 2 3 4 5 6 7 8 9 10)
    (0 1 2 3 4 5 6 7 8 9 10 11)
}

/// How a caller differentiates through a call made only for what it writes (`g(x, &mut out);`,
/// its value dropped): the callee may return `()`, whose outputs are what it leaves in its
/// `&mut` parameters and whose pullback takes no seed, or an `f64` the caller drops, whose
/// pullback takes the seed `ByCaller(0.0)`. The caller cannot see which (a macro sees one
/// function), so it passes the pullback, its `N` arguments and the zero seed to `DroppedN`, and
/// the one of its two impls that the pullback's arity satisfies calls it: with `N` arguments,
/// or with `ByCaller(seed)` after them (the adjoint of a value nobody reads). The arguments are the
/// method's own, typed as the pullback's parameters, so they coerce as in a direct call
/// (`&mut d_h` of an array to `&mut [f64]`).
///
/// ```
/// use micrograd_runtime::calls::Seed;
/// use micrograd_runtime::calls::dropped::Dropped2;
///
/// fn unit_pullback(x: f64, d_y: &mut [f64]) -> f64 {
///     let d = 2.0 * x * d_y[0];
///     d_y[0] = 0.0;
///     d
/// }
/// fn value_pullback(x: f64, d_y: &mut [f64], seed: impl Seed<f64>) -> f64 {
///     3.0 * x * d_y[0] + seed.value()
/// }
/// assert_eq!(Dropped2::dropped(unit_pullback, 2.0, &mut [1.0], 0.0), 4.0);
/// assert_eq!(Dropped2::dropped(value_pullback, 2.0, &mut [1.0], 0.0), 6.0);
/// ```
#[doc(hidden)]
// A pullback takes two arguments per parameter and more: one per argument is the point.
#[allow(clippy::too_many_arguments)]
pub mod dropped {
    use super::ByCaller;

    /// The impl of a pullback without a seed (a function returning `()`).
    pub struct Unseeded<A>(core::marker::PhantomData<A>);

    /// The impl of a pullback taking `ByCaller<S>` last.
    pub struct Seeded<A>(core::marker::PhantomData<A>);

    macro_rules! dropped {
        ($name:ident; $($arg:ident $value:ident)*) => {
            /// A pullback called with this many arguments, and a zero seed if it takes one.
            #[diagnostic::on_unimplemented(
                message = "a `#[differentiable]` function's pullback does not take these arguments",
                label = "the pullback of the function called here",
                note = "a call made for what it writes (`g(x, &mut out);`) goes through `g_pullback`, which `#[differentiable]` writes beside `g`; add the attribute to `g`"
            )]
            pub trait $name<Marker, S> {
                $(
                    /// A parameter's type.
                    type $arg;
                )*
                /// What the pullback returns: the partials of the callee's `f64` parameters.
                type Output;
                /// Calls the pullback, with `ByCaller(seed)` if it takes a seed.
                fn dropped(self, $($value: Self::$arg,)* seed: S) -> Self::Output;
            }

            impl<F, R, S, $($arg,)*> $name<Unseeded<($($arg,)*)>, S> for F
            where
                F: FnOnce($($arg),*) -> R,
            {
                $(type $arg = $arg;)*
                type Output = R;
                #[inline(always)]
                fn dropped(self, $($value: $arg,)* _: S) -> R {
                    self($($value),*)
                }
            }

            impl<F, R, S, $($arg,)*> $name<Seeded<($($arg,)*)>, S> for F
            where
                F: FnOnce($($arg,)* ByCaller<S>) -> R,
            {
                $(type $arg = $arg;)*
                type Output = R;
                #[inline(always)]
                fn dropped(self, $($value: $arg,)* seed: S) -> R {
                    self($($value,)* ByCaller(seed))
                }
            }
        };
    }

    dropped!(Dropped0;);
    dropped!(Dropped1; A1 a1);
    dropped!(Dropped2; A1 a1 A2 a2);
    dropped!(Dropped3; A1 a1 A2 a2 A3 a3);
    dropped!(Dropped4; A1 a1 A2 a2 A3 a3 A4 a4);
    dropped!(Dropped5; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5);
    dropped!(Dropped6; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6);
    dropped!(Dropped7; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7);
    dropped!(Dropped8; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8);
    dropped!(Dropped9; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9);
    dropped!(Dropped10; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10);
    dropped!(Dropped11; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11);
    dropped!(Dropped12; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12);
    dropped!(Dropped13; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13);
    dropped!(Dropped14; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14);
    dropped!(Dropped15; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15);
    dropped!(Dropped16; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16);
    dropped!(Dropped17; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17);
    dropped!(Dropped18; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18);
    dropped!(Dropped19; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19);
    dropped!(Dropped20; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20);
    dropped!(Dropped21; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21);
    dropped!(Dropped22; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22);
    dropped!(Dropped23; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23);
    dropped!(Dropped24; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24);
    dropped!(Dropped25; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25);
    dropped!(Dropped26; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25 A26 a26);
    dropped!(Dropped27; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25 A26 a26 A27 a27);
    dropped!(Dropped28; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25 A26 a26 A27 a27 A28 a28);
    dropped!(Dropped29; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25 A26 a26 A27 a27 A28 a28 A29 a29);
    dropped!(Dropped30; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25 A26 a26 A27 a27 A28 a28 A29 a29 A30 a30);
    dropped!(Dropped31; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25 A26 a26 A27 a27 A28 a28 A29 a29 A30 a30 A31 a31);
    dropped!(Dropped32; A1 a1 A2 a2 A3 a3 A4 a4 A5 a5 A6 a6 A7 a7 A8 a8 A9 a9 A10 a10 A11 a11 A12 a12 A13 a13 A14 a14 A15 a15 A16 a16 A17 a17 A18 a18 A19 a19 A20 a20 A21 a21 A22 a22 A23 a23 A24 a24 A25 a25 A26 a26 A27 a27 A28 a28 A29 a29 A30 a30 A31 a31 A32 a32);
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

/// Asked of [`Missing`] by the stub `g_tangent_pullback` of a function returning `()` that writes
/// its outputs through `&mut` parameters: its second order is not generated yet.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "this function returns `()` and writes its outputs through `&mut` parameters, and the caller's `hvp` or `hessian` cannot go through it yet",
    label = "its outputs written through `&mut`",
    note = "remove `hvp` and `hessian` from the caller's `#[differentiable(..)]` (`f_grad`, `f_pullback` and `f_jvp` go through this call), or have the function called here return its outputs (`-> f64`, `-> [f64; M]`) and build it with `hvp`"
)]
pub trait WrittenOutputsSecondOrder {}

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
impl WrittenOutputsSecondOrder for () {}
