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
#[proc_macro_derive(Differentiable)]
pub fn derive_differentiable(item: TokenStream) -> TokenStream {
    micrograd_codegen::derive(item.into()).into()
}
