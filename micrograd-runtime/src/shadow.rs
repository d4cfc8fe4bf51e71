//! Parameter structs: what `#[derive(Differentiable)]` provides and `#[differentiable]` relies on.
//!
//! A `#[differentiable]` function may take its parameters as `p: &S` for a struct `S` of `f64`,
//! `[f64; N]`, `Vec<f64>`, nested such structs, integers and `bool`s. Its `f_grad` then takes a
//! shadow `d_p: &mut S` right after `p` and adds the gradient into the matching fields, as
//! Enzyme and Rust's `std::autodiff` do. The attribute cannot see the struct's definition, so
//! it requires `S: Differentiable`, which the derive writes; `zeroed_like` makes the shadow.
//!
//! ```
//! use micrograd_runtime::prelude::*;
//!
//! #[derive(Differentiable)]
//! struct Line {
//!     w: [f64; 2],
//!     b: f64,
//! }
//!
//! #[differentiable]
//! fn line(p: &Line, x: &[f64]) -> f64 {
//!     p.w[0] * x[0] + p.w[1] * x[1] + p.b
//! }
//!
//! let p = Line { w: [2.0, 3.0], b: 1.0 };
//! let mut d_p = p.zeroed_like(); // every f64 zero, the same shape as `p`
//! let mut d_x = [0.0; 2];
//! let value = line_grad(&p, &mut d_p, &[5.0, 7.0], &mut d_x);
//! assert_eq!(value, 32.0);
//! assert_eq!((d_p.w, d_p.b), ([5.0, 7.0], 1.0));
//! ```

/// A value `#[differentiable]` functions take by reference, with a shadow of the same type.
///
/// Derive it (`#[derive(Differentiable)]`) for a struct with named fields of the types
/// implementing it: `f64`, `[f64; N]`, `Vec<f64>` (or their `f32` versions), integers, `bool`,
/// other derived structs, and `Vec`s and arrays of them (`layers: Vec<Layer>`).
///
/// ```
/// use micrograd_runtime::prelude::*;
///
/// #[derive(Differentiable)]
/// struct Affine {
///     w: [f64; 2],
///     b: f64,
/// }
///
/// #[differentiable]
/// fn score(p: &Affine, x: &[f64; 2]) -> f64 {
///     p.w[0] * x[0] + p.w[1] * x[1] + p.b
/// }
///
/// let p = Affine { w: [2.0, -1.0], b: 0.5 };
/// let mut d_p = p.zeroed_like();
/// let mut d_x = [0.0; 2];
/// let value = score_grad(&p, &mut d_p, &[3.0, 4.0], &mut d_x);
/// assert_eq!((value, d_p.w, d_p.b, d_x), (2.5, [3.0, 4.0], 1.0, [2.0, -1.0]));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a parameter type of `#[differentiable]` functions",
    label = "`{Self}` does not implement `Differentiable`",
    note = "a parameter struct needs `#[derive(Differentiable)]` (from `micrograd_runtime::prelude`) on its definition; its fields may be `f64`, `[f64; N]`, `Vec<f64>`, integers, `bool`, other such structs and `Vec`s or arrays of them"
)]
pub trait Differentiable {
    /// A value of the same shape with every `f64` zero: the shadow `f_grad` adds a gradient
    /// into. Integers and `bool`s are copied, since they have no derivative.
    ///
    /// ```
    /// use micrograd_runtime::prelude::*;
    ///
    /// #[derive(Differentiable, Debug, PartialEq)]
    /// struct Line {
    ///     slope: f64,
    ///     bias: [f64; 2],
    ///     terms: usize,
    /// }
    ///
    /// let line = Line { slope: 2.0, bias: [1.0, -1.0], terms: 3 };
    /// assert_eq!(line.zeroed_like(), Line { slope: 0.0, bias: [0.0; 2], terms: 3 });
    /// ```
    fn zeroed_like(&self) -> Self;

    /// Sets every `f64` to zero, keeping the shape: reuses a shadow between gradient steps.
    ///
    /// ```
    /// use micrograd_runtime::prelude::*;
    ///
    /// #[derive(Differentiable)]
    /// struct Weights {
    ///     w: Vec<f64>,
    ///     b: f64,
    /// }
    ///
    /// let mut d = Weights { w: vec![0.5, 1.5], b: 2.0 };
    /// d.zero();
    /// assert_eq!((d.w, d.b), (vec![0.0, 0.0], 0.0));
    /// ```
    fn zero(&mut self);

