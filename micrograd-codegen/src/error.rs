//! Every problem found in one function, reported together.

use crate::scalar::Scalar;
use proc_macro2::{Span, TokenStream};

/// Collects spanned errors so that one build reports all of them (serde_derive's `Ctxt`).
#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
    /// Whether a float type other than the function's was reported already.
    mixed: bool,
}

impl Errors {
    /// Records `message` at `span`.
    pub fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Records `message` over the whole of `tokens` (a multi-token construct such as `&mut`).
    pub fn spanned(&mut self, tokens: impl quote::ToTokens, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records that the float type `found` is written at `span` in a function that computes
    /// in `scalar`. Only the first such token is reported: the rest follow from it.
    pub fn mixed(&mut self, span: Span, scalar: Scalar, found: Scalar) {
        if std::mem::replace(&mut self.mixed, true) {
            return;
        }
        let (scalar, found) = (scalar.name(), found.name());
        self.at(
            span,
            format!("`{found}` mixed with `{scalar}`: this function computes in `{scalar}`, the first float type of its signature, and `#[differentiable]` needs one float type throughout; write `{scalar}` here (or the whole function in `{found}`)"),
        );
    }

    /// Records an error `syn` produced.
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// How many errors were recorded.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether nothing went wrong so far.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// All errors as `compile_error!` invocations.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.errors
            .iter()
            .map(syn::Error::to_compile_error)
            .collect()
    }
}
