//! Every problem found in one function, reported together.

use proc_macro2::{Span, TokenStream};

/// Collects spanned errors so that one build reports all of them (serde_derive's `Ctxt`).
#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
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