    /// Visits every float of type `F` (`f64`, or `f32`) in flat order: fields in declaration
    /// order, arrays and `Vec`s entry by entry, nested structs in place; integers and `bool`s
    /// have none. `f_hessian` numbers a struct's rows and columns in this order.
    ///
    /// ```
    /// use micrograd_runtime::prelude::*;
    ///
    /// #[derive(Differentiable)]
    /// struct Layer {
    ///     w: [f64; 2],
    ///     steps: usize,
    ///     b: f64,
    /// }
    ///
    /// let mut layer = Layer { w: [1.0, 2.0], steps: 3, b: 4.0 };
    /// let mut entries = Vec::new();
    /// layer.for_each_entry::<f64>(&mut |x| entries.push(*x));
    /// assert_eq!(entries, [1.0, 2.0, 4.0]);
    /// ```
    fn for_each_entry<F: 'static>(&mut self, visit: &mut dyn FnMut(&mut F));
}

/// `f64` and `f32` (in arrays and `Vec`s below).
macro_rules! float {
    ($($float:ty),*) => {$(
        impl Differentiable for $float {
            fn zeroed_like(&self) -> Self {
                0.0
            }

            fn zero(&mut self) {
                *self = 0.0;
            }

            fn for_each_entry<F: 'static>(&mut self, visit: &mut dyn FnMut(&mut F)) {
                // `F` is known statically: the test folds away.
                if let Some(entry) = (self as &mut dyn ::core::any::Any).downcast_mut::<F>() {
                    visit(entry);
                }
            }
        }
    )*};
}

float!(f64, f32);

/// Arrays and `Vec`s of anything differentiable, entry by entry: of floats (`[f64; N]`,
/// `Vec<f64>`), and of parameter structs (`layers: Vec<Layer>`, whose elements'
/// `#[differentiable]` methods are called as `self.layers[i].forward(x)`).
impl<T: Differentiable, const N: usize> Differentiable for [T; N] {
    fn zeroed_like(&self) -> Self {
        self.each_ref().map(Differentiable::zeroed_like)
    }

    fn zero(&mut self) {
        for entry in self.iter_mut() {
            entry.zero();
        }
    }

    fn for_each_entry<F: 'static>(&mut self, visit: &mut dyn FnMut(&mut F)) {
        for entry in self.iter_mut() {
            entry.for_each_entry(visit);
        }
    }
}

impl<T: Differentiable> Differentiable for Vec<T> {
    fn zeroed_like(&self) -> Self {
        self.iter().map(Differentiable::zeroed_like).collect()
    }

    fn zero(&mut self) {
        for entry in self.iter_mut() {
            entry.zero();
        }
    }

    fn for_each_entry<F: 'static>(&mut self, visit: &mut dyn FnMut(&mut F)) {
        for entry in self.iter_mut() {
            entry.for_each_entry(visit);
        }
    }
}

/// Integers and `bool`s: passed through, so a shadow holds a copy.
macro_rules! constant {
    ($($ty:ty),*) => {$(
        impl Differentiable for $ty {
            fn zeroed_like(&self) -> Self {
                *self
            }

            fn zero(&mut self) {}

            fn for_each_entry<F: 'static>(&mut self, _: &mut dyn FnMut(&mut F)) {}
        }
    )*};
}

constant!(
    bool, usize, isize, u8, u16, u32, u64, u128, i8, i16, i32, i64, i128
);

/// The integers a field read in integer position may hold (`0..p.n`, `p.k as f64`).
#[diagnostic::on_unimplemented(
    message = "this field is used as an integer, but it is `{Self}`",
    label = "`#[differentiable]` reads this field as an integer from how the function uses it",
    note = "declare the field with an integer type, or use it as an `f64` (an `f64` in `as f64` is read as an integer; drop the cast)"
)]
#[doc(hidden)]
pub trait Integer: Copy {}

macro_rules! integer {
    ($($ty:ty),*) => {$( impl Integer for $ty {} )*};
}

integer!(
    usize, isize, u8, u16, u32, u64, u128, i8, i16, i32, i64, i128
);

/// Pins a field read as an integer to an integer type, so a wrong guess of `#[differentiable]`
/// is a compile error at the field, never a derivative silently dropped.
#[doc(hidden)]
#[inline(always)]
pub fn integer<T: Integer>(n: T) -> T {
    n
}

/// Compiles only for `T: Differentiable`: the generated code asks it of each parameter struct.
#[doc(hidden)]
#[inline(always)]
pub fn parameter_struct<T: Differentiable>() {}
