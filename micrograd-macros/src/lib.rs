//! The `#[differentiable]` attribute of micrograd-rs: [`differentiable`] is the full reference.
//!
//! Users depend on `micrograd-runtime`, which re-exports this attribute in its prelude.
//! The compiler itself lives in `micrograd-codegen`, so that it can be tested and fuzzed
//! as a plain function on token streams.

use proc_macro::TokenStream;

#[doc = include_str!("../doc/differentiable.md")]
#[proc_macro_attribute]
pub fn differentiable(attr: TokenStream, item: TokenStream) -> TokenStream {
    micrograd_codegen::expand(attr.into(), item.into()).into()
}

/// `#[derive(Differentiable)]`: makes a struct of `f64`, `[f64; N]`, `Vec<f64>`, integers, `bool`
/// and other such structs a parameter type of `#[differentiable]` functions (`p: &S`, with the
/// shadow `d_p: &mut S` after it). See `micrograd_runtime::shadow`.
///
/// ```
/// use micrograd_runtime::prelude::*;
///
/// #[derive(Differentiable)]
/// struct Line {
///     slope: f64,
///     intercept: f64,
/// }
///
/// #[differentiable]
/// fn residual(p: &Line, x: f64, y: f64) -> f64 {
///     (p.slope * x + p.intercept - y).powi(2)
/// }
///
/// let line = Line { slope: 2.0, intercept: 1.0 };
/// let mut d_line = line.zeroed_like(); // a shadow of the same shape, every float zero
/// let (value, d_x, d_y) = residual_grad(&line, &mut d_line, 3.0, 4.0);
/// assert_eq!((value, d_x, d_y), (9.0, 12.0, -6.0)); // r = 3: 2r · slope, -2r
/// assert_eq!((d_line.slope, d_line.intercept), (18.0, 6.0)); // 2r · x, 2r
/// ```
#[proc_macro_derive(Differentiable)]
pub fn derive_differentiable(item: TokenStream) -> TokenStream {
    micrograd_codegen::derive(item.into()).into()
}
